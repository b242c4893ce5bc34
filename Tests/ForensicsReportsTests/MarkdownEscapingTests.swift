import Testing

@testable import ForensicsReports

/// Markdown escaping has a byte path for plain ASCII text; it must give exactly what the
/// Character path gives.
@Suite struct MarkdownEscapingTests {
    @Test func theBytePathMatchesTheCharacterPath() {
        let alphabet = Array("ab Z09&<>|`\\*_[]#~!\n\t\u{01}\u{1F}\u{7F}.:/?=%-\"'".unicodeScalars)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }
            let limit = Int.random(in: 0...45, using: &generator)
            let fast = MarkdownText.escapeASCII(text, limit: limit)
            #expect(fast == MarkdownText.escapeCharacters(text, limit: limit), "\(text.debugDescription) limit \(limit)")
        }
    }

    @Test func textTheBytePathCannotHandleGoesTheCharacterWay() {
        #expect(MarkdownText.escapeASCII("line\r\nnext", limit: 300) == nil)
        #expect(MarkdownText.escapeASCII("→ 404", limit: 300) == nil)
        #expect(MarkdownText.escapeCharacters("a\r\nb", limit: 300) == "a b")
    }
}
