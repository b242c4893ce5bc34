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

    /// The issue's incident: the playlist type glued onto `#EXTM3U` and every segment URI in its
    /// EXTINF's title — three warnings, zero playable segments, and once "No problem found".
    @Test func aPlaylistThatCannotPlayIsNeverAnAllClear() throws {
        let body =
            "#EXTM3U#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,seg1.ts\n#EXTINF:10,seg2.ts\n#EXT-X-ENDLIST\n"
        let har = ExampleFixtures.har([
            .init(
                at: 0, url: "https://cdn.example/a/master.m3u8",
                body:
                    "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=640x360\nv1/index.m3u8\n"
            ),
            .init(at: 0.2, url: "https://cdn.example/a/v1/index.m3u8", body: body),
        ])
        let report = Analyzer().analyze(files: [(har.name, Array(har.text.utf8))])
        let findings = report.sessions.flatMap(\.findings).filter { $0.ruleID == "stream-defects" }
        let empty = try #require(findings.first { $0.details["check"] == .string("no-playable-segment") })
        #expect(empty.severity == .error)
        #expect(empty.evidence.contains { $0.location.file == har.name })
        #expect(findings.contains { $0.details["check"] == .string("tag-glued") })
        #expect(report.verdict.status == .problemsFound, "\(report.verdict)")
    }

    /// A failure whose stream is broken at error level: the defect is named first in the
    /// failure's explanation and its playlist cited.
    @Test func aFailureCitesTheBrokenStream() throws {
        let events = TimelineScript.compile(
            """
            0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.1
            0.200 playlist https://cdn.example.com/a/v8/index.m3u8 200 0.1
            0.500 key https://cdn.example.com/a/key 200 0.1
            1.000 error -12881 "Failed to decrypt" fatal
            """)
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"https://cdn.example.com/a/key\",KEYFORMAT=\"urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed\"\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"
        let report = Analyzer().analyze(files: [
            ("events.jsonl", Array(events.utf8)), ("v8/index.m3u8", Array(playlist.utf8)),
        ])
        let failed = try #require(report.sessions.flatMap(\.findings).first { $0.ruleID == "playback-failed" })
        #expect(failed.explanation?.contains("key-aes128-drm-keyformat") == true, "\(failed.explanation ?? "")")
        #expect(failed.evidence.contains { $0.location.file == "v8/index.m3u8" })
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
