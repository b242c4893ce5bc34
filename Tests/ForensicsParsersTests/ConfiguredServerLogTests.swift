import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsParsers

/// Server logs read with the layout the user gives (`--cdn-log-format KIND=LAYOUT`): nginx's
/// `log_format`, Apache's `LogFormat`, Fastly's formats (Apache-like and JSON), CloudFront
/// real-time field lists. Written from the servers' documentation of each variable; every kind
/// has a line that must not be taken for it.
@Suite struct ConfiguredServerLogTests {
    func rows(
        _ kind: any ConfigurableServerLog.Type, _ layout: String, _ text: String
    ) throws -> (format: InputFormat?, requests: [ServerRequest], diagnostics: [Diagnostic]) {
        var ingestor = Ingestor()
        ingestor.registry.configured = [try kind.declaration(layout: layout)]
        let bytes = Array(text.utf8)
        let o = ingestor.ingest(BundleMember(path: "server.log", open: { MemoryByteSource(bytes) }))
        let requests = (o.result?.records ?? []).compactMap(\.serverRequest)
        return (o.format, requests, (o.result?.diagnostics ?? []) + o.diagnostics)
    }

    static let nginxLayout =
        #"$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" rt=$request_time uht=$upstream_header_time cs=$upstream_cache_status sid="$http_x_playback_session_id" rid=$request_id"#

    // MARK: nginx

    @Test func nginxRowsEndAtTheirLoggedTimeAndStartRequestTimeEarlier() throws {
        let line =
            #"203.0.113.9 - - [21/Nov/2026:11:00:04 +0100] "GET /v/720p/seg12.ts?token=abc HTTP/1.1" 504 0 "-" "AppleCoreMedia/1.0 (iPhone; \x22quoted\x22)" rt=2.513 uht=2.500 cs=MISS sid="5F2C1A0B-1111-4222-8333-944455556666" rid=7f3a9c"#
        let r = try rows(NginxAccessLog.self, Self.nginxLayout, line + "\n")
        #expect(r.format == InputFormat("nginx-access-log"))
        let row = try #require(r.requests.first)
        #expect(row.end == TimestampParser.parse("2026-11-21T10:00:04Z"), "$time_local is when the row was logged")
        #expect(abs((row.end ?? Timestamp(0)) - (row.start ?? Timestamp(0)) - 2.513) < 1e-6)
        #expect(row.status == 504 && row.cacheResult == .miss && row.originFirstByte == 2.5)
        #expect(row.sessionHeader == "5F2C1A0B-1111-4222-8333-944455556666" && row.requestID == "7f3a9c")
        #expect(row.path == "/v/720p/seg12.ts" && row.query?.hasPrefix("token=") == true)
        #expect(row.query?.contains("abc") == false, "the token redacted")
        #expect(row.userAgent?.contains("quoted") == true, "nginx's \\x22 escapes do not end a quoted field")
    }

    @Test func aLineOfAnotherLayoutIsNotTakenForTheGivenOne() throws {
        // The default combined line lacks the custom tail: not this layout (the combined reader takes it).
        let combined =
            #"203.0.113.9 - - [21/Nov/2026:11:00:04 +0100] "GET /v/seg12.ts HTTP/1.1" 200 10 "-" "UA""# + "\n"
        let r = try rows(NginxAccessLog.self, Self.nginxLayout, combined)
        #expect(r.format == InputFormat("combined-access-log"))
        // A file that starts right but has a line of another shape later: that line diagnosed, the rest kept.
        let good =
            #"203.0.113.9 - - [21/Nov/2026:11:00:04 +0100] "GET /v/s1.ts HTTP/1.1" 200 10 "-" "UA" rt=0.100 uht=- cs=HIT sid="-" rid=a1"#
        let mixed = try rows(NginxAccessLog.self, Self.nginxLayout, good + "\n" + "garbage line\n" + good + "\n")
        #expect(mixed.requests.count == 2)
        #expect(mixed.diagnostics.contains { $0.location.line == 2 && $0.message.contains("log format's shape") })
    }

    @Test func aLayoutThatCannotBeReadIsRefusedWhenGiven() {
        #expect(throws: ConfigurationError.self) { try NginxAccessLog.declaration(layout: "$status$body_bytes_sent") }
        #expect(throws: ConfigurationError.self) { try NginxAccessLog.declaration(layout: "$request $status") }
        #expect(throws: ConfigurationError.self) { try NginxAccessLog.declaration(layout: "[$time_local] $status") }
        #expect(throws: ConfigurationError.self) {
            try CloudFrontRealtimeLog.declaration(layout: "timestamp cs-uri-stm")
        }
        #expect(throws: ConfigurationError.self) { try FastlyLog.declaration(layout: #"{"a": "%>s""#) }
    }

    // MARK: Apache

    @Test func apachesTimeIsWhenTheRequestArrivedUnlessWrittenEnd() throws {
        let layout = #"%h %l %u %t "%r" %>s %b %D "%{X-Playback-Session-Id}i" "%{CMCD-Session}i""#
        let line =
            #"198.51.100.7 - - [21/Nov/2026:10:00:04 +0000] "GET /v/seg12.ts HTTP/1.1" 200 1048576 420000 "S-1" "sid=\"S-1\",st=v""#
        let r = try rows(ApacheAccessLog.self, layout, line + "\n")
        let row = try #require(r.requests.first)
        #expect(r.format == InputFormat("apache-access-log"))
        #expect(row.start == TimestampParser.parse("2026-11-21T10:00:04Z"), "%t: the request received")
        #expect(abs((row.end ?? Timestamp(0)) - (row.start ?? Timestamp(0)) - 0.42) < 1e-6, "%D: microseconds")
        #expect(row.sessionHeader == "S-1" && row.cmcd["st"] == "v")
        let ended = try rows(
            ApacheAccessLog.self, #"%{end:%Y-%m-%dT%H:%M:%S%z}t %U%q %>s %{ms}T"#,
            "2026-11-21T10:00:04+0000 /v/seg12.ts?x=1 200 420\n")
        let e = try #require(ended.requests.first)
        #expect(e.end == TimestampParser.parse("2026-11-21T10:00:04Z") && e.query == "x=1")
        #expect(abs((e.end ?? Timestamp(0)) - (e.start ?? Timestamp(0)) - 0.42) < 1e-6, "%{ms}T: milliseconds")
    }

    /// mod_log_config's own example splits the time (`%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t`): no
    /// piece is taken for a whole instant (a zone `+0100` read as a number gave 1970).
    @Test func aSplitApacheTimeIsNeverReadAsOneInstant() throws {
        let layout = "%h [%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t] \"%r\" %>s"
        let r = try rows(
            ApacheAccessLog.self, layout,
            "198.51.100.7 [21/Nov/2026 10:00:04.123 +0100] \"GET /v/s1.ts HTTP/1.1\" 200\n")
        #expect(r.requests.allSatisfy { ($0.start?.secondsSince1970 ?? 2e9) > 1e9 }, "no 1970 time")
    }

    // MARK: Fastly

    @Test func fastlysApacheLikeFormatReadsItsVCLVariables() throws {
        let layout =
            #"%h %{begin:%Y-%m-%dT%H:%M:%S%z}t "%r" %>s %B %{time.elapsed.usec}V %{fastly_info.state}V %{server.datacenter}V %{req.http.X-Playback-Session-Id}V"#
        let line = #"198.51.100.7 2026-11-21T10:00:04+0000 "GET /v/seg12.ts HTTP/1.1" 503 0 5012000 ERROR FRA S-9"#
        let r = try rows(FastlyLog.self, layout, line + "\n")
        let row = try #require(r.requests.first)
        #expect(r.format == InputFormat("fastly-log"))
        #expect(row.start == TimestampParser.parse("2026-11-21T10:00:04Z"))
        #expect(abs((row.end ?? Timestamp(0)) - (row.start ?? Timestamp(0)) - 5.012) < 1e-6)
        #expect(row.cacheResult == .error && row.pop == "FRA" && row.sessionHeader == "S-9" && row.status == 503)
    }

    @Test func fastlysJSONFormatReadsEachKeyByItsDirective() throws {
        let layout = """
            {"timestamp":"%{strftime(\\{"%Y-%m-%dT%H:%M:%S%z"\\}, time.start)}V","client_ip":"%{req.http.Fastly-Client-IP}V",
             "url":"%{json.escape(req.url)}V","status":%>s,"bytes":%B,"elapsed_us":%{time.elapsed.usec}V,
             "cache":"%{fastly_info.state}V","pop":"%{server.datacenter}V","ttfb":%{time.to_first_byte}V,
             "request":{"sid":"%{json.escape(req.http.X-Playback-Session-Id)}V"}}
            """
        let line =
            #"{"timestamp":"2026-11-21T10:00:04+0000","client_ip":"198.51.100.7","url":"/v/seg12.ts?CMCD=bl%3D300%2Csid%3D%22S-9%22","status":200,"bytes":1048576,"elapsed_us":420000,"cache":"HIT-STALE","pop":"AMS","ttfb":0.004,"request":{"sid":"S-9"}}"#
        let r = try rows(FastlyLog.self, layout, line + "\n")
        let row = try #require(r.requests.first)
        #expect(row.start == TimestampParser.parse("2026-11-21T10:00:04Z"))
        #expect(abs((row.end ?? Timestamp(0)) - (row.start ?? Timestamp(0)) - 0.42) < 1e-6)
        #expect(row.cacheResult == .stale && row.pop == "AMS" && row.firstByte == 0.004)
        #expect(row.clientIP != nil && row.clientIP != "198.51.100.7", "read, and redacted")
        #expect(row.sessionHeader == "S-9" && row.cmcd["bl"] == "300")
        // JSON with another shape (no status, no time): not this layout.
        let other = try rows(FastlyLog.self, layout, #"{"event":"x","url":"/v/seg12.ts"}"# + "\n")
        #expect(other.format != InputFormat("fastly-log"))
    }

    // MARK: CloudFront real-time

    static let realtimeFields =
        "timestamp c-ip time-to-first-byte sc-status sc-bytes cs-method cs-protocol cs-host cs-uri-stem x-edge-location x-edge-request-id time-taken x-edge-result-type origin-fbl cmcd-session-id cmcd-buffer-length"

    @Test func cloudFrontRealTimeRowsEndAtTheirTimestampToTheMillisecond() throws {
        let text =
            "1795255204.123\t198.51.100.7\t0.004\t200\t1048576\tGET\thttps\td1.cloudfront.net\t/v/seg12.ts?x=1\tFRA56-P3\tAbC123==\t0.420\tMiss\t0.350\tS-1\t2500\n"
            + "1795255205.500\t198.51.100.7\t0.004\t200\t1048576\tGET\thttps\td1.cloudfront.net\t/v/seg13.ts\tFRA56-P3\n"
        let r = try rows(CloudFrontRealtimeLog.self, Self.realtimeFields, text)
        #expect(r.format == InputFormat("cloudfront-realtime"))
        let row = try #require(r.requests.first)
        #expect(row.end == Timestamp(1_795_255_204.123), "when the edge finished responding")
        #expect(abs((row.end ?? Timestamp(0)) - (row.start ?? Timestamp(0)) - 0.42) < 1e-6)
        #expect(row.path == "/v/seg12.ts" && row.query == "x=1", "the stem carries the query in real-time logs")
        #expect(row.originFirstByte == 0.35 && row.sessionHeader == "S-1" && row.cmcd["bl"] == "2500")
        #expect(row.requestIDHeader == "x-amz-cf-id" && row.resolution == 0.001)
        #expect(r.requests.count == 2, "a truncated row keeps what it has")
        #expect(r.diagnostics.contains { $0.location.line == 2 && $0.message.contains("truncated") })
    }

    @Test func aTabSeparatedFileWithOtherColumnsIsNotARealTimeLog() throws {
        let text = "1795255204.123\t198.51.100.7\t0.004\t200\n"
        let r = try rows(CloudFrontRealtimeLog.self, Self.realtimeFields, text)
        #expect(r.format == nil)
    }

    @Test func withoutALayoutGivenOnlyTheCombinedPartOfALineIsRead() throws {
        let line =
            #"203.0.113.9 - - [21/Nov/2026:11:00:04 +0100] "GET /v/s1.ts HTTP/1.1" 200 10 "-" "UA" rt=0.100 uht=- cs=HIT sid="S-1" rid=a1"#
        let o = ingest("server.log", line + "\n")
        #expect(o.format == InputFormat("combined-access-log"))
        let row = try #require(o.result?.records.first?.serverRequest)
        #expect(
            row.requestID == nil && row.sessionHeader == nil && row.lastByte == nil, "custom fields: unnamed, unread")
        let tail = try #require(o.result?.records.first)
        #expect(tail.format == InputFormat("combined-access-log"))
        let csv = ingest("server.log", "a,b,c\n1,2,3\n")
        #expect(csv.format == nil, "nothing in a CSV says it is a server log")
    }
}
