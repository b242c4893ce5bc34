import ForensicsCore
import Foundation
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// Formats are recognised from content, whatever the line endings.
@Suite struct FormatSnifferTests {
    static func crlf(_ text: String) -> [UInt8] { Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) }

    @Test func crlfErrorLogsAreErrorLogs() throws {
        let text = try String(
            contentsOf: TestPaths.sampleLogs.appendingPathComponent("cdn-404-stall/errorlog.txt"), encoding: .utf8)
        #expect(FormatRegistry.standard.sniff(Array(text.utf8)) == .errorLog)
        // CRLF: "\r\n" is one Character, so a String-based line split saw one line and fell back
        // to "#Software: … means access log".
        #expect(FormatRegistry.standard.sniff(Self.crlf(text)) == .errorLog)
    }

    @Test(arguments: [
        "videojs-m3u8-parser/master.m3u8", "grafov-m3u8/master-with-hlsv7.m3u8",
        "videojs-m3u8-parser/streamInfInvalid.m3u8",
    ])
    func crlfPlaylistsStartingWithACommentArePlaylists(fixture: String) throws {
        let text = try String(
            contentsOf: TestPaths.corpus.appendingPathComponent("playlists/" + fixture), encoding: .utf8)
        #expect(FormatRegistry.standard.sniff(Array(text.utf8)) == .playlist)
        #expect(FormatRegistry.standard.sniff(Self.crlf(text)) == .playlist)
    }

    @Test func recognisesEachFormatAndNothingElse() {
        let samples: [(String, InputFormat?)] = [
            ("\u{FEFF}  \n#EXTM3U\n", .playlist),
            ("# comment\n\n#EXTINF:4,\n", .playlist),
            ("#Software: AppleCoreMedia\n#Version: 1.0\n#Fields: date time s-ip cs-uri\n", .accessLog),
            ("#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n", .errorLog),
            (
                "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)\n#Date: 2026/11/21 10:00:00.000\n",
                .accessLog
            ),
            // Other servers' W3C logs and prose are not AVPlayer's or KTVHTTPCache's (issue 29).
            ("#Fields: date time domain comment\n", nil),
            ("#Date: 2026-11-21\n", nil),
            (
                "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status\n",
                nil
            ),
            ("| Module | Error |\n| --- | --- |\n| KTVHCDataNetworkSource : 0x1, failed | https://a/b -1001 |\n", nil),
            ("The KTVHCHTTPServer : stops after the screen locks (see issue 42).\n", nil),
            ("Error Domain=KTVHTTPCache error Code=-192701 \"(null)\" UserInfo={}\n", .cacheLog),
            (#"{"log":{"creator":{"name":"Charles"},"entries":[]}}"#, .har),
            (#"[{"type":"AVMetricPlayerItemStallEvent"}]"#, .metricEvents),
            (#"{"events":[]}"#, .metricEvents),
            ("2026-11-21 10:00:00 +0000  KTVHCHTTPServer  :   0x1, start server success\n", .cacheLog),
            (#"{"unrelated":true}"#, nil),
            ("# just a comment\n", nil),
            ("   \n\t", nil),
            ("", nil),
        ]
        for (text, expected) in samples {
            #expect(FormatRegistry.standard.sniff(Array(text.utf8)) == expected, "\(text.debugDescription)")
        }
    }
}

/// The registry lists formats as `formats` shows them, and sniffs them in priority order where
/// evidence overlaps.
@Suite struct SniffingOrderTests {
    @Test func overlappingEvidenceGoesToTheRightFormat() {
        // A HAR whose text mentions "events" is a HAR, not a metric dump.
        let har = #"{"log":{"version":"1.2","creator":{"name":"x"},"entries":[],"comment":"events"}}"#
        #expect(FormatRegistry.standard.sniff(Array(har.utf8)) == .har)
        // A playlist whose URI holds "KTVHC" is a playlist, not a proxy log.
        let playlist = "#EXTM3U\n#EXTINF:6,\nhttp://127.0.0.1:8080/KTVHCrequest/s1.ts\n"
        #expect(FormatRegistry.standard.sniff(Array(playlist.utf8)) == .playlist)
    }

    @Test func theListingKeepsItsOrder() {
        #expect(
            FormatRegistry.standard.formats.map(\.rawValue) == [
                "metric-events", "access-log", "error-log", "cache-log", "playlist-capture", "har-capture",
                "device-console", "cloudfront-standard", "cloudflare-logpush", "akamai-datastream", "google-cloud-cdn",
                "combined-access-log",
            ])
    }
}
