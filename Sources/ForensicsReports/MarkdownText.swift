import ForensicsCore

/// Makes log-derived text safe inside GitHub-flavoured Markdown: one line, no table breaks
/// (`|`), no code spans (backticks), no HTML (`<script>`), no emphasis or link syntax, secrets
/// redacted. A hostile log line can neither break the document nor inject into it.
public struct MarkdownText: Sendable {
    public var redactor: Redactor

    public init(redactor: Redactor) { self.redactor = redactor }

    public func escape(_ raw: String, limit: Int = 300) -> String {
        let text = redactor.redact(raw)
        return Self.escapeASCII(text, limit: limit) ?? Self.escapeCharacters(text, limit: limit)
    }

    /// The escaping, Character by Character: at most `limit` Characters, then `…`.
    static func escapeCharacters(_ text: String, limit: Int) -> String {
        var text = text
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

    /// The same escaping on bytes, for ASCII text without CR: there every byte is one Character
    /// (a CRLF pair would be one), so the limit and the replacements are exactly those above.
    /// Report text is mostly ASCII, and the Character loop was a fifth of triage's time.
    static func escapeASCII(_ text: String, limit: Int) -> String? {
        var text = text  // withUTF8 needs a var; a native string is not copied
        return text.withUTF8 { b -> String? in
            guard b.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
            let cut = b.count > limit
            var out: [UInt8] = []
            out.reserveCapacity(min(b.count, limit) + 16)
            for c in b.prefix(limit) {
                switch c {
                case 0x0A, 0x09: out.append(0x20)
                case UInt8(ascii: "&"): out += Array("&amp;".utf8)
                case UInt8(ascii: "<"): out += Array("&lt;".utf8)
                case UInt8(ascii: ">"): out += Array("&gt;".utf8)
                case UInt8(ascii: "|"), UInt8(ascii: "`"), UInt8(ascii: "\\"), UInt8(ascii: "*"), UInt8(ascii: "_"),
                    UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "#"), UInt8(ascii: "~"), UInt8(ascii: "!"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(c)
                default:
                    out.append(c < 0x20 ? 0x20 : c)
                }
            }
            return String(decoding: out, as: UTF8.self) + (cut ? "…" : "")
        }
    }
}
