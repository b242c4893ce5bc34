import ForensicsCore

/// What the Markdown report's timeline draws, before any drawing syntax: rows of requests,
/// errors, stalls and findings with their times, which `MermaidGantt` writes for Markdown readers
/// (GitHub renders Mermaid). The HTML report draws `SessionPicture` instead: Mermaid has no lanes
/// for player state, variant or throughput.
struct TimelineChart {
    enum Section: String, CaseIterable {
        case requests = "Requests", errors = "Errors", switches = "Switches", stalls = "Stalls", findings = "Findings"
    }

    enum Mark {
        case request, failedRequest, error, variantSwitch, stall, stallWithoutDuration, finding, findingInstant

        var isInstant: Bool {
            self == .error || self == .variantSwitch || self == .stallWithoutDuration || self == .findingInstant
        }
    }

    struct Row {
        var section: Section
        /// Already redacted and reduced to letters, digits, spaces, dots and dashes.
        var label: String
        var mark: Mark
        var start: Timestamp
        var end: Timestamp
    }

    var title: String
    var closeUp: Bool
    var sessionStart: Timestamp
    /// The start of a close-up's window (nil: the whole session).
    var from: Timestamp?
    var rows: [Row]

    /// Seconds from the chart's start to its last row's end: a short chart's ticks need
    /// fractions of a second, or every tick reads `+0 s`.
    var span: Double { (rows.map(\.end).max() ?? sessionStart) - (from ?? sessionStart) }

    /// Rows grouped by section, sections in drawing order, rows in the order given.
    var sections: [(Section, [Row])] {
        Section.allCases.compactMap { section in
            let rows = rows.filter { $0.section == section }
            return rows.isEmpty ? nil : (section, rows)
        }
    }
}

/// A timeline as a Mermaid gantt block.
///
/// Times are written as milliseconds since the session began, read by Mermaid as milliseconds
/// since 1970 (`dateFormat x`), and the axis prints them with `%s` (seconds since 1970): so the
/// axis counts seconds since the session began whatever the reader's time zone — `%M:%S` of wall
/// time shifted by half an hour in India and said nothing about the session.
enum MermaidGantt {
    static func lines(_ chart: TimelineChart) -> [String] {
        var out = [
            "```mermaid", "gantt", "    dateFormat x",
            "    axisFormat \(chart.closeUp || chart.span < 30 ? "+%s.%L s" : "+%s s")",
            "    title \(chart.title) (axis: seconds since the session began)",
        ]
        for (section, rows) in chart.sections {
            out.append("    section \(section.rawValue)")
            for r in rows { out.append("    " + line(r, since: chart.sessionStart)) }
        }
        out.append("```")
        return out
    }

    static func ms(_ t: Timestamp, since origin: Timestamp) -> String {
        let v = ((t - origin) * 1000).rounded()
        guard v.isFinite, abs(v) < 1e15 else { return "0" }
        return String(Int64(v))
    }

    static func line(_ r: TimelineChart.Row, since origin: Timestamp) -> String {
        let start = ms(r.start, since: origin)
        let end = ms(r.end, since: origin)
        switch r.mark {
        case .request: return "\(r.label) :\(start), \(end)"
        case .failedRequest: return "\(r.label) :crit, \(start), \(end)"
        case .stall: return "\(r.label) :crit, \(start), \(end)"
        case .stallWithoutDuration, .error: return "\(r.label) :crit, milestone, \(start), 0ms"
        case .variantSwitch: return "\(r.label) :milestone, \(start), 0ms"
        case .finding: return "\(r.label) :active, \(start), \(end)"
        case .findingInstant: return "\(r.label) :milestone, \(start), 0ms"
        }
    }
}
