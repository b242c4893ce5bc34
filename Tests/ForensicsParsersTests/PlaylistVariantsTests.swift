import Foundation
import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// The same playlist in every wrapping yields the same segment list.
@Suite struct PlaylistVariantsTests {
    static let fixtures = [
        "videojs-m3u8-parser/byteRange.m3u8", "grafov-m3u8/wowza-vod-chunklist.m3u8",
        "globocom-m3u8/low-latency-part-playlist.m3u8", "comcast-mamba/hls_ad_variant_playlist.m3u8",
    ]

    func segments(_ outcome: Ingestor.Outcome) -> [String] {
        (outcome.result?.playlists.first.map { Array($0.segments) } ?? []).map {
            "\($0.uri)|\($0.duration)|\($0.byteRange?.description ?? "")"
        }
    }

    @Test(arguments: fixtures)
    func rawGzipCRLFBOMAndHARGiveIdenticalSegments(fixture: String) throws {
        let text = try String(
            contentsOf: TestPaths.corpus.appendingPathComponent("playlists/" + fixture), encoding: .utf8)
        let raw = ingest("p.m3u8", text)
        #expect(raw.format == .playlist)
        let reference = segments(raw)
        #expect(!reference.isEmpty)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        let bom = "\u{FEFF}" + text
        #expect(segments(ingest("p.m3u8.gz", GzipCompressor.compress(Array(text.utf8)))) == reference)
        #expect(segments(ingest("p.m3u8", crlf)) == reference)
        #expect(segments(ingest("p.m3u8", bom)) == reference)
        #expect(segments(ingest("p.m3u8", Array(bom.utf8) + [])) == reference)
        // HAR wrapping, with the entry URL as base: compare the raw URIs.
        let url = "https://cdn.example.com/path/p.m3u8"
        for base64 in [false, true] {
            let har = harDocument(url: url, body: text, base64: base64)
            #expect(segments(ingest("c.har", har)) == reference)
            #expect(segments(ingest("c.har.gz", GzipCompressor.compress(Array(har.utf8)))) == reference)
        }
        #expect(segments(ingest("c.har", harDocument(url: url, body: crlf, base64: true, gzipBody: true))) == reference)
    }

    @Test func harBodyURIsResolveAgainstTheEntryURL() {
        let har = harDocument(
            url: "https://cdn.example.com/a/v1/index.m3u8",
            body: "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\n../v2/s2.ts\n", base64: false)
        let p = ingest("c.har", har).result?.playlists.first
        #expect(
            p?.segments.map(\.resolvedURI) == [
                "https://cdn.example.com/a/v1/s1.ts", "https://cdn.example.com/a/v2/s2.ts",
            ])
    }

    @Test func tolerantParsingRecordsSpecViolations() {
        let text =
            "#EXTM3U\n#EXT-X-TARGETDURATION: 6\n#EXTINF:6\ns1.ts\n#EXTINF:6.0,\n#EXT-X-MAP:URI=\"init.mp4\"\ns2.ts\n#EXT-X-STREAM-INF:BANDWIDTH=1, CODECS=\"a,b\"\nv.m3u8"
        let result = PlaylistParser(file: "p.m3u8").parse(text: text)
        #expect(result.playlist.segments.map(\.uri) == ["s1.ts", "s2.ts"])
        #expect(result.playlist.segments.last?.map?.uri == "init.mp4")
        #expect(result.playlist.targetDuration == 6)
        #expect(result.playlist.variants.first?.attributes["CODECS"] == "a,b")
        let messages = result.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("EXTINF without a comma") })
        #expect(messages.contains { $0.contains("space after ':'") })
        #expect(result.diagnostics.allSatisfy { $0.location.file == "p.m3u8" && $0.location.line >= 1 })
    }

    @Test func defineSubstitutesVariables() {
        let text =
            "#EXTM3U\n#EXT-X-DEFINE:NAME=\"host\",VALUE=\"https://cdn.example.com\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$host}/s1.ts\n"
        let p = PlaylistParser(file: "p.m3u8").parse(text: text).playlist
        #expect(p.segments.first?.uri == "https://cdn.example.com/s1.ts")
    }

    /// A substitution bomb (one 8 KB variable referenced 100,000 times on one line, then on many
    /// lines) is kept as written with a warning naming the line, within the documented limits:
    /// no line grows past 64 KiB (or its own length), no playlist by more than 16 MiB. Near miss: an ordinary use of
    /// the same variable is substituted.
    @Test func substitutionIsBounded() {
        let value = String(repeating: "y", count: 8000)
        let head = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(value)\"\n#EXT-X-TARGETDURATION:6\n"
        let oneLine = head + "#EXTINF:6,\n" + String(repeating: "{$v}", count: 100_000) + ".ts\n"
        let result = PlaylistParser(file: "bomb.m3u8").parse(text: oneLine)
        #expect(result.playlist.segments.first?.uri.hasPrefix("{$v}{$v}") == true)
        #expect(
            result.diagnostics.contains {
                $0.severity == .warning && $0.location.line == 6 && $0.message.contains("longer than")
            })

        // Each line within the per-line limit, but together past the playlist's budget.
        var many = head
        for i in 0..<3000 { many += "#EXTINF:6,\n{$v}/\(i).ts\n" }
        let bounded = PlaylistParser(file: "many.m3u8").parse(text: many)
        let grown = bounded.playlist.segments.reduce(0) { $0 + $1.uri.utf8.count }
        #expect(grown <= 16 * 1024 * 1024 + 3000 * 16)
        #expect(bounded.playlist.segments.first?.uri.hasPrefix("yyyy") == true)
        #expect(bounded.playlist.segments.last?.uri.hasPrefix("{$v}") == true)
        #expect(bounded.diagnostics.contains { $0.message.contains("16 MiB") })
        #expect(
            bounded.diagnostics.filter { $0.message.contains("16 MiB") }.count <= 5, "said a few times, not per line")
    }

    @Test func largeGrafovPlaylistParsesAllSegments() throws {
        let url = TestPaths.corpus.appendingPathComponent("playlists/grafov-m3u8/media-playlist-large.m3u8")
        let outcome = ingest("large.m3u8", [UInt8](try Data(contentsOf: url)))
        #expect((outcome.result?.playlists.first?.segments.count ?? 0) >= 40_000)
    }
}
