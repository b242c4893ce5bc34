import ForensicsCore

/// A timeline drawn as inline SVG by the tool itself, for the HTML report: no script, no network,
/// readable in any browser and in a ticket attachment. The axis is seconds since the session
/// began (`+12 s`), whatever the reader's time zone; every mark has a tooltip with its exact times.
package enum SVGTimeline {
    static let width = 960.0
    static let plotStart = 280.0
    static let plotEnd = 940.0
    static let rowHeight = 16.0

    static func lines(_ chart: TimelineChart) -> [String] {
        let t0 = chart.from ?? chart.sessionStart
        let t1 = max(chart.rows.map(\.end).max() ?? t0, t0 + 0.001)
        let span = t1 - t0
        func x(_ t: Timestamp) -> Double { plotStart + max(0, min(1, (t - t0) / span)) * (plotEnd - plotStart) }
        func rel(_ t: Timestamp) -> String { "+" + NumberFormat.trimmed(t - chart.sessionStart, decimals: 3) + " s" }

        var body: [String] = []
        var y = 56.0
        for (section, rows) in chart.sections {
            body.append(#"<text x="4" y="\#(f(y + 12))" class="section">\#(escape(section.rawValue))</text>"#)
            y += rowHeight
            for r in rows {
                let tip = escape("\(r.label): \(rel(r.start))" + (r.mark.isInstant ? "" : " → \(rel(r.end))"))
                body.append(#"<text x="12" y="\#(f(y + 12))" class="label">\#(escape(r.label))</text>"#)
                let cls = className(r.mark)
                if r.mark.isInstant {
                    let cx = x(r.start)
                    let cy = y + rowHeight / 2
                    body.append(
                        #"<polygon class="\#(cls)" points="\#(f(cx)),\#(f(cy - 6)) \#(f(cx + 6)),\#(f(cy)) \#(f(cx)),\#(f(cy + 6)) \#(f(cx - 6)),\#(f(cy))"><title>\#(tip)</title></polygon>"#
                    )
                } else {
                    let left = x(r.start)
                    let w = max(2, x(r.end) - left)
                    body.append(
                        #"<rect class="\#(cls)" x="\#(f(left))" y="\#(f(y + 2))" width="\#(f(w))" height="\#(f(rowHeight - 4))"><title>\#(tip)</title></rect>"#
                    )
                }
                y += rowHeight
            }
        }
        let height = y + 8
        var out = [
            #"<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="\#(f(width))" height="\#(f(height))" viewBox="0 0 \#(f(width)) \#(f(height))" role="img" aria-label="\#(escape(chart.title))">"#,
            #"<text x="4" y="18" class="title">\#(escape(chart.title)) · seconds since the session began</text>"#,
        ]
        // Ticks at a round step, labelled in seconds since the session began.
        let step = tickStep(span)
        let firstOffset = ((t0 - chart.sessionStart) / step).rounded(.up) * step
        var offset = firstOffset
        var ticks = 0
        while chart.sessionStart + offset <= t1 + step * 1e-6, ticks < 20 {
            let tx = x(chart.sessionStart + offset)
            out.append(#"<line class="grid" x1="\#(f(tx))" y1="40" x2="\#(f(tx))" y2="\#(f(height - 4))"/>"#)
            out.append(
                #"<text x="\#(f(tx))" y="36" class="tick">+\#(NumberFormat.trimmed(offset, decimals: 3)) s</text>"#)
            offset += step
            ticks += 1
        }
        out += body
        out.append("</svg>")
        return out
    }

    /// A round step giving at most eight ticks over the span.
    static func tickStep(_ span: Double) -> Double {
        let steps = [
            0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
            3600, 7200, 21600, 43200, 86400,
        ]
        return steps.first { span / $0 <= 8 } ?? max(86400, (span / 8).rounded(.up))
    }

    static func className(_ m: TimelineChart.Mark) -> String {
        switch m {
        case .request: "req"
        case .failedRequest: "req-failed"
        case .error: "err"
        case .variantSwitch: "switch"
        case .stall, .stallWithoutDuration: "stall"
        case .finding, .findingInstant: "finding"
        }
    }

    static func f(_ v: Double) -> String { NumberFormat.trimmed(v, decimals: 1) }

    /// XML/HTML text and attribute values; other control characters (but line feed and tab) as spaces.
    package static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c.value < 0x20 && c != "\n" && c != "\t" ? " " : c)
            }
        }
        return out
    }
}
