import ForensicsCore

/// The HTML report (`--report html`): one self-contained file — no script, no network, no font
/// or stylesheet to fetch — with the same content as the Markdown summary and the timelines drawn
/// as inline SVG. What a support engineer attaches to a ticket or sends to a CDN partner.
///
/// Why from the Markdown: the content is written once (`MarkdownReporter`) and this writer turns
/// exactly the Markdown that writer produces into HTML — headings, paragraphs, tables, lists,
/// code spans, bold, links, the report's own `<details>` — so the two can never tell different
/// stories. Log text arrives already escaped (`MarkdownText`: entities for `<`, `>`, `&`,
/// backslashes before Markdown punctuation); nothing else in it can become markup.
package struct HTMLReporter: Sendable {
    package var markdown: MarkdownReporter

    package init(redactor: Redactor = Redactor(), toolVersion: String) {
        markdown = MarkdownReporter(redactor: redactor, toolVersion: toolVersion)
        markdown.chartStyle = .svg
    }

    package func render(_ report: AnalysisReport) -> String {
        Self.page(
            markdown: markdown.render(report), title: "Playback forensics report", toolVersion: markdown.toolVersion)
    }

    /// The `<details>` lines the Markdown writer emits itself (a log line saying the same is text:
    /// it arrives escaped).
    static let ownDetails: Set<String> = [
        "<details><summary>Timeline around this finding</summary>", "<details><summary>The rows as logged</summary>",
        "</details>",
    ]

    /// A self-contained page of Markdown this package wrote (a report, the triage overview).
    package static func page(markdown: String, title: String, toolVersion: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(markdown.utf8.count * 2 + style.utf8.count + 512)
        out.append(
            contentsOf: """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta name="generator" content="playback-forensics \(XMLText.escape(toolVersion))">
                <title>\(XMLText.escape(title))</title>
                <style>\(Self.style)</style>
                </head>
                <body>

                """.utf8)
        var body: [UInt8] = []
        body.reserveCapacity(markdown.utf8.count * 2)
        MarkdownSubsetHTML.convert(markdown, into: &body)
        replaceSeverityMarks(body, into: &out)
        out.append(contentsOf: "</body>\n</html>\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Severity marks as coloured shapes of the page's own font: a machine without an emoji font
    /// (a server, a CI runner) showed the Markdown's emoji as empty boxes. Each mark is a
    /// four-byte UTF-8 sequence; its replacement holds none.
    static func replaceSeverityMarks(_ body: [UInt8], into out: inout [UInt8]) {
        var i = 0
        while i < body.count {
            let b = body[i]
            if b == 0xF0, i + 4 <= body.count,
                let mark = severityMarks.first(where: { $0.emoji.elementsEqual(body[i..<(i + 4)]) })
            {
                out.append(contentsOf: mark.html)
                i += 4
            } else {
                out.append(b)
                i += 1
            }
        }
    }

    static let severityMarks: [(emoji: [UInt8], html: [UInt8])] = [
        ("🟥", "critical"), ("🔴", "error"), ("🟠", "warning"), ("🔵", "info"),
    ].map { emoji, severity in
        (
            Array(emoji.utf8),
            Array("<span class=\"sev sev-\(severity)\">\(severity == "critical" ? "■" : "●")</span>".utf8)
        )
    }

    static let style = """
        body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;max-width:1100px;margin:24px auto;padding:0 16px}\
        h1{font-size:24px;border-bottom:1px solid #d0d7de;padding-bottom:6px}h2{font-size:20px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}\
        h3{font-size:17px;margin-top:24px}h4{font-size:15px;margin-top:20px}\
        table{border-collapse:collapse;margin:8px 0 16px;display:block;overflow-x:auto}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}\
        th{background:#f6f8fa}tr:nth-child(even) td{background:#fbfcfd}code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#eff1f3;padding:1px 4px;border-radius:4px}\
        pre{background:#f6f8fa;padding:8px;overflow-x:auto}details{margin:8px 0 16px}summary{cursor:pointer;color:#0969da}\
        .sev{font-size:15px}.sev-critical{color:#a40e26}.sev-error{color:#d1242f}.sev-warning{color:#e36209}.sev-info{color:#0969da}\
        svg.picture{display:block;margin:8px 0 16px;overflow:visible;font:12px -apple-system,"Segoe UI",Helvetica,Arial,sans-serif}\
        svg.picture text{fill:#1f2328;font-size:12px}svg.picture .title{font-weight:600}svg.picture .lane-name{font-weight:600}\
        svg.picture .lane-detail,svg.picture .tick,svg.picture .legend-text,svg.picture .mark-label{font-size:11px;fill:#57606a}\
        svg.picture .tick{text-anchor:middle}svg.picture .grid{stroke:#d8dee4;stroke-width:1}\
        svg.picture .open{font-weight:700;fill:#bc4c00}svg.picture .incident-number{font-weight:700;fill:#7d4e00}\
        svg .incident{fill:#fff8c5;stroke:#d4a72c;stroke-dasharray:3 3}\
        svg .starting{fill:#b6c6d8}svg .playing{fill:#2da44e}svg .paused{fill:#d0d7de}svg .seeking{fill:#a991e6}\
        svg .stalled{fill:#e36209}svg .stalled-open{fill:#fff;stroke:#e36209;stroke-width:2.5}svg .failed{fill:#a40e26}\
        svg .player-unknown{fill:#f6f8fa;fill-opacity:.6;stroke:#afb8c1;stroke-dasharray:4 3}\
        svg .level{stroke:#1f6feb;stroke-width:2.5;fill:#1f6feb}svg .switch-down{stroke:#d1242f;fill:#d1242f;stroke-width:1.5}\
        svg .switch-up{stroke:#1a7f37;fill:#1a7f37;stroke-width:1.5}svg .throughput{stroke:#0a7e8c;fill:#0a7e8c;stroke-width:2.5}\
        svg .observed{stroke:#8c959f;fill:#8c959f;stroke-width:2;stroke-dasharray:5 3}\
        svg .buffer{stroke:#bf8700;fill:#bf8700;stroke-width:1.5}\
        svg .req-ok{fill:#4e79a7}svg .req-failed{fill:#d1242f}svg .req-unknown{fill:#afb8c1}\
        svg .err{fill:#d1242f}svg .console-err{fill:#fff;stroke:#d1242f;stroke-width:2.5}\
        svg .sev-critical{fill:#a40e26}svg .sev-error{fill:#d1242f}svg .sev-warning{fill:#e36209;fill-opacity:.8}svg .sev-info{fill:#0969da;fill-opacity:.7}\
        .picture-legend{display:flex;flex-wrap:wrap;gap:4px 18px;margin:-8px 0 16px;font-size:12px;color:#57606a}\
        .picture-legend .key{white-space:nowrap}.picture-legend svg{margin-right:5px;vertical-align:-1px}\
        .picture-legend rect{stroke-dasharray:none}svg.picture text.inside{fill:#fff}
        """
}

/// Converts the Markdown `MarkdownReporter` writes (and only that) to HTML.
///
/// On UTF-8 bytes: every character the Markdown subset gives a meaning is ASCII, and no byte of a
/// multi-byte sequence is ASCII, so a byte is never mistaken for one of them. Why: character by
/// character (each one a `String` of its own) this conversion was 45 % of a triage run, about
/// 2,600 instructions per byte of Markdown (issue 36).
enum MarkdownSubsetHTML {
    /// `markdown` as HTML (the body of a page).
    static func convert(_ markdown: String) -> String {
        var out: [UInt8] = []
        convert(markdown, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `markdown` as HTML to `out`, each block on a line of its own.
    static func convert(_ markdown: String, into out: inout [UInt8]) {
        let text = Array(markdown.utf8)
        text.withUnsafeBufferPointer { bytes in
            var converter = Converter(bytes: bytes)
            converter.run(into: &out)
        }
    }

    typealias Bytes = UnsafeBufferPointer<UInt8>
    typealias Line = Range<Int>

    static let backtick = UInt8(ascii: "`")
    static let backslash = UInt8(ascii: "\\")
    static let bar = UInt8(ascii: "|")
    static let space = UInt8(ascii: " ")

    /// The block structure: paragraphs, lists and tables gathered line by line, written when a
    /// block ends (in that order, as the Markdown writer's output needs).
    struct Converter {
        let bytes: Bytes
        var paragraph: [Line] = []
        var list: [Line] = []
        var table: [Line] = []
        var anchors = MarkdownAnchor.Used()
        var wroteBlock = false

        init(bytes: Bytes) { self.bytes = bytes }

        mutating func run(into out: inout [UInt8]) {
            var lines: [Line] = []
            var start = 0
            for i in bytes.indices where bytes[i] == 0x0A {
                lines.append(start..<i)
                start = i + 1
            }
            lines.append(start..<bytes.count)
            var i = 0
            while i < lines.count {
                let line = lines[i]
                i += 1
                if hasPrefix(line, "```") {
                    flush(into: &out)
                    // A fence closes on a line of exactly its own backticks (the Markdown writer
                    // makes a fence longer than any run of backticks in what it quotes).
                    var fenceEnd = line.lowerBound
                    while fenceEnd < line.upperBound, bytes[fenceEnd] == backtick { fenceEnd += 1 }
                    let fence = line.lowerBound..<fenceEnd
                    let isSVG = equal(fenceEnd..<line.upperBound, "pf-svg")
                    var block: [Line] = []
                    while i < lines.count, !sameBytes(lines[i], fence) {
                        block.append(lines[i])
                        i += 1
                    }
                    i += 1
                    // The tool's own SVG passes as it is; any other block is shown as text.
                    beginBlock(&out)
                    if !isSVG { out.append(contentsOf: "<pre><code>".utf8) }
                    for (k, b) in block.enumerated() {
                        if k > 0 { out.append(0x0A) }
                        if isSVG {
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[b]))
                        } else {
                            XMLText.append(UnsafeBufferPointer(rebasing: bytes[b]), to: &out)
                        }
                    }
                    if !isSVG { out.append(contentsOf: "</code></pre>".utf8) }
                    continue
                }
                if line.first.map({ bytes[$0] == UInt8(ascii: "<") }) == true, isOwnDetails(line) {
                    flush(into: &out)
                    beginBlock(&out)
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line]))
                    continue
                }
                if line.isEmpty {
                    flush(into: &out)
                    continue
                }
                if bytes[line.lowerBound] == bar {
                    if !paragraph.isEmpty || !list.isEmpty { flush(into: &out) }
                    table.append(line)
                    continue
                }
                if !table.isEmpty { flush(into: &out) }
                if let level = headingLevel(line) {
                    flush(into: &out)
                    let heading = (line.lowerBound + level + 1)..<line.upperBound
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[heading]), as: UTF8.self)
                    let id = anchors.next(MarkdownAnchor.slug(text.filter { $0 != "`" && $0 != "\\" }))
                    beginBlock(&out)
                    out.append(contentsOf: "<h\(level) id=\"".utf8)
                    XMLText.append(id.utf8, to: &out)
                    out.append(contentsOf: "\">".utf8)
                    inline(heading, into: &out)
                    out.append(contentsOf: "</h\(level)>".utf8)
                    continue
                }
                if hasPrefix(line, "- ") || hasPrefix(line, "* ") {
                    if !paragraph.isEmpty { flush(into: &out) }
                    list.append((line.lowerBound + 2)..<line.upperBound)
                    continue
                }
                paragraph.append(line)
            }
            flush(into: &out)
            out.append(0x0A)
        }

        /// Blocks are separated by line feeds.
        mutating func beginBlock(_ out: inout [UInt8]) {
            if wroteBlock { out.append(0x0A) }
            wroteBlock = true
        }

        mutating func flush(into out: inout [UInt8]) {
            if !paragraph.isEmpty {
                beginBlock(&out)
                out.append(contentsOf: "<p>".utf8)
                for (k, line) in paragraph.enumerated() {
                    if k > 0 { out.append(space) }
                    inline(line, into: &out)
                }
                out.append(contentsOf: "</p>".utf8)
                paragraph = []
            }
            if !list.isEmpty {
                beginBlock(&out)
                out.append(contentsOf: "<ul>".utf8)
                for item in list {
                    out.append(contentsOf: "<li>".utf8)
                    inline(item, into: &out)
                    out.append(contentsOf: "</li>".utf8)
                }
                out.append(contentsOf: "</ul>".utf8)
                list = []
            }
            if !table.isEmpty {
                beginBlock(&out)
                renderTable(into: &out)
                table = []
            }
        }

        func isOwnDetails(_ line: Line) -> Bool {
            HTMLReporter.ownDetails.contains(
                String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self))
        }

        func hasPrefix(_ line: Line, _ prefix: StaticString) -> Bool {
            guard line.count >= prefix.utf8CodeUnitCount else { return false }
            var k = line.lowerBound
            for p in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
                if bytes[k] != p { return false }
                k += 1
            }
            return true
        }

        func equal(_ line: Line, _ text: StaticString) -> Bool {
            line.count == text.utf8CodeUnitCount && hasPrefix(line, text)
        }

        func sameBytes(_ a: Line, _ b: Line) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { bytes[$0] == bytes[$1] }
        }

        func headingLevel(_ line: Line) -> Int? {
            var hashes = 0
            while line.lowerBound + hashes < line.upperBound, bytes[line.lowerBound + hashes] == UInt8(ascii: "#") {
                hashes += 1
            }
            guard (1...6).contains(hashes), line.lowerBound + hashes < line.upperBound,
                bytes[line.lowerBound + hashes] == space
            else { return nil }
            return hashes
        }

        func renderTable(into out: inout [UInt8]) {
            guard let header = table.first else { return }
            out.append(contentsOf: "<table><thead><tr>".utf8)
            for cell in cells(header) {
                out.append(contentsOf: "<th>".utf8)
                inline(cell, into: &out)
                out.append(contentsOf: "</th>".utf8)
            }
            out.append(contentsOf: "</tr></thead><tbody>".utf8)
            for row in table.dropFirst() {
                let cells = cells(row)
                // The delimiter row: every cell dashes, colons and spaces, none empty.
                if cells.allSatisfy({ cell in
                    !cell.isEmpty
                        && cell.allSatisfy { b in b == UInt8(ascii: "-") || b == UInt8(ascii: ":") || b == space }
                }) {
                    continue
                }
                out.append(contentsOf: "<tr>".utf8)
                for cell in cells {
                    out.append(contentsOf: "<td>".utf8)
                    inline(cell, into: &out)
                    out.append(contentsOf: "</td>".utf8)
                }
                out.append(contentsOf: "</tr>".utf8)
            }
            out.append(contentsOf: "</tbody></table>".utf8)
        }

        /// A table row's cells, each trimmed of spaces: split at `|` not preceded by a backslash
        /// (`\|` is a literal bar, any other backslash stays). The row's leading and trailing bars
        /// make an empty first and last cell, which are dropped.
        func cells(_ line: Line) -> [[UInt8]] {
            var lower = line.lowerBound
            var upper = line.upperBound
            while lower < upper, bytes[lower] == space { lower += 1 }
            while upper > lower, bytes[upper - 1] == space { upper -= 1 }
            var cells: [[UInt8]] = []
            var current: [UInt8] = []
            var escaped = false
            for k in lower..<upper {
                let c = bytes[k]
                if escaped {
                    if c != bar { current.append(backslash) }
                    current.append(c)
                    escaped = false
                } else if c == backslash {
                    escaped = true
                } else if c == bar {
                    cells.append(current)
                    current = []
                } else {
                    current.append(c)
                }
            }
            if escaped { current.append(backslash) }
            cells.append(current)
            func trimmed(_ cell: [UInt8]) -> [UInt8] {
                var lo = 0
                var hi = cell.count
                while lo < hi, cell[lo] == space { lo += 1 }
                while hi > lo, cell[hi - 1] == space { hi -= 1 }
                return lo == 0 && hi == cell.count ? cell : Array(cell[lo..<hi])
            }
            cells = cells.map(trimmed)
            if cells.first?.isEmpty == true { cells.removeFirst() }
            if cells.last?.isEmpty == true { cells.removeLast() }
            return cells
        }

        func inline(_ line: Line, into out: inout [UInt8]) {
            MarkdownSubsetHTML.inline(UnsafeBufferPointer(rebasing: bytes[line]), into: &out)
        }

        func inline(_ cell: [UInt8], into out: inout [UInt8]) {
            cell.withUnsafeBufferPointer { MarkdownSubsetHTML.inline($0, into: &out) }
        }
    }

    /// ASCII punctuation and symbols: what a backslash escapes.
    static func isEscapable(_ b: UInt8) -> Bool {
        (0x21...0x2F).contains(b) || (0x3A...0x40).contains(b) || (0x5B...0x60).contains(b) || (0x7B...0x7E).contains(b)
    }

    /// Inline Markdown: backslash escapes, code spans, `**bold**`, `[text](link)`; the entities
    /// Markdown text already carries stay; any other `<`, `>` or `&` is escaped.
    static func inline(_ text: Bytes, into out: inout [UInt8]) {
        let n = text.count
        var i = 0
        var bold = false
        func find(_ b: UInt8, from: Int) -> Int? {
            var k = from
            while k < n {
                if text[k] == b { return k }
                k += 1
            }
            return nil
        }
        while i < n {
            let c = text[i]
            if c == backslash, i + 1 < n, isEscapable(text[i + 1]) {
                XMLText.append(CollectionOfOne(text[i + 1]), to: &out)
                i += 2
            } else if c == backtick, let close = find(backtick, from: i + 1) {
                out.append(contentsOf: "<code>".utf8)
                XMLText.append(text[(i + 1)..<close], to: &out)
                out.append(contentsOf: "</code>".utf8)
                i = close + 1
            } else if c == UInt8(ascii: "*"), i + 1 < n, text[i + 1] == UInt8(ascii: "*") {
                out.append(contentsOf: (bold ? "</strong>" : "<strong>").utf8)
                bold.toggle()
                i += 2
            } else if c == UInt8(ascii: "["), let mid = linkTextEnd(text, from: i), mid + 1 < n,
                text[mid + 1] == UInt8(ascii: "("), let close = find(UInt8(ascii: ")"), from: mid + 1)
            {
                let href = UnsafeBufferPointer(rebasing: text[(mid + 2)..<close])
                let label = UnsafeBufferPointer(rebasing: text[(i + 1)..<mid])
                let safe =
                    href.starts(with: "http://".utf8) || href.starts(with: "https://".utf8)
                    || !href.contains(UInt8(ascii: ":"))
                if safe {
                    out.append(contentsOf: "<a href=\"".utf8)
                    XMLText.append(href, to: &out)
                    out.append(contentsOf: "\">".utf8)
                    inline(label, into: &out)
                    out.append(contentsOf: "</a>".utf8)
                } else {
                    inline(label, into: &out)
                }
                i = close + 1
            } else if c == UInt8(ascii: "&") {
                let rest = UnsafeBufferPointer(rebasing: text[i..<min(n, i + 6)])
                let isEntity = ["&amp;", "&lt;", "&gt;", "&quot;"].contains { rest.starts(with: $0.utf8) }
                out.append(contentsOf: (isEntity ? "&" : "&amp;").utf8)
                i += 1
            } else {
                XMLText.append(CollectionOfOne(c), to: &out)
                i += 1
            }
        }
        if bold { out.append(contentsOf: "</strong>".utf8) }
    }

    /// The `]` that closes a link's text opened at `open`, passing over code spans (a session id
    /// in backticks may hold a `]`).
    static func linkTextEnd(_ text: Bytes, from open: Int) -> Int? {
        var i = open + 1
        while i < text.count {
            if text[i] == backtick {
                var close = i + 1
                while close < text.count, text[close] != backtick { close += 1 }
                if close < text.count {
                    i = close + 1
                    continue
                }
            }
            if text[i] == UInt8(ascii: "]") { return i }
            i += 1
        }
        return nil
    }
}
