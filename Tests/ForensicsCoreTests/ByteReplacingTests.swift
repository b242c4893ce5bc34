import Foundation
import Testing

@testable import ForensicsCore

/// The byte-level text operations of the server-log hot path agree with Foundation's.
@Suite struct ByteReplacingTests {
    @Test(arguments: [
        ("198.51.100.7\tGET\t198.51.100.7", "198.51.100.7"), ("aaaa", "aa"), ("abc", "abcd"), ("ü-ü", "ü"),
        ("", "x"), ("x", "x"),
    ])
    func replacingMatchesFoundation(text: String, needle: String) {
        #expect(text.replacingBytes(of: needle, with: "R") == text.replacingOccurrences(of: needle, with: "R"))
    }

    @Test(arguments: ["/a%20b/c.ts", "plain", "%E2%9C%93", "%zz", "%4", "%C3", "100%", "a+b%2Bc"])
    func percentDecodingMatchesFoundation(text: String) {
        #expect(text.percentDecoded == text.removingPercentEncoding)
    }
}
