import Foundation
import PlaybackForensics
import Testing

/// `explain CODE` and the error-code catalogue: every entry sourced, unknown codes said to be unknown.
@Suite struct ExplainCommandTests {
    @Test func everyEntryHasItsSourceAndIsUnique() {
        var seen: Set<String> = []
        for e in ErrorCodeCatalogue.all {
            #expect(
                e.source.hasPrefix("https://") || e.source.hasPrefix("http://"), "\(e.domain) \(e.code) needs a source")
            #expect(!e.meaning.isEmpty && !e.advice.isEmpty)
            #expect(seen.insert("\(e.domain) \(e.code)").inserted, "\(e.domain) \(e.code) twice")
        }
    }

    @Test func aKnownCodeIsExplainedAndAnUnknownOneIsNotGuessed() throws {
        let known = try CLIRunner.run(["explain", "-1009"])
        #expect(known.status == 0)
        #expect(known.stdout.contains("NSURLErrorDomain -1009 (notConnectedToInternet)"), "\(known.stdout)")
        #expect(known.stdout.contains("Source: https://developer.apple.com/"))
        // The option terminator before a negative code is no domain (probe G).
        let terminated = try CLIRunner.run(["explain", "--", "-11800"])
        #expect(terminated.status == 0 && terminated.stdout.contains("AVFoundationErrorDomain -11800"))
        let domain = try CLIRunner.run(["explain", "NSURLErrorDomain", "-1001"])
        #expect(domain.stdout.contains("timedOut"))
        let unknown = try CLIRunner.run(["explain", "-424242"])
        #expect(unknown.status == 1 && unknown.stdout.contains("not in the catalogue — unknown, not guessed"))
        let wrongDomain = try CLIRunner.run(["explain", "CoreMediaErrorDomain", "-1009"])
        #expect(wrongDomain.status == 1, "a code is looked up in the domain given")
        let list = try CLIRunner.run(["explain", "--list"])
        #expect(list.stdout.split(separator: "\n").count == ErrorCodeCatalogue.all.count)
    }

    /// `Documentation/ErrorCodes.md` is generated from the catalogue.
    @Test func theCataloguePageIsUpToDate() throws {
        let url = CLIRunner.repository.appendingPathComponent("Documentation/ErrorCodes.md")
        let expected = ErrorCodeCatalogue.markdown()
        if ProcessInfo.processInfo.environment["UPDATE_ERROR_CODE_DOCS"] != nil {
            try Data(expected.utf8).write(to: url)
        }
        #expect(
            (try? String(contentsOf: url, encoding: .utf8)) == expected,
            "run UPDATE_ERROR_CODE_DOCS=1 swift test --filter ExplainCommandTests")
    }
}
