import ForensicsCore

/// Makes log-derived text safe inside GitHub-flavoured Markdown: one line, no table breaks
/// (`|`), no code spans (backticks), no HTML (`<script>`), no emphasis or link syntax, secrets
/// redacted. A hostile log line can neither break the document nor inject into it.
public struct MarkdownText: Sendable {
    public var redactor: Redactor

    public init(redactor: Redactor) { self.redactor = redactor }

    public func escape(_ raw: String, limit: Int = 300) -> String {
        var text = redactor.redact(raw)
        if text.count > limit { text = String(text.prefix(limit)) + "…" }
        var out = ""
        out.reserveCapacity(text.count)
        for ch in text {
            switch ch {
            case "\n", "\r", "\t": out += " "
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "|": out += "\\|"
            case "`": out += "\\`"
            case "\\": out += "\\\\"
            case "*", "_", "[", "]", "#", "~", "!": out += "\\" + String(ch)
            default:
                if let a = ch.asciiValue, a < 0x20 { out += " " } else { out.append(ch) }
            }
        }
        return out
    }
}
