import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsParsers
@testable import ForensicsRules
@testable import PlaybackForensics

/// The series checks against their examples (successive captures of one live playlist), the
/// `stream-defects` rule in a session, and the generated catalogue page.
@Suite struct StreamSeriesCheckTests {
    static let url = "https://cdn.example.com/live/v5/index.m3u8"

    static func captures(_ series: [(seconds: Double, playlist: String)]) -> [PlaylistCapture] {
        series.enumerated().map { i, c in
            let parsed = PlaylistParser(file: "capture\(i).m3u8", url: url).parse(text: c.playlist)
            return PlaylistCapture(
                time: 1_795_255_200 + c.seconds, snapshot: parsed.playlist.checkedSnapshot,
                location: SourceLocation(file: "capture\(i).m3u8", line: 1))
        }
    }

    @Test(arguments: PlaylistSeriesChecks.all.map(\.id))
    func examplesFireAndNearMissesDoNot(id: String) throws {
        let check = try #require(PlaylistSeriesChecks.all.first { $0.id == id })
        #expect(!check.fires.isEmpty && !check.passes.isEmpty)
        for series in check.fires {
            #expect(PlaylistSeriesChecks.check(Self.captures(series)).contains { $0.check.id == id }, "\(id) must fire")
        }
        for series in check.passes {
            let found = PlaylistSeriesChecks.check(Self.captures(series)).filter { $0.check.id == id }
            #expect(found.isEmpty, "\(id) must not fire: \(found.map(\.message))")
        }
    }

    @Test func seriesAndSingleIDsDoNotClash() {
        let single = Set(StreamCheckCatalogue.all.map(\.id))
        #expect(PlaylistSeriesChecks.all.allSatisfy { !single.contains($0.id) })
    }

    /// `Documentation/StreamChecks.md` is generated; regenerate with
    /// `UPDATE_STREAM_CHECK_DOCS=1 swift test --filter StreamSeriesCheckTests`.
    @Test func theCataloguePageIsUpToDate() throws {
        let url = TestPaths.repository.appendingPathComponent("Documentation/StreamChecks.md")
        let expected = StreamCheckDocumentation.markdown()
        if ProcessInfo.processInfo.environment["UPDATE_STREAM_CHECK_DOCS"] != nil {
            try Data(expected.utf8).write(to: url)
        }
        #expect(
            (try? String(contentsOf: url, encoding: .utf8)) == expected,
            "Documentation/StreamChecks.md is stale: run UPDATE_STREAM_CHECK_DOCS=1 swift test --filter StreamSeriesCheckTests"
        )
    }
}
