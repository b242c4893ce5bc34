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
        var body = MarkdownSubsetHTML.convert(markdown)
        // Severity marks as coloured shapes of the page's own font: a machine without an emoji
        // font (a server, a CI runner) showed the Markdown's emoji as empty boxes.
        for (emoji, severity) in [("🟥", "critical"), ("🔴", "error"), ("🟠", "warning"), ("🔵", "info")] {
            body = body.replacingBytes(
                of: emoji, with: "<span class=\"sev sev-\(severity)\">\(severity == "critical" ? "■" : "●")</span>")
        }
        return """
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
            \(body)</body>
            </html>

            """
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
enum MarkdownSubsetHTML {
    static func convert(_ markdown: String) -> String {
        var out: [String] = []
        var paragraph: [String] = []
        var list: [String] = []
        var table: [String] = []
        var anchors = MarkdownAnchor.Used()
        func flush() {
            if !paragraph.isEmpty {
                out.append("<p>" + paragraph.map(inline).joined(separator: " ") + "</p>")
                paragraph = []
            }
            if !list.isEmpty {
                out.append("<ul>" + list.map { "<li>" + inline($0) + "</li>" }.joined() + "</ul>")
                list = []
            }
            if !table.isEmpty {
                out.append(renderTable(table))
                table = []
            }
        }
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var i = 0
        while i < lines.count {
            let line = lines[i]
            i += 1
            if line.hasPrefix("```") {
                flush()
                // A fence closes on a line of exactly its own backticks (the Markdown writer makes
                // a fence longer than any run of backticks in what it quotes).
                let fence = String(line.prefix { $0 == "`" })
                let kind = String(line.dropFirst(fence.count))
                var block: [String] = []
                while i < lines.count, lines[i] != fence {
                    block.append(lines[i])
                    i += 1
                }
                i += 1
                // The tool's own SVG passes as it is; any other block is shown as text.
                out.append(
                    kind == "pf-svg"
                        ? block.joined(separator: "\n")
                        : "<pre><code>" + escape(block.joined(separator: "\n")) + "</code></pre>")
                continue
            }
            if HTMLReporter.ownDetails.contains(line) {
                flush()
                out.append(line)
                continue
            }
            if line.isEmpty {
                flush()
                continue
            }
            if line.hasPrefix("|") {
                if !paragraph.isEmpty || !list.isEmpty { flush() }
                table.append(line)
                continue
            }
            if !table.isEmpty { flush() }
            if let level = headingLevel(line) {
                flush()
                let heading = String(line.dropFirst(level + 1))
                let id = anchors.next(MarkdownAnchor.slug(heading.filter { $0 != "`" && $0 != "\\" }))
                out.append("<h\(level) id=\"\(escape(id))\">" + inline(heading) + "</h\(level)>")
                continue
            }
            if line.hasPrefix("- ") || line.hasPrefix("* ") {
                if !paragraph.isEmpty { flush() }
                list.append(String(line.dropFirst(2)))
                continue
            }
            paragraph.append(line)
        }
        flush()
        return out.joined(separator: "\n") + "\n"
    }

    static func headingLevel(_ line: String) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return hashes
    }

    static func renderTable(_ rows: [String]) -> String {
        let cells = rows.map(splitRow)
        guard let header = cells.first else { return "" }
        var out = "<table><thead><tr>" + header.map { "<th>" + inline($0) + "</th>" }.joined() + "</tr></thead><tbody>"
        for row in cells.dropFirst()
        where !row.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" || $0 == " " } && !$0.isEmpty }) {
            out += "<tr>" + row.map { "<td>" + inline($0) + "</td>" }.joined() + "</tr>"
        }
        return out + "</tbody></table>"
    }

    /// A table row's cells: split at `|` not preceded by a backslash (`\|` is a literal bar).
    static func splitRow(_ line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for c in line.trimmingCharacters(in: " ") {
            if escaped {
                current.append(c == "|" ? "|" : "\\")
                if c != "|" { current.append(c) }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "|" {
                cells.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        cells.append(current)
        // The row's leading and trailing bars make an empty first and last cell.
        if cells.first?.trimmingCharacters(in: " ").isEmpty == true { cells.removeFirst() }
        if cells.last?.trimmingCharacters(in: " ").isEmpty == true { cells.removeLast() }
        return cells.map { $0.trimmingCharacters(in: " ") }
    }

    /// Inline Markdown: backslash escapes, code spans, `**bold**`, `[text](link)`; the entities
    /// Markdown text already carries stay; any other `<`, `>` or `&` is escaped.
    static func inline(_ text: String) -> String {
        let chars = Array(text)
        var out = ""
        var i = 0
        var bold = false
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isPunctuation || chars[i + 1].isSymbol
            {
                out += escape(String(chars[i + 1]))
                i += 2
            } else if c == "`", let close = chars[(i + 1)...].firstIndex(of: "`") {
                out += "<code>" + escape(String(chars[(i + 1)..<close])) + "</code>"
                i = close + 1
            } else if c == "*", i + 1 < chars.count, chars[i + 1] == "*" {
                out += bold ? "</strong>" : "<strong>"
                bold.toggle()
                i += 2
            } else if c == "[", let mid = linkTextEnd(chars, from: i), mid + 1 < chars.count, chars[mid + 1] == "(",
                let close = chars[(mid + 1)...].firstIndex(of: ")")
            {
                let href = String(chars[(mid + 2)..<close])
                let safe = href.hasPrefix("http://") || href.hasPrefix("https://") || !href.contains(":")
                out +=
                    safe
                    ? "<a href=\"\(escape(href))\">" + inline(String(chars[(i + 1)..<mid])) + "</a>"
                    : inline(String(chars[(i + 1)..<mid]))
                i = close + 1
            } else if c == "&" {
                let rest = String(chars[i..<min(chars.count, i + 6)])
                out += ["&amp;", "&lt;", "&gt;", "&quot;"].contains(where: rest.hasPrefix) ? "&" : "&amp;"
                i += 1
            } else {
                out += escape(String(c))
                i += 1
            }
        }
        if bold { out += "</strong>" }
        return out
    }

    /// The `]` that closes a link's text opened at `open`, passing over code spans (a session id
    /// in backticks may hold a `]`).
    static func linkTextEnd(_ chars: [Character], from open: Int) -> Int? {
        var i = open + 1
        while i < chars.count {
            if chars[i] == "`", let close = chars[(i + 1)...].firstIndex(of: "`") {
                i = close + 1
                continue
            }
            if chars[i] == "]" { return i }
            i += 1
        }
        return nil
    }

    /// Text and attribute values: the same escaping as the SVG's.
    static func escape(_ s: String) -> String { XMLText.escape(s) }
}
