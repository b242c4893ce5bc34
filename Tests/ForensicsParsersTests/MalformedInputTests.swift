import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// Broken inputs of every format become diagnostics with the right file and line, and every
/// good record around them is kept.
@Suite struct MalformedInputTests {
    static let goodMetric =
        #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"S","rate":0,"previousRate":1}"#
    static let goodMetric2 =
        #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:41.002Z","sessionID":"S","rate":0,"previousRate":1}"#
    static let accessHeader = "#Version: 1.0\n#Fields: date time uri cs-guid c-observed-bitrate sc-indicated-bitrate\n"
    static let accessRow = "2026/11/21 10:00:02.002 https://h/v/index.m3u8 S 25000000.000 20000000"
    static let errorHeader = "#Version: 1.0\n#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
    static let errorRow =
        #"2026/04/15 15:13:30.030 https://h/s.m4s S 203.0.113.7 -12938 "CoreMediaErrorDomain" "HTTP 404: File Not Found" -"#
    static let cacheLine = "2025-07-01 08:15:02 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success"
    static let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\ns2.ts\n#EXT-X-ENDLIST\n"

    func diagnostics(_ o: Ingestor.Outcome) -> [Diagnostic] { o.diagnostics + (o.result?.diagnostics ?? []) }

    // MARK: truncated gzip

    @Test func truncatedGzipKeepsCompleteLinesAndReportsTheCut() {
        let text = String(repeating: Self.goodMetric + "\n", count: 2000)
        let gz = GzipCompressor.compress(Array(text.utf8))
        let cut = Array(gz.prefix(gz.count / 2))
        let o = ingest("m.jsonl.gz", cut, format: .metricEvents)
        #expect((o.result?.records.count ?? 0) > 0)
        #expect(diagnostics(o).contains { $0.location.file == "m.jsonl.gz" && $0.message.contains("truncated gzip") })
        for (name, body) in [
            ("a.log.gz", Self.accessHeader + Self.accessRow + "\n"), ("c.log.gz", Self.cacheLine + "\n"),
            ("p.m3u8.gz", Self.playlist), ("e.log.gz", Self.errorHeader + Self.errorRow + "\n"),
        ] {
            let z = GzipCompressor.compress(Array(body.utf8))
            let o = ingest(name, Array(z.prefix(z.count - 6)))
            #expect(diagnostics(o).contains { $0.location.file == name && $0.message.contains("gzip") }, "\(name)")
        }
        let har =
            #"{"log":{"entries":[{"startedDateTime":"2026-11-21T10:00:00.000Z","request":{"url":"https://h/a.ts"},"response":{"status":200}}]}}"#
        let hz = GzipCompressor.compress(Array(har.utf8))
        let h = ingest("c.har.gz", Array(hz.prefix(hz.count - 6)))
        #expect(diagnostics(h).contains { $0.location.file == "c.har.gz" && $0.message.contains("gzip") })
    }

    // MARK: cut-off JSON line

    @Test func cutOffJSONLineIsADiagnosticOnItsLine() {
        let text = Self.goodMetric + "\n" + String(Self.goodMetric.prefix(40)) + "\n" + Self.goodMetric2 + "\n"
        let o = ingest("m.jsonl", text)
        #expect(o.result?.records.count == 2)
        #expect(
            diagnostics(o).contains {
                $0.location == SourceLocation(file: "m.jsonl", line: 2) && $0.message.contains("not valid JSON")
            })
        let har =
            #"{"log":{"version":"1.2","entries":[{"startedDateTime":"2026-11-21T10:00:00.000Z","request":{"url":"https://h/a.ts"},"response":{"status":200}},"#
            + "\n" + #"{"startedDateTime":"2026-11-21T10:00:01.000Z","request":{"url":"https://h/b"#
        let h = ingest("c.har", har)
        #expect(h.result?.records.count == 1)
        #expect(diagnostics(h).contains { $0.location.file == "c.har" && $0.message.contains("ends early") })
    }

    /// Probe F: a HAR `time` of 1e308 ms, or a start at the end of the year 9999, made a session
    /// end "invalid-date" in every report: such a duration is unknown, with a warning on its line.
    /// Near miss: a 40-minute request keeps its duration.
    @Test func aHARDurationNoRequestCanHaveIsUnknown() {
        func entry(_ start: String, _ time: String) -> String {
            #"{"startedDateTime":"\#(start)","time":\#(time),"request":{"method":"GET","url":"https://h/v/s1.ts","headers":[]},"response":{"status":200,"headers":[],"content":{"size":10,"mimeType":"video/mp2t"}}}"#
        }
        let har =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":["# + "\n"
            + [
                entry("2026-11-21T10:00:00.000Z", "1e308"), entry("9999-12-31T23:59:59.999Z", "120"),
                entry("2026-11-21T10:00:00.000Z", "2400000"),
            ].joined(separator: ",\n") + "\n]}}"
        let h = ingest("c.har", har)
        let ends = h.result?.records.map { $0.request?.end } ?? []
        #expect(ends.count == 3)
        #expect(ends.prefix(2).allSatisfy { $0 == nil })
        #expect(ends.last??.secondsSince1970 == (TimestampParser.parse("2026-11-21T10:40:00Z")?.secondsSince1970))
        let said = diagnostics(h).map(\.message)
        #expect(said.contains { $0.contains("longer than a day") })
        #expect(said.contains { $0.contains("after the year 9999") })
    }

    /// Probe E: a HAR whose playlist body is shorter than its `content.size` and ends inside a
    /// line was cut short: a `playlist-truncated` defect. Near miss: the same body, its size
    /// matching, is whole (its last EXTINF is only an info).
    @Test func aHARPlaylistBodyShorterThanItsSizeIsCutShort() throws {
        let body = "#EXTM3U\\n#EXT-X-TARGETDURATION:6\\n#EXTINF:6,\\ns1.ts\\n#EXTINF:6,"
        func har(size: Int) -> String {
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":["#
                + #"{"startedDateTime":"2026-11-21T10:00:00.000Z","time":50,"request":{"method":"GET","url":"https://h/v/index.m3u8","headers":[]},"response":{"status":200,"headers":[],"content":{"size":\#(size),"mimeType":"application/vnd.apple.mpegurl","text":"\#(body)"}}}"#
                + "]}}"
        }
        let cut = ingest("c.har", har(size: 400))
        #expect(cut.result?.playlists.first?.defects.contains { $0.check == "playlist-truncated" } == true)
        let whole = ingest("c.har", har(size: 59))
        #expect(whole.result?.playlists.first?.defects.contains { $0.check == "playlist-truncated" } == false)
    }

    // MARK: garbage line

    @Test func garbageLinesAreReportedWithTheirLine() {
        let m = ingest("m.jsonl", Self.goodMetric + "\n@@@ garbage @@@\n" + Self.goodMetric2 + "\n")
        #expect(m.result?.records.count == 2)
        #expect(diagnostics(m).contains { $0.location.line == 2 })
        let a = ingest("a.log", Self.accessHeader + Self.accessRow + "\ngarbage\n" + Self.accessRow + "\n")
        #expect(a.result?.records.count == 2)
        #expect(diagnostics(a).contains { $0.location == SourceLocation(file: "a.log", line: 4) })
        let e = ingest("e.log", Self.errorHeader + "garbage here\n" + Self.errorRow + "\n")
        #expect(e.result?.records.count == 1)
        #expect(diagnostics(e).contains { $0.location == SourceLocation(file: "e.log", line: 3) })
        let p = ingest("p.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:x\n#EXTINF:abc,\ns1.ts\n")
        #expect(diagnostics(p).contains { $0.location.line == 2 })
        #expect(diagnostics(p).contains { $0.location.line == 3 })
        let h = ingest(
            "c.har",
            #"{"log":{"entries":["# + "\n" + "garbage,\n"
                + #"{"startedDateTime":"2026-11-21T10:00:00.000Z","request":{"url":"https://h/a.ts"},"response":{"status":200}}]}}"#
        )
        #expect(h.result?.records.count == 1)
        #expect(diagnostics(h).contains { $0.location == SourceLocation(file: "c.har", line: 2) })
        let c = ingest("c.log", "garbage before anything\n" + Self.cacheLine + "\n")
        #expect(diagnostics(c).contains { $0.location == SourceLocation(file: "c.log", line: 1) })
        #expect(c.result?.records.contains { $0.proxyEvent?.kind == .serverStart } == true)
    }

    // MARK: wrong field count

    @Test func wrongFieldCountIsADiagnostic() {
        let a = ingest("a.log", Self.accessHeader + "2026/11/21 10:00:02.002 https://h/x S 1\n" + Self.accessRow + "\n")
        #expect(a.result?.records.count == 1)
        #expect(diagnostics(a).contains { $0.location.line == 3 && $0.message.contains("fields") })
        let e = ingest("e.log", Self.errorHeader + "2026/04/15 15:13:30.030 https://h/s.m4s S\n")
        #expect(diagnostics(e).contains { $0.location.line == 3 && $0.message.contains("fields") })
        let m = ingest("m.jsonl", #"{"date":"2026-11-21T10:00:00Z"}"# + "\n", format: .metricEvents)
        // Forced on a file with none of the format's evidence: said so, nothing invented (issue 29).
        #expect(m.result == nil)
        #expect(diagnostics(m).contains { $0.message.contains("none of that format's evidence") })
        let h = ingest(
            "c.har", #"{"log":{"entries":[{"startedDateTime":"2026-11-21T10:00:00.000Z","response":{"status":200}}]}}"#)
        #expect(diagnostics(h).contains { $0.location.line == 1 && $0.message.contains("without request.url") })
        let p = ingest("p.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nv.m3u8\n")
        #expect(diagnostics(p).contains { $0.location.line == 2 && $0.message.contains("BANDWIDTH") })
    }

    // MARK: invalid UTF-8

    @Test func invalidUTF8IsRepairedOrReportedNeverACrash() {
        let bad: [UInt8] = [0xC3, 0x28, 0xFF, 0xFE, 0x80]
        let m = ingest(
            "m.jsonl", Array((Self.goodMetric + "\n").utf8) + bad + [10] + Array((Self.goodMetric2 + "\n").utf8))
        #expect(m.result?.records.count == 2)
        #expect(diagnostics(m).contains { $0.location.line == 2 })
        let a = ingest(
            "a.log", Array((Self.accessHeader + Self.accessRow + "\n").utf8) + bad + [32] + Array("x\n".utf8))
        #expect(a.result?.records.count == 1)
        #expect(diagnostics(a).contains { $0.location.line == 4 })
        let c = ingest("c.log", Array((Self.cacheLine + "\n").utf8) + bad + [10])
        #expect(c.result?.records.count == 1)
        let p = ingest(
            "p.m3u8", Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n".utf8) + bad + Array(".ts\n".utf8))
        #expect(p.result?.playlists.first?.segments.count == 1)
        let e = ingest("e.log", Array(Self.errorHeader.utf8) + bad + [10])
        #expect(diagnostics(e).contains { $0.location.line == 3 })
        let h = ingest(
            "c.har",
            Array(#"{"log":{"entries":[{"request":{"url":"https://h/"#.utf8) + bad
                + Array(#""},"response":{"status":200},"startedDateTime":"2026-11-21T10:00:00Z"}]}}"#.utf8))
        #expect(h.format == .har)
    }

    @Test func utf16AndEmptyFilesAreDiagnosedByName() {
        let utf16 = ingest("u.log", [0xFF, 0xFE] + Array("#\0E\0".utf8))
        #expect(utf16.diagnostics.contains { $0.location.file == "u.log" && $0.message.contains("UTF-16") })
        let empty = ingest("empty.log", [UInt8]())
        #expect(empty.diagnostics.contains { $0.location.file == "empty.log" && $0.message.contains("empty") })
        let unknown = ingest("notes.txt", "hello, this is not a log\n")
        #expect(unknown.format == nil)
        #expect(
            unknown.diagnostics.contains {
                $0.message.contains("not read: text with none of a known format's evidence")
            })
        #expect(unknown.notRead?.hidesEvidence == false)
    }
}
