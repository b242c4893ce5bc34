import Testing

@testable import PlaybackForensics

/// A bundle's report file name is read back from earlier indexes: the byte-wise path for ASCII
/// names must name every report exactly as the Character-wise rule does.
@Suite struct ReportFileNameTests {
    @Test func theASCIIPathNamesReportsAsTheCharacterRuleDoes() throws {
        var generator = SystemRandomNumberGenerator()
        var names = [
            "", ".", "..", ".hidden", "a b", "a_b", "a?b", "u00001-cdn-404-stall", "bundle.zip", "x/y\\z",
            String(repeating: "a", count: 119), String(repeating: "b", count: 120), String(repeating: "c", count: 121),
            "tab\there", "nul\u{0}byte", "\u{7F}del", "-", "_",
        ]
        for _ in 0..<2000 {
            let length = Int.random(in: 0...130, using: &generator)
            names.append(
                String(
                    decoding: (0..<length).map { _ in UInt8.random(in: 0...0x7F, using: &generator) }.filter {
                        $0 != 0x0D
                    }, as: UTF8.self))
        }
        for name in names {
            let fast = try #require(TriageRunner.asciiSafeFileName(name), "\(name.debugDescription)")
            #expect(fast == TriageRunner.characterSafeFileName(name), "\(name.debugDescription)")
        }
    }

    @Test func otherNamesTakeTheCharacterRule() {
        for name in ["café", "a\r\nb", "\r", "中文.zip", "e\u{301}", "👩‍👩‍👧 bundle"] {
            #expect(TriageRunner.asciiSafeFileName(name) == nil)
        }
        // One `_` a Character, whatever its bytes.
        #expect(TriageRunner.safeFileName("a\r\nb") == "a_b")
        #expect(TriageRunner.safeFileName("e\u{301}x") == "_x")
        #expect(TriageRunner.safeFileName("👩‍👩‍👧.zip") == "_.zip")
    }
}
