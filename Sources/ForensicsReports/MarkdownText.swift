import ForensicsCore

/// Makes log-derived text safe inside GitHub-flavoured Markdown: one line, no table breaks
/// (`|`), no code spans (backticks), no HTML (`<script>`), no emphasis or link syntax, secrets
/// redacted. A hostile log line can neither break the document nor inject into it.
package struct MarkdownText: Sendable {
    package var redactor: Redactor

    package init(redactor: Redactor) { self.redactor = redactor }

    package func escape(_ raw: String, limit: Int = 300) -> String {
        Self.escape(redactor.redact(raw), limit: limit)
    }

    /// At most `limit` Characters (what a reader counts), then `…`; the replacements work on the
    /// UTF-8 bytes. Bytes, because an ASCII special character must be escaped whatever follows
    /// it: `|` followed by a combining mark is one Character, and a Character-wise `switch` let
    /// it through to break the table row. (Bytes are also five times cheaper: this runs for
    /// every cell of every report.) A CRLF pair becomes one space, like any line end.
    static func escape(_ text: String, limit: Int) -> String {
        var text = text
        var cut = false
        // ASCII without CR: one byte per Character, so the byte count is the Character count.
        let plain = text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
        if plain ? text.utf8.count > limit : text.count > limit {
            text = String(text.prefix(limit))
            cut = true
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        text.withUTF8 { b in
            var i = 0
            while i < b.count {
                let c = b[i]
                switch c {
                case 0x0D:
                    out.append(0x20)
                    if i + 1 < b.count, b[i + 1] == 0x0A { i += 1 }
                case 0x0A, 0x09:
                    out.append(0x20)
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
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self) + (cut ? "…" : "")
    }
}

/// A heading's anchor as GitHub makes it (lower case; letters, digits, `-` and `_` kept; spaces
/// to `-`; the rest dropped), so one link works in the Markdown on GitHub and in the HTML report.
package enum MarkdownAnchor {
    /// The anchors a document has given so far: a repeated heading gets `-1`, `-2`, … as on GitHub.
    package struct Used {
        var counts: [String: Int] = [:]

        package init() {}

        package mutating func next(_ slug: String) -> String {
            let n = counts[slug, default: 0]
            counts[slug] = n + 1
            return n == 0 ? slug : "\(slug)-\(n)"
        }
    }

    package static func slug(_ heading: String) -> String {
        var out = ""
        for c in heading.lowercased() {
            if c == " " {
                out.append("-")
            } else if c.isLetter || c.isNumber || c == "-" || c == "_" {
                out.append(c)
            }
        }
        return out
    }
}
