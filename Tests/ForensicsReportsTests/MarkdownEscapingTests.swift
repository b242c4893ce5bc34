import Testing

@testable import ForensicsReports

/// Markdown escaping works on bytes; for text without combining marks it must give exactly what
/// a Character-by-Character escaper gives, and with them it must still escape.
@Suite struct MarkdownEscapingTests {
    /// The Character-by-Character escaper the byte version replaced: the reference.
    static func referenceEscape(_ text: String, limit: Int) -> String {
        var text = text
        if text.count > limit { text = String(text.prefix(limit)) + "…" }
        var out = ""
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

    @Test func bytesGiveWhatCharactersGiveWithoutCombiningMarks() {
        let alphabet = Array("ab Z09&<>|`\\*_[]#~!\n\r\t\u{01}\u{1F}\u{7F}.:/?=%-\"'→é🎬…".unicodeScalars)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var text = ""
            for _ in 0..<length {
                text.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            let limit = Int.random(in: 0...45, using: &generator)
            #expect(
                MarkdownText.escape(text, limit: limit) == Self.referenceEscape(text, limit: limit),
                "\(text.debugDescription) limit \(limit)")
        }
    }

    @Test func aSpecialCharacterIsEscapedEvenWithACombiningMark() {
        // `|` + U+0301 is one Character: a Character-wise escaper let the pipe through.
        #expect(MarkdownText.escape("a|\u{301}b", limit: 300) == "a\\|\u{301}b")
        #expect(MarkdownText.escape("<\u{301}script>", limit: 300) == "&lt;\u{301}script&gt;")
        #expect(MarkdownText.escape("`\u{301}code`", limit: 300) == "\\`\u{301}code\\`")
    }

    @Test func lineEndsBecomeOneSpaceAndTheLimitCountsCharacters() {
        #expect(MarkdownText.escape("a\r\nb\rc\nd", limit: 300) == "a b c d")
        #expect(MarkdownText.escape("é|é|é", limit: 3) == "é\\|é…")
        #expect(MarkdownText.escape("abcdef", limit: 6) == "abcdef")
        #expect(MarkdownText.escape("abcdefg", limit: 6) == "abcdef…")
    }
}
