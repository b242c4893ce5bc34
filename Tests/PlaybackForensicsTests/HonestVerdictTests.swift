import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import PlaybackForensics

/// Recognition on positive evidence and an honest verdict (issue 29): files no format claims are
/// listed as not read, with why, and never contribute; "no problem found" is said only where the
/// evidence could have shown one.
@Suite struct HonestVerdictTests {
    static let realAccessLog = TestPaths.corpus.appendingPathComponent(
        "real-world/access-log/srg-fb22519249-log_before_audio_switch.log")
    static let cloudFront = TestPaths.corpus.appendingPathComponent(
        "real-world/cdn/cloudfront-awsdocs-standard-example.log")
    static let webHAR = TestPaths.corpus.appendingPathComponent("real-world/har/mitmproxy-safari-nohls.har")

    func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// A README (with a table that names a KTVHTTPCache module, a URL and an error number), a
    /// CloudFront log of other viewers with three 502 `OriginDnsError` rows, a browser HAR without
    /// media and a real access log: the same findings as the access log alone; the README and the
    /// HAR not read, with why; the CloudFront log read as what it is, its rows joined to nothing,
    /// and why.
    @Test func unrelatedFilesBesideARealAccessLogChangeNothing() throws {
        let readme = """
            # Support bundle

            | Module | What happened |
            | --- | --- |
            | KTVHCDataNetworkSource : 0x1, failed | https://cdn.example.com/a.m3u8 error -1001 |

            See https://cdn.example.com/v/seg_51.ts (HTTP 404, -12938).
            """
        var cloudFrontText = try String(contentsOf: Self.cloudFront, encoding: .utf8)
        for i in 0..<3 {
            cloudFrontText +=
                "2019-12-04\t21:02:3\(i)\tLAX1\t0\t192.0.2.100\tGET\td111111abcdef8.cloudfront.net\t/v/seg\(i).ts\t502\t-\tAppleCoreMedia/1.0.0.22B83\t-\t-\tError\tAbC\(i)==\td111111abcdef8.cloudfront.net\thttps\t0\t0.002\t-\tTLSv1.2\tECDHE-RSA-AES128-GCM-SHA256\tError\tHTTP/2.0\t-\t-\t0\t0.002\tOriginDnsError\t-\t-\t-\t-\n"
        }
        let alone = Analyzer().analyze(files: [("access.log", try bytes(Self.realAccessLog))])
        let mixed = Analyzer().analyze(files: [
            ("README.md", Array(readme.utf8)), ("cloudfront.log", Array(cloudFrontText.utf8)),
            ("web.har", try bytes(Self.webHAR)), ("access.log", try bytes(Self.realAccessLog)),
        ])
        func findings(_ r: AnalysisReport) -> [String] {
            r.sessions.flatMap { $0.findings.map { "\($0.ruleID) \($0.title)" } }
        }
        #expect(findings(mixed) == findings(alone))
        #expect(mixed.sessions.count == alone.sessions.count)
        #expect(mixed.verdict.status == alone.verdict.status)
        let notRead = Dictionary(uniqueKeysWithValues: mixed.inputs.map { ($0.path, $0.notRead?.reason) })
        #expect(notRead["README.md"] == "Markdown text")
        #expect(notRead["cloudfront.log"] == .some(nil))
        #expect(mixed.inputs.first { $0.path == "cloudfront.log" }?.format == InputFormat("cloudfront-standard"))
        #expect(mixed.serverRows == 9)
        #expect(mixed.unjoinedServerRows == 9)
        let join = try #require(mixed.sessions.first?.session.serverJoin)
        #expect(join.joined.isEmpty)
        #expect(join.noMatch?.contains("no individual request") == true, "\(join.noMatch ?? "-")")
        #expect(notRead["web.har"]??.hasPrefix("HTTP capture without media requests") == true)
        #expect(notRead["access.log"] == .some(nil))
        #expect(mixed.inputs.filter { $0.notRead != nil }.allSatisfy { $0.records == 0 })
        #expect(mixed.sessions.allSatisfy { !$0.session.sources.contains(InputFormat("cloudfront-standard")) })
    }

    /// Near miss: the same table line with the module in log-line position is a proxy log.
    @Test func aModuleInLogLinePositionIsAProxyLog() {
        let report = Analyzer().analyze(files: [
            (
                "proxy.log",
                Array("2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x1, Start server success\n".utf8)
            )
        ])
        #expect(report.inputs.first?.format == .cacheLog)
        #expect(report.inputs.first?.notRead == nil)
    }

    /// An error log whose `#Fields` header has no row: Apple writes `#Fields` only with an event,
    /// so the rows were cut off — never "no problem found".
    @Test func aFieldsHeaderWithNoRowsCannotBeJudged() {
        let access = """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
            #Date: 2026/11/21 10:00:00.000
            #Fields: date time uri cs-guid s-ip c-observed-bitrate sc-indicated-bitrate c-stalls c-duration-watched c-startup-time
            2026/11/21 10:00:02.002 https://cdn.example.com/a/v20/index.m3u8 6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10 203.0.113.7 25000000.000 20000000 0 120.500 0.500

            """
        let cutError = """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
            #Date: 2026/11/21 10:02:00.000
            #Fields: date time uri cs-guid s-ip status domain comment cs-iftype

            """
        let report = Analyzer().analyze(files: [
            ("access.log", Array(access.utf8)), ("error.log", Array(cutError.utf8)),
        ])
        #expect(report.verdict.status == .couldNotJudge)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("rows were cut off") })
        let markdown = ReportRenderer().render(report, as: .markdown)
        #expect(!markdown.contains("No problem found"))
        #expect(markdown.contains("could not judge everything"))
        // Near miss: without the cut-off error log, the same access log is judged, and clean.
        let whole = Analyzer().analyze(files: [("access.log", Array(access.utf8))])
        #expect(whole.verdict.status == .noProblemFound)
        #expect(ReportRenderer().render(whole, as: .markdown).contains("No problem found"))
    }

    /// A media playlist whose segment URIs were glued onto their `#EXTINF` lines has no playable
    /// segment: warning-level diagnostics and the unplayable capture, never an all-clear.
    @Test func aPlaylistWithNoPlayableSegmentCannotBeJudged() {
        let glued = """
            #EXTM3U #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-TARGETDURATION:6
            #EXTINF:6.0, seg1.ts
            #EXTINF:6.0, seg2.ts
            #EXT-X-ENDLIST
            """
        let report = Analyzer().analyze(files: [("index.m3u8", Array(glued.utf8))])
        #expect(report.verdict.status != .noProblemFound)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("no playable segment") })
        // Near miss: the same playlist written correctly is judged.
        let fine = "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg1.ts\n#EXT-X-ENDLIST\n"
        let judged = Analyzer().analyze(files: [("index.m3u8", Array(fine.utf8))])
        #expect(!judged.verdict.couldNotJudge.contains { $0.contains("no playable segment") })
        // Near miss: a low-latency live playlist whose first segment is still being written has
        // only parts, and plays.
        let parts =
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=1.0\n"
            + "#EXT-X-PART:DURATION=1.0,URI=\"p0.a.mp4\",INDEPENDENT=YES\n#EXT-X-PART:DURATION=1.0,URI=\"p0.b.mp4\"\n"
        let live = Analyzer().analyze(files: [("live.m3u8", Array(parts.utf8))])
        #expect(!live.verdict.couldNotJudge.contains { $0.contains("no playable segment") })
    }

    /// A proxy log alone shows requests, not the player: the ticket's questions (did it stall,
    /// how long did it take to start) have no answer in it, so no all-clear; the reason names
    /// what is missing. So for a playlist alone. Near miss: a bundle with the player's events.
    @Test func aProxyLogAloneCannotClearStallsOrStartup() throws {
        let proxy = TestPaths.corpus.appendingPathComponent("ktvhttpcache/issue110-record-log-1.1.x.log")
        let report = Analyzer().analyze(files: [("proxy.log", try bytes(proxy))])
        #expect(report.sessions.count == 1)
        #expect(report.sessions.allSatisfy { $0.findings.allSatisfy { $0.severity < .warning } })
        #expect(report.verdict.status == .couldNotJudge)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("stalls and startup time cannot be judged") })
        let markdown = ReportRenderer().render(report, as: .markdown)
        #expect(!markdown.contains("Bundle verdict: no problem found"))
        #expect(markdown.contains("could not judge everything"))

        let fine = "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg1.ts\n#EXT-X-ENDLIST\n"
        // A playlist alone shows the stream, not whether it played.
        let playlist = Analyzer().analyze(files: [("index.m3u8", Array(fine.utf8))])
        #expect(playlist.verdict.status == .couldNotJudge)
        #expect(playlist.verdict.couldNotJudge.contains { $0.contains("show the stream, not what the player did") })

        let clean = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("clean-session.zip").path)
        #expect(clean.verdict.status == .noProblemFound)
    }

    /// Error-log rows that are no failed request (probe K): a request the client cancelled
    /// (-999) and a segment above its variant's declared bandwidth (-12318, downloaded) make no
    /// `segment-errors` and no error count. Near miss: three 404s (-12938) do.
    @Test func cancelledAndOverBandwidthRowsAreNoFailures() {
        func report(_ code: Int, _ domain: String, _ comment: String) -> AnalysisReport {
            var log =
                "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83\n#Date: 2026/11/21 05:00:00.000\n"
                + "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
            for i in 1...3 {
                log +=
                    "2026/11/21 05:00:0\(i).000 https://cdn.example.org/v/seg_\(i).ts 4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B51 203.0.113.7 \(code) \"\(domain)\" \"\(comment)\" en0\n"
            }
            return Analyzer().analyze(files: [("errorlog.txt", Array(log.utf8))])
        }
        for quiet in [
            report(-999, "NSURLErrorDomain", "cancelled"),
            report(-12318, "CoreMediaErrorDomain", "Segment exceeds specified bandwidth for variant"),
        ] {
            #expect(!quiet.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
            #expect(quiet.sessions.first?.session.kpis.errorCount ?? 0 == 0)
        }
        let missing = report(-12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found")
        #expect(missing.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
    }

    /// An error log written with bare (unquoted) domain and comment — the spec accepts both —
    /// is read: the comment is every token between the fields before and after it (probe K).
    /// Near miss: a row with too few fields is still refused with its line.
    @Test func bareErrorLogCommentsAreRead() {
        var log =
            "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83\n#Date: 2026/11/21 05:00:00.000\n"
            + "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
        for i in 1...3 {
            log +=
                "2026/11/21 05:00:0\(i).000 https://cdn.example.org/v/seg_\(i).ts 4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B51 203.0.113.7 -12938 CoreMediaErrorDomain HTTP 404: File Not Found en0\n"
        }
        let report = Analyzer().analyze(files: [("errorlog.txt", Array(log.utf8))])
        #expect(report.inputs.first?.records == 3)
        #expect(report.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
        #expect(!report.diagnostics.contains { $0.message.contains("fields, #Fields names") })
        let twoRows =
            log
            + "2026/11/21 05:00:08.000 https://cdn.example.org/v/seg_8.ts 4F0B2C61 203.0.113.7 -12938 CoreMediaErrorDomain HTTP 404 en0 2026/11/21 05:00:08.500 https://cdn.example.org/v/seg_9.ts 4F0B2C61 203.0.113.7 -12938 CoreMediaErrorDomain HTTP 404 en0\n"
        let merged = Analyzer().analyze(files: [("errorlog.txt", Array(twoRows.utf8))])
        #expect(merged.diagnostics.contains { $0.location.line == 8 && $0.message.contains("fields, #Fields names") })
        let short = log + "2026/11/21 05:00:09.000 https://cdn.example.org/v/seg_9.ts 4F0B2C61\n"
        let refused = Analyzer().analyze(files: [("errorlog.txt", Array(short.utf8))])
        #expect(refused.diagnostics.contains { $0.location.line == 8 && $0.message.contains("fields, #Fields names") })
    }

    /// Segments served from paths without an extension are segments when a captured media
    /// playlist lists them: their 404s are `segment-errors`, not requests of no playback (probe
    /// K). Near miss: the same 404s on URLs no playlist lists stay out of the session.
    @Test func extensionlessSegmentsAPlaylistListsAreSegments() {
        func har(
            _ failing: String, listing: String = "https://rr1.media.example.net/videoplayback/itag/20/sq/"
        )
            -> [UInt8]
        {
            func entry(_ url: String, _ second: Int, _ response: String) -> String {
                """
                {"startedDateTime":"2026-11-21T10:00:0\(second).000Z","time":80,"request":{"method":"GET","url":"\(url)","headers":[]},\
                "response":\(response),"timings":{"wait":80,"receive":0}}
                """
            }
            let base = listing
            let playlist =
                "#EXTM3U\\n#EXT-X-TARGETDURATION:6\\n" + (1...4).map { "#EXTINF:6.0,\\n\(base)\($0)\\n" }.joined()
                + "#EXT-X-ENDLIST\\n"
            var entries = [
                entry(
                    "https://rr1.media.example.net/v20/index.m3u8", 0,
                    #"{"status":200,"headers":[],"content":{"size":200,"mimeType":"application/vnd.apple.mpegurl","text":""#
                        + playlist + #""}}"#)
            ]
            for n in 1...3 {
                entries.append(
                    entry(
                        failing + "\(n)", n, #"{"status":404,"headers":[],"content":{"size":9,"mimeType":"text/html"}}"#
                    ))
            }
            return Array(
                #"{"log":{"version":"1.2","creator":{"name":"WebInspector","version":"537.36"},"entries":["#.utf8)
                + Array(entries.joined(separator: ",").utf8) + Array("]}}".utf8)
        }
        let listed = Analyzer().analyze(files: [
            ("capture.har", har("https://rr1.media.example.net/videoplayback/itag/20/sq/"))
        ])
        #expect(listed.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
        #expect(listed.sessions.first?.session.kpis.errorCount == 3)
        let unlisted = Analyzer().analyze(files: [("capture.har", har("https://rr1.media.example.net/api/item/"))])
        #expect(!unlisted.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
        // A listed URI with a query is matched with it: `?sq=9` is not the listed `?sq=1`.
        let queried = Analyzer().analyze(files: [
            (
                "capture.har",
                har(
                    "https://rr1.media.example.net/videoplayback?sq=9&n=",
                    listing: "https://rr1.media.example.net/videoplayback?sq=")
            )
        ])
        #expect(!queried.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
    }

    /// The error an access log's playback ended on is never a cancelled request (review): an
    /// error-log -999 after the last stretch played is no `playback-failed`, and no error.
    /// Near miss: a 404 there is.
    @Test func aCancellationIsNotWherePlaybackEnded() throws {
        func bundle(_ status: Int, _ domain: String, _ comment: String) -> AnalysisReport {
            let access =
                "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83\n#Date: 2026/11/21 10:00:45.000\n"
                + "#Fields: date time uri cs-guid s-ip s-ip-changes sc-count c-duration-downloaded c-start-time c-duration-watched bytes c-observed-bitrate sc-indicated-bitrate c-stalls c-frames-dropped c-startup-time c-overdue c-reason c-observed-min-bitrate c-observed-max-bitrate c-observed-bitrate-sd s-playback-type sc-wwan-count c-switch-bitrate\n"
                + "2026/11/21 10:00:00.000 https://cdn.example.org/v/index.m3u8 4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B51 203.0.113.7 0 4 24.0 0.000 20.0 6000000 9000000 2000000 0 0 0.8 0 - - - - VOD 0 -\n"
            let errors =
                "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83\n#Date: 2026/11/21 10:00:45.000\n"
                + "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
                + "2026/11/21 10:00:30.000 https://cdn.example.org/v/seg_9.ts 4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B51 203.0.113.7 \(status) \"\(domain)\" \"\(comment)\" en0\n"
            return Analyzer().analyze(files: [("access.log", Array(access.utf8)), ("error.log", Array(errors.utf8))])
        }
        let cancelled = bundle(-999, "NSURLErrorDomain", "cancelled")
        #expect(!cancelled.sessions.flatMap(\.findings).contains { $0.ruleID == "playback-failed" })
        #expect(cancelled.sessions.first?.session.kpis.fatalError != true)
        let missing = bundle(-12938, "CoreMediaErrorDomain", "HTTP 404: File Not Found")
        #expect(missing.sessions.flatMap(\.findings).contains { $0.ruleID == "playback-failed" })
    }

    /// A rendition playlist (EXT-X-MEDIA URI) served from a path without an extension is a
    /// playlist when the captured multivariant playlist lists it: its 404s are evidence
    /// (`playlist-unavailable`), not requests of no playback (probe L).
    @Test func extensionlessRenditionsTheMultivariantListsArePlaylists() {
        let master =
            "#EXTM3U\\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\\\"a\\\",NAME=\\\"en\\\",URI=\\\"https://cdn.example.com/audio/en\\\"\\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO=\\\"a\\\"\\nv2/index.m3u8\\n"
        let entries = [
            #"{"startedDateTime":"2026-11-21T10:00:00.000Z","time":40,"request":{"method":"GET","url":"https://cdn.example.com/master.m3u8","headers":[]},"response":{"status":200,"headers":[],"content":{"size":150,"mimeType":"application/vnd.apple.mpegurl","text":""#
                + master + #""}},"timings":{"wait":40,"receive":0}}"#,
            #"{"startedDateTime":"2026-11-21T10:00:01.000Z","time":40,"request":{"method":"GET","url":"https://cdn.example.com/audio/en","headers":[]},"response":{"status":404,"headers":[],"content":{"size":9,"mimeType":"text/html"}},"timings":{"wait":40,"receive":0}}"#,
            #"{"startedDateTime":"2026-11-21T10:00:02.000Z","time":40,"request":{"method":"GET","url":"https://cdn.example.com/audio/en","headers":[]},"response":{"status":404,"headers":[],"content":{"size":9,"mimeType":"text/html"}},"timings":{"wait":40,"receive":0}}"#,
        ]
        let har =
            #"{"log":{"version":"1.2","creator":{"name":"WebInspector","version":"537.36"},"entries":["#
            + entries.joined(separator: ",") + "]}}"
        let report = Analyzer().analyze(files: [("capture.har", Array(har.utf8))])
        #expect(report.sessions.flatMap(\.findings).contains { $0.ruleID == "playlist-unavailable" })
        #expect(!report.diagnostics.contains { $0.message.contains("of no playback") })
    }

    /// A browser's own abort (`net::ERR_ABORTED`, before or after the headers) is a cancellation:
    /// no `segment-errors`, no `slow-segment-download` of a request that downloaded nothing.
    /// Near miss: a request that got no response for another reason is a failure.
    @Test func aBrowsersAbortIsNoFailure() {
        func har(_ last: String, ms: Int = 7000) -> [UInt8] {
            func entry(_ url: String, _ start: String, _ ms: Int, _ response: String) -> String {
                """
                {"startedDateTime":"2026-11-21T10:00:\(start)Z","time":\(ms),"request":{"method":"GET","url":"\(url)","headers":[]},\
                "response":\(response),"timings":{"wait":\(ms),"receive":0}}
                """
            }
            let playlist =
                "#EXTM3U\\n#EXT-X-TARGETDURATION:6\\n#EXTINF:6.0,\\ns0.ts\\n#EXTINF:6.0,\\ns1.ts\\n#EXTINF:6.0,\\ns2.ts\\n#EXTINF:6.0,\\ns3.ts\\n#EXT-X-ENDLIST\\n"
            var entries = [
                entry(
                    "https://cdn.example.com/v/index.m3u8", "00.000", 50,
                    #"{"status":200,"headers":[{"name":"Content-Type","value":"application/vnd.apple.mpegurl"}],"content":{"size":120,"mimeType":"application/vnd.apple.mpegurl","text":""#
                        + playlist + #""}}"#)
            ]
            entries.append(
                entry(
                    "https://cdn.example.com/v/s0.ts", "00.100", 200,
                    #"{"status":200,"headers":[],"content":{"size":500000}}"#))
            for (i, second) in ["01.000", "09.000", "17.000"].enumerated() {
                entries.append(entry("https://cdn.example.com/v/s\(i + 1).ts", second, ms, last))
            }
            return Array(
                #"{"log":{"version":"1.2","creator":{"name":"WebInspector","version":"537.36"},"entries":["#.utf8)
                + Array(entries.joined(separator: ",").utf8) + Array("]}}".utf8)
        }
        for aborted in [
            #"{"status":0,"headers":[],"content":{"size":0},"_error":"net::ERR_ABORTED"}"#,
            #"{"status":200,"headers":[],"content":{"size":0},"_error":"net::ERR_ABORTED"}"#,
        ] {
            let report = Analyzer().analyze(files: [("capture.har", har(aborted, ms: 3000))])
            let rules = report.sessions.flatMap(\.findings).map(\.ruleID)
            #expect(!rules.contains("segment-errors") && !rules.contains("slow-segment-download"), "\(rules)")
            #expect(report.sessions.first?.session.kpis.errorCount ?? 0 == 0)
            // Given up after longer than the segment plays: slower than real time all the same
            // (review: a player abandons a slow fragment so), but no failure.
            let slow = Analyzer().analyze(files: [("capture.har", har(aborted, ms: 7000))])
            let slowRules = slow.sessions.flatMap(\.findings).map(\.ruleID)
            #expect(
                slowRules.contains("slow-segment-download") && !slowRules.contains("segment-errors"), "\(slowRules)")
        }
        // Still in flight when the capture was saved (status 0, time -1, no error): no outcome,
        // no failure (probe L).
        let pending = Analyzer().analyze(files: [
            ("capture.har", har(#"{"status":0,"headers":[],"content":{"size":0}}"#, ms: -1))
        ])
        #expect(!pending.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
        // An error status the browser then gave up on ("net::ERR_ABORTED 404") is a failure.
        let gaveUpOn404 = Analyzer().analyze(files: [
            ("capture.har", har(#"{"status":404,"headers":[],"content":{"size":0},"_error":"net::ERR_ABORTED"}"#))
        ])
        #expect(gaveUpOn404.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
        let failed = Analyzer().analyze(files: [
            (
                "capture.har",
                har(#"{"status":0,"headers":[],"content":{"size":0},"_error":"net::ERR_CONNECTION_RESET"}"#)
            )
        ])
        #expect(failed.sessions.flatMap(\.findings).contains { $0.ruleID == "segment-errors" })
    }

    /// Many sessions with the same gap (an error log of five playbacks, no access log) give one
    /// reason naming the first three, not one line each that would bury the verdict.
    @Test func manySessionsWithTheSameGapShareOneReason() {
        var log =
            "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83\n#Date: 2026/11/21 05:00:00.000\n"
            + "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
        for i in 1...5 {
            log +=
                "2026/11/21 05:0\(i):00.000 https://cdn.example.org/v/seg_\(i).ts 4F0B2C61-8E3A-4D5B-9A7C-2E1F0D3C4B5\(i) 203.0.113.7 -12938 \"CoreMediaErrorDomain\" \"HTTP 404: File Not Found\" en0\n"
        }
        let report = Analyzer().analyze(files: [("errorlog.txt", Array(log.utf8))])
        #expect(report.sessions.count == 5)
        let reasons = report.verdict.couldNotJudge.filter { $0.contains("cannot be judged") }
        #expect(reasons.count == 1)
        #expect(reasons.first?.hasPrefix("sessions ") == true)
        #expect(reasons.first?.contains("and 2 more: stalls and startup time cannot be judged") == true)
        #expect(report.verdict.status != .noProblemFound)
    }

    /// Unreadable evidence is no all-clear (probe A, B12): an error log saved as UTF-16 without a
    /// byte-order mark, and random bytes named `metrics.jsonl`, beside a good access log. Near
    /// misses: the same bytes named `poster.png` are a stray file, and the access log alone is
    /// judged.
    @Test func unreadableLogsBesideAGoodOneAreNoAllClear() throws {
        let access = try bytes(Self.realAccessLog)
        let errorLog =
            "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83\n#Date: 2026/11/21 05:00:00.000\n"
            + "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
            + "2026/11/21 05:04:59.059 https://cdn.example.org/v/seg_51.ts 4F0B2C61 203.0.113.7 -12938 \"CoreMediaErrorDomain\" \"HTTP 404: File Not Found\" en0\n"
        let utf16 = errorLog.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let withUTF16 = Analyzer().analyze(files: [("access.log", access), ("error.log", utf16)])
        #expect(withUTF16.verdict.couldNotJudge.contains { $0.contains("error.log was not read: UTF-16") })
        #expect(withUTF16.verdict.status != .noProblemFound)

        var garbage: [UInt8] = []
        var x: UInt32 = 12345
        for _ in 0..<2048 {
            x = x &* 1_103_515_245 &+ 12345
            garbage.append(UInt8(truncatingIfNeeded: x >> 16))
        }
        let withGarbage = Analyzer().analyze(files: [("access.log", access), ("metrics.jsonl", garbage)])
        #expect(withGarbage.verdict.couldNotJudge.contains { $0.contains("metrics.jsonl was not read: binary data") })
        let withImage = Analyzer().analyze(files: [("access.log", access), ("poster.png", garbage)])
        let alone = Analyzer().analyze(files: [("access.log", access)])
        #expect(withImage.verdict == alone.verdict)
    }

    /// A console capture forced as a proxy log has none of the format's evidence: said so, no
    /// origin failure invented.
    @Test func aForcedFormatWithoutItsEvidenceIsNotRead() {
        let console = """
            2026-11-21 10:00:00.123456+0100 Player[512:7788] [AVFoundation] Playback failed: Error Domain=AVFoundationErrorDomain Code=-11800 "The operation could not be completed" UserInfo={NSUnderlyingError=0x283 {Error Domain=NSURLErrorDomain Code=-1001 "timed out"}}
            2026-11-21 10:00:01.000000+0100 Player[512:7788] [Network] Task <1> finished with error - code: -1001 URL: https://origin.example.com/v/seg1.ts
            """
        var options = AnalysisOptions()
        options.forcedFormat = .cacheLog
        let report = Analyzer(options: options).analyze(files: [("console.txt", Array(console.utf8))])
        #expect(report.sessions.flatMap(\.findings).isEmpty)
        #expect(report.inputs.first?.records == 0)
        #expect(report.inputs.first?.notRead?.reason.contains("none of that format's evidence") == true)
        #expect(report.verdict.status == .nothingRead)
    }

    /// A capture from a browser holds pages, scripts and images as well as the playback: they
    /// never join (or stretch) the session.
    @Test func webRequestsInAPlaybackCaptureStayOutOfTheSession() throws {
        func entry(_ url: String, _ at: String, mime: String) -> String {
            #"{"startedDateTime":"\#(at)","time":50,"request":{"method":"GET","url":"\#(url)","headers":[]},"response":{"status":200,"headers":[],"content":{"size":100,"mimeType":"\#(mime)"}}}"#
        }
        let har =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":["#
            + [
                entry("https://www.example.com/", "2026-08-01T10:00:00.000Z", mime: "text/html"),
                entry(
                    "https://cdn.example.com/v/index.m3u8", "2026-11-21T10:00:00.000Z",
                    mime: "application/vnd.apple.mpegurl"),
                entry("https://cdn.example.com/v/s1.ts", "2026-11-21T10:00:01.000Z", mime: "video/mp2t"),
                entry("https://www.example.com/api/track", "2026-11-21T12:00:00.000Z", mime: "application/json"),
            ].joined(separator: ",") + "]}}"
        let report = Analyzer().analyze(files: [("capture.har", Array(har.utf8))])
        #expect(report.sessions.count == 1)
        let s = try #require(report.sessions.first?.session)
        let span = (s.end?.secondsSince1970 ?? 0) - (s.start?.secondsSince1970 ?? 0)
        #expect(span < 60, "a session of \(span) s")
    }
}
