import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import PlaybackForensics

/// What joining a CDN log to a session proves (`shared/spec/cdn-logs.md`), one story each, with
/// client evidence (metric events) and one server log — a different vendor across the stories —
/// each asserting the finding, its cause, the server rows it cites, the join's label, and that no
/// other viewer's row is cited.
@Suite struct CDNStoryTests {
    static let sid = TimelineScript.sessionID
    /// 2026-11-21T10:00:00Z, where `TimelineScript` times start.
    static let t0 = 1_795_255_200.0

    static func cloudFront(_ rows: [String]) -> String {
        "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end\n"
            + rows.joined(separator: "\n") + "\n"
    }

    /// A CloudFront row written at `end` seconds after 10:00:00 (whole seconds, UTC).
    static func cfRow(
        end: Int, path: String, status: String, result: String, id: String, taken: Double, ttfb: Double,
        detailed: String? = nil, ip: String = "198.51.100.23", pop: String = "FRA56-P3"
    ) -> String {
        let s = String(format: "%02d:%02d", end / 60, end % 60)
        return [
            "2026-11-21", "10:\(s)", pop, "1000", ip, "GET", "d1.cloudfront.net", path, status, "-",
            "AppleCoreMedia/1.0.0.22B83", "-", "-", result, id, "video.example.com", "https", "300",
            String(format: "%.3f", taken), "-", "TLSv1.3", "TLS_AES_128_GCM_SHA256", result, "HTTP/2.0", "-", "-",
            "50000", String(format: "%.3f", ttfb), detailed ?? result, "video/mp4", "1000", "-", "-",
        ].joined(separator: "\t")
    }

    func analyze(_ script: String, server: (name: String, text: String)) -> AnalysisReport {
        Analyzer().analyze(files: [
            ("events.jsonl", Array(TimelineScript.compile(script).utf8)), (server.name, Array(server.text.utf8)),
        ])
    }

    func cited(_ f: Finding) -> [String] { f.evidence.map(\.location.file) }

    func serverIDs(_ f: Finding, _ report: AnalysisReport) -> Set<String> {
        let session = report.sessions.first?.session
        var ids = Set<String>()
        for e in f.evidence {
            guard let i = e.timelineIndex, let entry = session?.entries[i] else { continue }
            for v in session?.serverViews(of: entry) ?? [] where v.record.location == e.location {
                if let id = v.serverRequest?.requestID { ids.insert(id) }
            }
        }
        return ids
    }

    // MARK: whose 404

    /// CloudFront answered the 404s from its cache in a millisecond, without asking the origin:
    /// a cached negative response (exact joins by `x-amz-cf-id`).
    @Test func aCachedNegativeResponseIsTheCDNsCache() throws {
        let report = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            10.00 segment https://video.example.com/a/v8/s2.ts 404 0.030 dur=6 rh.x-amz-cf-id=N1==
            10.20 segment https://video.example.com/a/v8/s2.ts 404 0.030 dur=6 rh.x-amz-cf-id=N2==
            10.50 segment https://video.example.com/a/v8/s2.ts 404 0.030 dur=6 rh.x-amz-cf-id=N3==
            """,
            server: (
                "E1.2026-11-21-10.a.log",
                Self.cloudFront([
                    Self.cfRow(
                        end: 10, path: "/a/v8/s2.ts", status: "404", result: "Error", id: "N1==", taken: 0.001,
                        ttfb: 0.001),
                    Self.cfRow(
                        end: 10, path: "/a/v8/s2.ts", status: "404", result: "Error", id: "N2==", taken: 0.001,
                        ttfb: 0.001),
                    Self.cfRow(
                        end: 10, path: "/a/v8/s2.ts", status: "404", result: "Error", id: "N3==", taken: 0.001,
                        ttfb: 0.001),
                    Self.cfRow(
                        end: 10, path: "/a/v8/s2.ts", status: "404", result: "Error", id: "OTHER==", taken: 0.001,
                        ttfb: 0.001, ip: "203.0.113.9"),
                ])
            ))
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "segment-errors" })
        #expect(f.explanation?.contains("cached negative response") == true, "\(f.explanation ?? "")")
        #expect(f.details["server_side"] == .strings(["cached-error"]))
        #expect(serverIDs(f, report) == ["N1==", "N2==", "N3=="], "no other viewer's row")
        let views = report.sessions.first?.session.serverViews.values.flatMap { $0 } ?? []
        #expect(views.allSatisfy { $0.confidence == .exact && $0.key == .requestID })
    }

    /// Cloudflare went to the origin, which answered 404 itself: the origin lacks the object
    /// (strong joins: the session header logged as a Logpush custom field).
    @Test func theOriginReallyLacksTheObject() throws {
        func nanos(_ s: Double) -> String { String(Int64((Self.t0 + s) * 1e9)) }
        var rows: [String] = []
        for i in 0..<3 {
            let start = nanos(10 + Double(i) * 0.2)
            let end = nanos(10.04 + Double(i) * 0.2)
            let fields = [
                #""EdgeStartTimestamp":\#(start)"#, #""EdgeEndTimestamp":\#(end)"#, #""RayID":"7a00000000000\#(i)""#,
                #""EdgeColoCode":"AMS""#, #""ClientRequestURI":"/a/v8/s2.ts""#, #""EdgeResponseStatus":404"#,
                #""OriginResponseStatus":404"#, #""CacheCacheStatus":"miss""#, #""EdgeTimeToFirstByteMs":38"#,
                #""OriginResponseHeaderReceiveDurationMs":31"#,
                #""RequestHeaders":{"x-playback-session-id":"\#(Self.sid)"}"#,
            ]
            rows.append("{" + fields.joined(separator: ",") + "}")
        }
        let otherStart = nanos(10.1)
        let other =
            #"{"EdgeStartTimestamp":\#(otherStart),"RayID":"7affffffffffffff","EdgeColoCode":"AMS","ClientRequestURI":"/a/v8/s2.ts","EdgeResponseStatus":404,"OriginResponseStatus":404,"CacheCacheStatus":"miss","RequestHeaders":{"x-playback-session-id":"SOMEONE-ELSE"}}"#
        let report = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            10.00 segment https://video.example.com/a/v8/s2.ts 404 0.050 dur=6
            10.20 segment https://video.example.com/a/v8/s2.ts 404 0.050 dur=6
            10.40 segment https://video.example.com/a/v8/s2.ts 404 0.050 dur=6
            """,
            server: ("logpush.json", (rows + [other]).joined(separator: "\n") + "\n"))
        #expect(report.inputs.map(\.format).contains(InputFormat("cloudflare-logpush")))
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "segment-errors" })
        #expect(f.details["server_side"] == .strings(["origin-missing"]), "\(f.explanation ?? "")")
        #expect(f.explanation?.contains("the origin lacks the object") == true)
        #expect(!serverIDs(f, report).contains("7affffffffffffff"), "no other viewer's row")
        let views = report.sessions.first?.session.serverViews.values.flatMap { $0 } ?? []
        #expect(views.count == 3)
        #expect(views.allSatisfy { $0.confidence == .strong && $0.key == .sessionID })
    }

    /// Akamai could not reach the origin (502 with an error code): the origin path is broken
    /// (probable joins: path and time, no ids logged).
    @Test func aBrokenOriginPathIsTheOrigins() throws {
        let rows = (0..<3).map { i in
            #"{"reqTimeSec":""# + String(format: "%.3f", Self.t0 + 10 + Double(i) * 0.3)
                + #"","reqId":"ak\#(i)","reqPath":"/a/v8/s2.ts","statusCode":"502","cacheStatus":"0","errorCode":"ERR_CONNECT_FAIL","turnAroundTimeMSec":"30","transferTimeMSec":"1"}"#
        }
        let report = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            10.00 segment https://video.example.com/a/v8/s2.ts 502 0.040 dur=6
            10.30 segment https://video.example.com/a/v8/s2.ts 502 0.040 dur=6
            10.60 segment https://video.example.com/a/v8/s2.ts 502 0.040 dur=6
            """,
            server: ("ds2.json", rows.joined(separator: "\n") + "\n"))
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "segment-errors" })
        #expect(f.details["server_side"] == .strings(["origin-path-broken"]), "\(f.explanation ?? "")")
        #expect(serverIDs(f, report) == ["ak0", "ak1", "ak2"])
        let views = report.sessions.first?.session.serverViews.values.flatMap { $0 } ?? []
        #expect(views.allSatisfy { $0.confidence == .probable && $0.key == .pathAndTime })
    }

    // MARK: stalls with a server-side cause

    /// The SampleLogs pair: a miss whose origin took 4.1 s of a 4.45 s download.
    @Test func aSlowOriginStall() throws {
        let report = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("cdn-slow-origin").path)
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(f.cause == "slow-origin")
        #expect(cited(f).contains { $0.hasPrefix("cloudfront/") })
        #expect(serverIDs(f, report) == ["s06D4a6T5pU3fIcMw6nB0xYeQ1zSt7vOg9hKj8lRd5Wf6=="])
        #expect(report.sessions.first?.session.serverJoin?.joined[.exact] == 15)
    }

    /// Cloudflare served the segment from its cache but took 2.5 s to a first byte.
    @Test func aSlowEdgeStall() throws {
        let row =
            #"{"EdgeStartTimestamp":"# + String(Int64((Self.t0 + 14.0) * 1e9)) + #","EdgeEndTimestamp":"#
            + String(Int64((Self.t0 + 17.2) * 1e9))
            + #","RayID":"8b01","EdgeColoCode":"MAD","ClientRequestURI":"/a/v8/s6.ts","EdgeResponseStatus":200,"OriginResponseStatus":0,"CacheCacheStatus":"hit","EdgeTimeToFirstByteMs":2500}"#
        let report = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            14.00 segment https://video.example.com/a/v8/s6.ts 200 3.2 dur=6 rh.cf-ray=8b01-MAD
            16.50 stall
            18.70 ltku variant=8M
            """,
            server: ("logpush.json", row + "\n"))
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(f.cause == "slow-cdn-edge", "\(f.explanation ?? "")")
        #expect(f.subject.pop == "MAD")
        #expect(serverIDs(f, report) == ["8b01"])
    }

    /// The edge answered from cache in 3 ms while the client's transfer crawled: the last mile.
    @Test func theLastMileIsProven() throws {
        let cf = Self.cloudFront([
            Self.cfRow(end: 20, path: "/a/v8/s6.ts", status: "200", result: "Hit", id: "L1==", taken: 6.9, ttfb: 0.003)
        ])
        let report = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            14.00 segment https://video.example.com/a/v8/s6.ts 200 7.0 dur=6 rh.x-amz-cf-id=L1==
            19.00 stall
            21.50 ltku variant=8M
            """,
            server: ("E1.2026-11-21-10.b.log", cf))
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(f.cause == "insufficient-bandwidth")
        #expect(f.explanation?.contains("last mile") == true, "\(f.explanation ?? "")")
        #expect(serverIDs(f, report) == ["L1=="])
        // Near miss: without the CDN log the cause is the same, but nothing is proven about the CDN.
        let alone = Analyzer().analyze(files: [
            (
                "events.jsonl",
                Array(
                    TimelineScript.compile(
                        """
                        0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
                        0.700 initial-ltku variant=8M
                        14.00 segment https://video.example.com/a/v8/s6.ts 200 7.0 dur=6
                        19.00 stall
                        21.50 ltku variant=8M
                        """
                    ).utf8)
            )
        ])
        let g = try #require(alone.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(g.cause == "insufficient-bandwidth")
        #expect(g.explanation?.contains("last mile") == false)
    }

    static let slowMissScript = """
        0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
        0.700 initial-ltku variant=8M
        14.00 segment https://video.example.com/a/v8/s6.ts 200 9.0 dur=6
        19.00 stall
        23.50 ltku variant=8M
        """

    /// Probe E: a miss whose row has no first-byte time (CloudFront's older 19-field layout)
    /// cannot prove the last mile: the cause stays the client's view, and says it is unproven.
    @Test func aMissWithoutFirstByteTimeLeavesTheLastMileUnproven() throws {
        let header =
            "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken\n"
        let row = [
            "2026-11-21", "10:00:23", "FRA56-P3", "1000", "198.51.100.23", "GET", "d1.cloudfront.net", "/a/v8/s6.ts",
            "200", "-", "AppleCoreMedia/1.0.0.22B83", "-", "-", "Miss", "M1==", "video.example.com", "https", "300",
            "8.950",
        ].joined(separator: "\t")
        let report = analyze(Self.slowMissScript, server: ("E1.2026-11-21-10.c.log", header + row + "\n"))
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(f.cause == "insufficient-bandwidth")
        #expect(
            f.explanation?.contains("unproven whether the last mile or the CDN was slow") == true,
            "\(f.explanation ?? "")")
        #expect(f.explanation?.contains("the time was spent on the last mile") == false)
    }

    /// Probe E: nginx's `$upstream_response_time` (no `$upstream_header_time`) is the edge's
    /// time on the origin: a miss that spent most of the download there is `slow-origin`.
    @Test func nginxUpstreamResponseTimeShowsASlowOrigin() throws {
        let layout =
            #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time $upstream_response_time $upstream_cache_status"#
        let row =
            #"198.51.100.23 - - [21/Nov/2026:10:00:23 +0000] "GET /a/v8/s6.ts HTTP/1.1" 200 1500000 "-" "AppleCoreMedia/1.0.0.22B83" 8.950 8.600 MISS"#
        var options = AnalysisOptions()
        options.serverLogLayouts = [try ServerLogLayout(kind: "nginx", layout: layout)]
        let report = Analyzer(options: options).analyze(files: [
            ("events.jsonl", Array(TimelineScript.compile(Self.slowMissScript).utf8)),
            ("access.log", Array((row + "\n").utf8)),
        ])
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(f.cause == "slow-origin", "\(f.explanation ?? "")")
        // The client's slow view of the same download is no competing cause.
        #expect(f.explanation?.contains("also seen") == false)
        #expect(f.explanation?.contains("the server rows show where that time went") == true)
    }

    /// Probe E: AVPlayer's error log records each failed request (URI, session id, when it
    /// failed): the CDN's session-tagged row for it joins (strong), is quoted by the finding, and
    /// places the server clock by the ends of the two (the row's start would be 9 s off).
    @Test func anErrorLogRowJoinsItsServerRowBySessionID() throws {
        let guid = "6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10"
        let software = "#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)\n"
        let errors =
            "#Version: 1.0\n" + software + "#Date: 2026/11/21 10:05:00.000\n"
            + "#Fields: date time uri cs-guid s-ip status domain comment cs-iftype\n"
            + (37...39).map {
                "2026/11/21 10:00:\($0).000 https://video.example.com/v/720p/seg\($0).ts \(guid) 203.0.113.7 -12889 \"CoreMediaErrorDomain\" \"HTTP 503: Service Unavailable\" en0"
            }.joined(separator: "\n") + "\n"
        func row(_ n: Int) -> String {
            let start: String = String(Int64((Self.t0 + Double(n) - 9) * 1e9))
            let end: String = String(Int64((Self.t0 + Double(n)) * 1e9))
            let rest: String =
                #","RayID":"9e\#(n)","EdgeColoCode":"FRA","ClientRequestHost":"video.example.com","ClientRequestURI":"/v/720p/seg\#(n).ts","EdgeResponseStatus":503,"OriginResponseStatus":503,"CacheCacheStatus":"miss","EdgeTimeToFirstByteMs":8600,"RequestHeaders":{"x-playback-session-id":"\#(guid)"}}"#
            return #"{"EdgeStartTimestamp":"# + start + #","EdgeEndTimestamp":"# + end + rest
        }
        let rows = (37...39).map(row).joined(separator: "\n") + "\n"
        var options = AnalysisOptions()
        options.timezoneOffset = 0
        let report = Analyzer(options: options).analyze(files: [
            ("error.log", Array(errors.utf8)), ("logpush.json", Array(rows.utf8)),
        ])
        let join = try #require(report.sessions.first?.session.serverJoin)
        #expect(join.joined[JoinConfidence.strong] == 3, "\(join)")
        #expect(abs(join.offset ?? 99) < 0.5, "\(join)")
        let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "segment-errors" })
        #expect(serverIDs(f, report) == ["9e37", "9e38", "9e39"])
        #expect(f.explanation?.contains("path to the origin is broken") == true, "\(f.explanation ?? "")")
    }

    /// Probe E: Google Cloud CDN's `timestamp` may be a request's start or its end (anchor
    /// unknown): a slow miss stamped at its start joins like one stamped at its end, and its
    /// origin wait (`backendInitialLatency`) makes the stall `slow-origin`.
    @Test func aGoogleRowStampedAtItsStartJoins() throws {
        func row(_ stamp: Double) -> String {
            let time = Timestamp(Self.t0 + stamp).iso8601
            return
                #"{"insertId":"g1","timestamp":"\#(time)","httpRequest":{"requestMethod":"GET","requestUrl":"https://video.example.com/a/v8/s6.ts","status":200,"responseSize":"1500000","latency":"8.900s","cacheHit":false,"cacheLookup":true},"jsonPayload":{"statusDetails":"response_sent_by_backend","cacheId":"FRA-1f2e","backendInitialLatency":"8.600s"}}"#
        }
        for stamp in [14.0, 22.9] {
            let report = analyze(Self.slowMissScript, server: ("requests.json", row(stamp) + "\n"))
            let f = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
            #expect(f.cause == "slow-origin", "stamped at +\(stamp) s: \(f.explanation ?? "")")
            #expect(serverIDs(f, report) == ["g1"])
        }
    }

    /// CloudFront logged `000` and `ClientCommError`: the client closed the connection itself.
    @Test func aClientAbortIsNotTheCDNs() throws {
        let cf = Self.cloudFront([
            Self.cfRow(
                end: 10, path: "/a/v8/s2.ts", status: "000", result: "Error", id: "A1==", taken: 0.5, ttfb: 0.002,
                detailed: "ClientCommError"),
            Self.cfRow(
                end: 12, path: "/a/v8/s3.ts", status: "000", result: "Error", id: "A2==", taken: 0.5, ttfb: 0.002,
                detailed: "ClientCommError"),
            Self.cfRow(
                end: 14, path: "/a/v8/s4.ts", status: "000", result: "Error", id: "A3==", taken: 0.5, ttfb: 0.002,
                detailed: "ClientCommError"),
        ])
        // The player cancelled (no response, so no request id recorded): joined by path and time.
        let report = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            10.00 segment https://video.example.com/a/v8/s2.ts - 0.5 dur=6 error=-999
            12.00 segment https://video.example.com/a/v8/s3.ts - 0.5 dur=6 error=-999
            14.00 segment https://video.example.com/a/v8/s4.ts - 0.5 dur=6 error=-999
            """,
            server: ("E1.2026-11-21-10.c.log", cf))
        let views = report.sessions.first?.session.serverViews.values.flatMap { $0 } ?? []
        #expect(views.count == 3)
        #expect(views.allSatisfy { $0.serverRequest?.clientAborted == true })
        if let f = report.sessions.first?.findings.first(where: { $0.ruleID == "segment-errors" }) {
            #expect(f.details["server_side"] == .strings(["client-aborted"]))
            #expect(f.explanation?.contains("not a CDN fault") == true)
        }
    }

    // MARK: key server or network

    func keyStory(serverSeconds: Double) -> AnalysisReport {
        let row =
            #"{"EdgeStartTimestamp":"# + String(Int64((Self.t0 + 0.25) * 1e9)) + #","EdgeEndTimestamp":"#
            + String(Int64((Self.t0 + 0.25 + serverSeconds) * 1e9))
            + #","RayID":"k1","EdgeColoCode":"FRA","ClientRequestHost":"keys.example.com","ClientRequestPath":"/fps","EdgeResponseStatus":200,"CacheCacheStatus":"dynamic"}"#
        return analyze(
            """
            0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
            0.150 key https://keys.example.com/fps 200 1.500 rh.cf-ray=k1-FRA
            1.700 segment https://cdn.example.com/a/v20/s1.ts 200 0.300 dur=6
            2.100 initial-ltku variant=20M
            """,
            server: ("keys.json", row + "\n"))
    }

    /// The key server's own row took most of the client's 1.5 s: the key server was slow.
    @Test func aSlowKeyServer() throws {
        let f = try #require(
            keyStory(serverSeconds: 1.3).sessions.first?.findings.first { $0.ruleID == "slow-key-fetch" })
        #expect(f.details["key_wait"] == .string("key-server"), "\(f.explanation ?? "")")
        #expect(f.evidence.contains { $0.location.file == "keys.json" })
    }

    /// The server answered in 50 ms of the client's 1.5 s: the time went to reaching it.
    @Test func aSlowWayToTheKeyServer() throws {
        let f = try #require(
            keyStory(serverSeconds: 0.05).sessions.first?.findings.first { $0.ruleID == "slow-key-fetch" })
        #expect(f.details["key_wait"] == .string("network"), "\(f.explanation ?? "")")
        #expect(f.explanation?.contains("DNS, TLS") == true)
    }

    // MARK: no match

    /// A CDN log of the same hour that shares no request with the session: no match, with why.
    @Test func aLogOfOtherViewersIsNoMatchWithWhy() throws {
        let cf = Self.cloudFront([
            Self.cfRow(
                end: 12, path: "/other/v4/s1.ts", status: "200", result: "Hit", id: "X1==", taken: 0.2, ttfb: 0.002),
            Self.cfRow(
                end: 13, path: "/other/v4/s2.ts", status: "502", result: "Error", id: "X2==", taken: 0.2, ttfb: 0.002,
                detailed: "OriginDnsError"),
        ])
        let report = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            10.00 segment https://video.example.com/a/v8/s2.ts 200 0.5 dur=6
            """,
            server: ("E1.2026-11-21-10.d.log", cf))
        let join = try #require(report.sessions.first?.session.serverJoin)
        #expect(join.joined.isEmpty)
        #expect(join.noMatch?.contains("none is for a path the session requested") == true, "\(join.noMatch ?? "")")
        #expect(report.sessions.first?.findings.allSatisfy { !cited($0).contains { $0.hasSuffix(".d.log") } } == true)
        // And a log of another hour: the window.
        let later = Self.cloudFront([
            Self.cfRow(end: 10, path: "/a/v8/s2.ts", status: "200", result: "Hit", id: "Y1==", taken: 0.2, ttfb: 0.002)
        ]).replacingOccurrences(of: "\t10:00:10\t", with: "\t11:00:10\t")
        let other = analyze(
            """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            10.00 segment https://video.example.com/a/v8/s2.ts 200 0.5 dur=6
            """,
            server: ("E1.2026-11-21-11.e.log", later))
        let j = try #require(other.sessions.first?.session.serverJoin)
        #expect(j.noMatch?.contains("no server row falls within the session's") == true, "\(j.noMatch ?? "")")
    }
}

/// What the independent review of the join found, each held by a test.
@Suite struct JoinReviewTests {
    static let t0 = CDNStoryTests.t0

    func events(_ session: String, _ lines: [(path: String, start: Double, header: String?)]) -> String {
        lines.map { l in
            let url = "https://video.example.com" + l.path
            let headers = l.header.map { #""x-amz-cf-id":"\#($0)""# } ?? ""
            return
                #"{"type":"AVMetricHLSMediaSegmentRequestEvent","date":"\#(Timestamp(Self.t0 + l.start + 0.3).iso8601)","sessionID":"\#(session)","url":"\#(url)","mediaResourceRequestEvent":{"url":"\#(url)","requestStartTime":"\#(Timestamp(Self.t0 + l.start).iso8601)","responseEndTime":"\#(Timestamp(Self.t0 + l.start + 0.3).iso8601)","networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":200,"headers":{\#(headers)}}}]}}}"#
        }.joined(separator: "\n") + "\n"
    }

    func cfRow(_ end: Int, _ path: String, _ id: String, status: String = "200", detail: String? = nil) -> String {
        CDNStoryTests.cfRow(
            end: end, path: path, status: status, result: "Hit", id: id, taken: 0.3, ttfb: 0.002, detailed: detail)
    }

    /// Session A has no key for the row; session B names it by request id. Whatever the order of
    /// the sessions, B gets it (exact) and A's report does not cite it.
    @Test func aKeyedJoinIsNeverTakenByAnotherSessionsGuess() throws {
        let a = events("AAAA", [("/a/s1.ts", 10, nil)])
        let b = events("BBBB", [("/a/s1.ts", 10.1, "B1==")])
        let cf = CDNStoryTests.cloudFront([cfRow(10, "/a/s1.ts", "B1==")])
        for order in [[("a.jsonl", a), ("b.jsonl", b)], [("b.jsonl", b), ("a.jsonl", a)]] {
            let report = Analyzer().analyze(
                files: order.map { ($0.0, Array($0.1.utf8)) } + [("E1.2026-11-21-10.a.log", Array(cf.utf8))])
            let byID = Dictionary(uniqueKeysWithValues: report.sessions.map { ($0.session.id, $0.session) })
            let sb = try #require(byID["BBBB"])
            let sa = try #require(byID["AAAA"])
            #expect(sb.serverViews.values.flatMap { $0 }.map(\.confidence) == [.exact])
            #expect(sa.serverViews.isEmpty)
        }
    }

    /// Within a session too: a request's session-id match never takes the row another request
    /// of the session names by its request id.
    @Test func aStrongJoinNeverTakesAnotherRequestsExactRow() throws {
        let e = events("SSSS", [("/a/s1.ts", 10, nil), ("/a/s1.ts", 10.4, "R2==")])
        let row = cfRow(10, "/a/s1.ts", "R2==").replacingOccurrences(
            of: "\tAppleCoreMedia/1.0.0.22B83\t-\t", with: "\tAppleCoreMedia/1.0.0.22B83\tCMCD=sid%3D%22SSSS%22\t")
        let report = Analyzer().analyze(files: [
            ("e.jsonl", Array(e.utf8)), ("E1.2026-11-21-10.s.log", Array(CDNStoryTests.cloudFront([row]).utf8)),
        ])
        let views = report.sessions.first?.session.serverViews.values.flatMap { $0 } ?? []
        #expect(views.map(\.confidence) == [.exact])
        #expect(views.first?.serverRequest?.sessionHeader == "SSSS", "the row did carry the session id")
    }

    /// A path every viewer fetched: a thousand other rows in the hour before do not hide the
    /// request's own row from a probable join.
    @Test func aPopularPathStillJoinsByTime() throws {
        // Other viewers' rows from 10:01:40 to 10:29:59, then the request's own at 10:30:05.
        let others = (0..<1000).map { cfRow(1799 - ($0 % 1700), "/a/s1.ts", "O\($0)==") }
        let mine = cfRow(1805, "/a/s1.ts", "MINE==")
        let cf = CDNStoryTests.cloudFront(others + [mine])
        let report = Analyzer().analyze(files: [
            ("e.jsonl", Array(events("CCCC", [("/a/s1.ts", 1805, nil)]).utf8)),
            ("E1.2026-11-21-10.b.log", Array(cf.utf8)),
        ])
        let views = report.sessions.first?.session.serverViews.values.flatMap { $0 } ?? []
        #expect(views.map { $0.serverRequest?.requestID } == ["MINE=="])
        #expect(views.map(\.confidence) == [.probable])
    }

    /// An hour of a live playlist reloaded every 6 s, each reload named by the session's header:
    /// every one of the 600 joins strong, the last as surely as the first.
    @Test func aLongLiveSessionJoinsEveryReload() throws {
        let n = 600
        let e = events("LIVE", (0..<n).map { ("/live/index.m3u8", Double($0) * 6, nil) })
        let rows = (0..<n).map { i in
            #"{"EdgeStartTimestamp":"# + String(Int64((Self.t0 + Double(i) * 6 - 0.2) * 1e9))
                + #","RayID":"L\#(i)","ClientRequestPath":"/live/index.m3u8","EdgeResponseStatus":200,"RequestHeaders":{"x-playback-session-id":"LIVE"}}"#
        }
        let report = Analyzer().analyze(files: [
            ("e.jsonl", Array(e.utf8)), ("l.json", Array((rows.joined(separator: "\n") + "\n").utf8)),
        ])
        let join = try #require(report.sessions.first?.session.serverJoin)
        #expect(join.joined == [.strong: n])
        #expect(abs((join.offset ?? 0) - 0.2) < 0.001)
    }

    /// A row that lacks a status is not a client abort; CloudFront's `000` is.
    @Test func noStatusIsNotAnAbort() throws {
        let o = ingest(
            "l.json", #"{"EdgeStartTimestamp":1795255204120000000,"RayID":"x","ClientRequestPath":"/a"}"# + "\n")
        let r = try #require(o.result?.records.first?.serverRequest)
        #expect(r.status == nil && !r.clientAborted)
        let cf = ingest("cf.log", CDNStoryTests.cloudFront([cfRow(1, "/a", "Z", status: "000")]))
        #expect(cf.result?.records.first?.serverRequest?.clientAborted == true)
    }

    /// Only the header a vendor declares carries its request id: a client header that happens to
    /// equal a Cloud Logging `insertId` is no exact join.
    @Test func anUndeclaredHeaderIsNoRequestID() throws {
        let gcp =
            #"{"insertId":"B1==","timestamp":"2026-11-21T10:00:10.100Z","httpRequest":{"requestUrl":"https://video.example.com/a/s1.ts","status":200,"latency":"0.3s"},"jsonPayload":{"statusDetails":"response_from_cache"}}"#
        let report = Analyzer().analyze(files: [
            ("e.jsonl", Array(events("DDDD", [("/a/s1.ts", 10.1, "B1==")]).utf8)), ("g.json", Array((gcp + "\n").utf8)),
        ])
        let views = report.sessions.first?.session.serverViews.values.flatMap { $0 } ?? []
        #expect(views.map(\.confidence) == [.probable])
    }

    /// A server row quoting a fence does not close the report's: the HTML page keeps its sections.
    @Test func aRowWithAFenceCannotBreakTheHTMLPage() throws {
        let cf = CDNStoryTests.cloudFront([
            CDNStoryTests.cfRow(
                end: 10, path: "/a/s1.ts", status: "404", result: "Error", id: "F1==", taken: 0.001, ttfb: 0.001,
                detailed: "```"),
            CDNStoryTests.cfRow(
                end: 10, path: "/a/s1.ts", status: "404", result: "Error", id: "F2==", taken: 0.001, ttfb: 0.001,
                detailed: "```"),
            CDNStoryTests.cfRow(
                end: 11, path: "/a/s1.ts", status: "404", result: "Error", id: "F3==", taken: 0.001, ttfb: 0.001,
                detailed: "```"),
        ])
        let script = """
            0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            10.00 segment https://video.example.com/a/s1.ts 404 0.030 dur=6 rh.x-amz-cf-id=F1==
            10.20 segment https://video.example.com/a/s1.ts 404 0.030 dur=6 rh.x-amz-cf-id=F2==
            10.50 segment https://video.example.com/a/s1.ts 404 0.030 dur=6 rh.x-amz-cf-id=F3==
            """
        let report = Analyzer().analyze(files: [
            ("events.jsonl", Array(TimelineScript.compile(script).utf8)), ("E1.2026-11-21-10.f.log", Array(cf.utf8)),
        ])
        let html = ReportRenderer(redact: true).render(report, as: .html)
        let rows = try #require(html.range(of: "The rows as logged"))
        let rest = html[rows.upperBound...]
        let close = try #require(rest.range(of: "</details>"))
        #expect(rest[..<close.lowerBound].contains("```"), "the fence is shown inside the block")
        #expect(rest[close.upperBound...].contains("<h3 id="), "the page goes on after the block")
    }

    /// A JSON writer's escapes do not hide a viewer's address, a cookie or a token from redaction.
    @Test func escapedPersonalDataIsRedactedInTheQuotedRow() throws {
        let row =
            #"{"EdgeStartTimestamp":"# + String(Int64((Self.t0 + 10) * 1e9))
            + #","RayID":"p1","ClientIP":"198.51.100.77","ClientRequestURI":"\/a\/s1.ts?x=1\u0026hdnts=exp%3D1~hmac%3DSECRETSECRET","EdgeResponseStatus":200,"CacheCacheStatus":"hit","Cookies":{"sid":"COOKIEVALUE"}}"#
        let report = Analyzer().analyze(files: [
            ("e.jsonl", Array(events("EEEE", [("/a/s1.ts", 10, nil)]).utf8)), ("l.json", Array((row + "\n").utf8)),
        ])
        let raw = try #require(report.sessions.first?.session.serverViews.values.first?.first?.serverRequest?.raw)
        #expect(!raw.contains("198.51.100.77"))
        #expect(!raw.contains("COOKIEVALUE"))
        #expect(!raw.contains("SECRETSECRET"), "\(raw)")
    }
}
