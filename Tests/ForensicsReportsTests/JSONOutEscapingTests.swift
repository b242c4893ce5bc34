import Foundation
import Testing

@testable import ForensicsReports

/// The JSON writer copies strings that need no escape whole; every string must still come back
/// unchanged through a JSON parser, and line/paragraph separators must be escaped.
@Suite struct JSONOutEscapingTests {
    static let samples = [
        "", "plain", "segment request https://cdn.example.com/v/s1.m4s → 404 in 0.045 s", "quote \" and \\ backslash",
        "tab\tnew\nline\rcr", "bell\u{07}nul\u{00}", "sep\u{2028}para\u{2029}end", "\u{2028}", "â€¨ not a separator",
        "emoji 🎬 and é", "\u{E2}", "ends with \u{E2}\u{80}",
    ]

    @Test(arguments: samples)
    func stringsRoundTrip(text: String) throws {
        let rendered = JSONOut.array([.string(text)]).render()
        let parsed = try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String]
        #expect(parsed == [text])
        #expect(
            !rendered.unicodeScalars.contains {
                $0.value == 0x2028 || $0.value == 0x2029 || $0.value < 0x20 && $0 != "\n"
            })
    }

    @Test func escapesAreDetectedExactly() {
        #expect(!JSONOut.needsEscape("a → b"))
        #expect(JSONOut.needsEscape("a\u{2028}b"))
        #expect(JSONOut.needsEscape("a\u{2029}"))
        #expect(JSONOut.needsEscape("\""))
        #expect(JSONOut.needsEscape("\\"))
        #expect(JSONOut.needsEscape("\u{1F}"))
        #expect(!JSONOut.needsEscape("\u{7F}"))
    }
}
