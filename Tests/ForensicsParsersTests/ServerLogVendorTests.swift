import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsParsers

/// Each server-log vendor, from its documented fields and the corpus: what a row's time means,
/// units, numbers written as strings, odd and truncated rows, and recognition on evidence only.
@Suite struct ServerLogVendorTests {
    func rows(
        _ name: String, _ text: String
    ) -> (format: InputFormat?, requests: [ServerRequest], diagnostics: [Diagnostic]) {
        let o = ingest(name, text)
        let requests = (o.result?.records ?? []).compactMap(\.serverRequest)
        return (o.format, requests, (o.result?.diagnostics ?? []) + o.diagnostics)
    }

    static let t0 = 1_795_255_200.0  // 2026-11-21T10:00:00Z

    // MARK: CloudFront standard

    static let cloudFrontHeader =
        "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end\n"

    static func cloudFrontRow(result: String, responseResult: String, status: String = "404") -> String {
        [
            "2026-11-21", "10:00:10", "FRA56-P3", "1000", "198.51.100.23", "GET", "d1.cloudfront.net", "/a/s2.ts",
            status, "-", "AppleCoreMedia/1.0.0.22B83", "-", "-", result, "N1==", "video.example.com", "https", "300",
            "0.020", "-", "TLSv1.3", "TLS_AES_128_GCM_SHA256", responseResult, "HTTP/2.0", "-", "-", "50000",
            "0.010", result, "video/mp4", "1000", "-", "-",
        ].joined(separator: "\t")
    }

    /// Probe M: `x-edge-result-type` Error after an `x-edge-response-result-type` Hit or Miss
    /// is the client going away (AWS's field list), not a CDN fault. Near miss: Error both ways.
    @Test func cloudFrontsErrorAfterAHitIsTheClientLeaving() throws {
        for (response, aborted) in [("Hit", true), ("Miss", true), ("Error", false)] {
            let r = rows(
                "E1.2026-11-21-10.a.log",
                Self.cloudFrontHeader + Self.cloudFrontRow(result: "Error", responseResult: response) + "\n")
            let row = try #require(r.requests.first)
            #expect(row.clientAborted == aborted, "\(response)")
            #expect(row.cacheResultRaw == response)
        }
    }

    /// Probe M: values present but unreadable (a status of 99999, an end before the start, a
    /// time of 1e300) are said, at their line; the row is kept without them. Near miss: a
    /// readable row says nothing.
    @Test func unreadableServerValuesAreSaid() throws {
        let start = Int64((Self.t0 + 10) * 1e9)
        let good =
            "{\"EdgeStartTimestamp\":\(start),\"EdgeEndTimestamp\":\(start + 20_000_000),\"RayID\":\"8e1f2a3b4c5d6e7f\",\"EdgeColoCode\":\"FRA\",\"ClientRequestURI\":\"/a/s2.ts\",\"EdgeResponseStatus\":404}"
        let r = rows(
            "cloudflare.log",
            [
                good,
                good.replacingOccurrences(of: "\"EdgeResponseStatus\":404", with: "\"EdgeResponseStatus\":99999"),
                good.replacingOccurrences(of: "\(start + 20_000_000)", with: "\(start - 3_600_000_000_000)"),
                good.replacingOccurrences(of: "\(start + 20_000_000)", with: "1e300"),
            ].joined(separator: "\n") + "\n")
        #expect(r.requests.count == 4)
        let said = r.diagnostics.filter { $0.message.hasPrefix("server row with values that do not read") }
        #expect(said.map(\.location.line) == [2, 3, 4], "\(r.diagnostics)")
        #expect(said.first?.message.contains("status '99999'") == true)
        #expect(said.dropFirst().first?.message.contains("before its start") == true)
        #expect(said.last?.message.contains("end time '1e") == true, "\(said)")
        #expect(r.requests[2].end == r.requests[2].start)
    }

    @Test func cloudFrontsDocumentedExampleReadsAsResponsesEnded() throws {
        let text = try String(
            contentsOf: TestPaths.corpus.appendingPathComponent(
                "real-world/cdn/cloudfront-awsdocs-standard-example.log"),
            encoding: .utf8)
        let r = rows("E2.2019-12-04-21.abc.log", text)
        #expect(r.format == InputFormat("cloudfront-standard"))
        #expect(r.requests.count == 6)
        #expect(r.diagnostics.filter { $0.severity >= .warning }.isEmpty, "a trailing tab loses nothing")
        let first = try #require(r.requests.first)
        // `date time` is when the response ended; the start is that minus `time-taken`.
        #expect(first.end == TimestampParser.parse("2019-12-04 21:02:31"))
        #expect(abs((first.end ?? Timestamp(0)) - (first.start ?? Timestamp(0)) - 0.001) < 1e-6)
        #expect(first.userAgent?.hasPrefix("Mozilla/5.0 (Windows NT 10.0") == true, "URL-decoded")
        #expect(first.cacheResult == .hit)
        #expect(first.pop == "LAX1")
        let errors = r.requests.filter { $0.status == 502 }
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { $0.detail == "OriginDnsError" && $0.cacheResult == .error })
    }

    static let cfHead =
        "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken\n"

    @Test func cloudFrontsOddRows() {
        let text =
            Self.cfHead
            // Not in time order; a `000`; a truncated row (9 fields); a row with no time.
            + "2026-11-21\t10:00:09\tFRA56\t0\t192.0.2.1\tGET\td1.cf.net\t/a/s2.ts\t000\t-\tUA\t-\t-\tError\tID2\tv.example\thttps\t300\t1.2\n"
            + "2026-11-21\t10:00:04\tFRA56\t9\t192.0.2.1\tGET\td1.cf.net\t/a/s1.ts\t200\t-\tUA\t-\t-\tHit\tID1\tv.example\thttps\t300\t0.4\n"
            + "2026-11-21\t10:00:12\tFRA56\t9\t192.0.2.1\tGET\td1.cf.net\t/a/s3.ts\t200\n"
            + "-\t-\tFRA56\t9\t192.0.2.1\tGET\td1.cf.net\t/a/s4.ts\t200\t-\tUA\t-\t-\tHit\tID4\tv.example\thttps\t300\t0.4\n"
        let r = rows("cf.log", text)
        #expect(r.requests.map(\.path) == ["/a/s2.ts", "/a/s1.ts", "/a/s3.ts"])
        #expect(r.requests[0].status == nil && r.requests[0].clientAborted)
        #expect(r.requests[1].host == "v.example", "the viewer's host (x-host-header) before the distribution's")
        #expect(r.requests[2].requestID == nil && r.requests[2].anchorKnown == false, "truncated: no duration")
        #expect(r.diagnostics.contains { $0.message.contains("9 of the 19 fields") && $0.location.line == 5 })
        #expect(r.diagnostics.contains { $0.message.contains("without a readable time") && $0.location.line == 6 })
    }

    /// Near misses: `#Fields:` alone is not CloudFront, nor is AVPlayer's access log.
    @Test func aFieldsLineIsNotEvidenceEnough() {
        #expect(
            rows("w3c.log", "#Version: 1.0\n#Fields: date time cs-uri-stem sc-status\n2026-11-21 10:00:00 /a 200\n")
                .format != InputFormat("cloudfront-standard"))
        let access =
            "#Version: 1.0\n#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)\n#Date: 2026/11/21 10:00:00.000\n#Fields: date time uri cs-guid s-ip c-observed-bitrate sc-indicated-bitrate c-stalls\n2026/11/21 10:00:02.002 https://cdn.example.com/a/v20/index.m3u8 6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10 203.0.113.7 25000000.000 20000000 0\n"
        #expect(rows("access.log", access).format == .accessLog)
    }

    // MARK: Cloudflare

    @Test func cloudflareTimesInEveryFormatAreOneInstant() throws {
        let nanos =
            #"{"EdgeStartTimestamp":1795255204120000000,"EdgeEndTimestamp":1795255204530000000,"RayID":"a1","ClientRequestURI":"/a/s1.ts?CMCD=sid%3D%22S%22","EdgeResponseStatus":200}"#
        let unixString =
            #"{"EdgeStartTimestamp":"1795255204.12","EdgeEndTimestamp":"1795255204.53","RayID":"a2","ClientRequestPath":"/a/s1.ts","EdgeResponseStatus":"200"}"#
        let rfc =
            #"{"EdgeStartTimestamp":"2026-11-21T12:00:04.12+02:00","EdgeEndTimestamp":"2026-11-21T10:00:04.53Z","RayID":"a3","ClientRequestPath":"/a/s1.ts","EdgeResponseStatus":200}"#
        let r = rows("logpush.json", [nanos, unixString, rfc].joined(separator: "\n") + "\n")
        #expect(r.format == InputFormat("cloudflare-logpush"))
        #expect(r.requests.count == 3)
        for q in r.requests {
            #expect(abs((q.start?.secondsSince1970 ?? 0) - (Self.t0 + 4.12)) < 0.001)
            #expect(abs((q.end?.secondsSince1970 ?? 0) - (Self.t0 + 4.53)) < 0.001)
            #expect(q.status == 200)
            #expect(q.path == "/a/s1.ts")
            #expect(!q.rangeLogged, "Cloudflare cannot log Range")
        }
        #expect(r.requests[0].query == "CMCD=sid%3D%22S%22")
        #expect(r.requests[0].cmcd["sid"] == "S")
        #expect(r.requests[0].sessionHeader == "S", "the CMCD sid names the session")
    }

    /// Near miss: a JSON line with a `RayID` but no edge time is not a Logpush row (nor is a metric event).
    @Test func aRayIDAloneIsNotCloudflare() {
        #expect(rows("x.json", #"{"RayID":"a1","path":"/a"}"# + "\n").format != InputFormat("cloudflare-logpush"))
        let event =
            #"{"type":"AVMetricPlayerItemRateChangeEvent","date":"2026-11-21T10:00:00Z","sessionID":"S","rate":1,"previousRate":0}"#
        #expect(rows("m.jsonl", event + "\n").format == .metricEvents)
    }

    // MARK: Akamai

    @Test func akamaiStartsWhenTheEdgeAcceptedAndAddsItsTimes() throws {
        let line =
            #"{"reqTimeSec":"1795255204.120","reqId":"ak1","reqPath":"/a/s1.ts","queryStr":"CMCD=bl%3D3000%2Csid%3D%22Z%22","statusCode":"206","cacheStatus":"0","turnAroundTimeMSec":"30","transferTimeMSec":"400","range":"100-199","cliIP":"198.51.100.4"}"#
        let r = rows("ds2.json", line + "\n")
        #expect(r.format == InputFormat("akamai-datastream"))
        let q = try #require(r.requests.first)
        #expect(abs((q.start?.secondsSince1970 ?? 0) - (Self.t0 + 4.12)) < 0.001)
        #expect(abs((q.end?.secondsSince1970 ?? 0) - (Self.t0 + 4.55)) < 0.001, "turnaround + transfer")
        #expect(q.status == 206)
        #expect(q.cacheResult == .miss)
        #expect(q.byteRange == ByteRange(offset: 100, length: 100))
        #expect(q.cmcd["bl"] == "3000")
        #expect(q.sessionHeader == "Z")
    }

    // MARK: Google Cloud CDN

    @Test func googleCloudCDNCoversBothReadingsOfItsTimestamp() throws {
        let line =
            #"{"insertId":"g1","timestamp":"2026-11-21T10:00:04.120Z","httpRequest":{"requestMethod":"GET","requestUrl":"https://video.example.com/a/s1.ts?t=1","status":200,"responseSize":"1048576","latency":"0.410s","cacheHit":true},"jsonPayload":{"statusDetails":"response_from_cache","cacheId":"fra-1, ams-2"}}"#
        let r = rows("cdn.json", line + "\n")
        #expect(r.format == InputFormat("google-cloud-cdn"))
        let q = try #require(r.requests.first)
        #expect(!q.anchorKnown)
        #expect(abs((q.start?.secondsSince1970 ?? 0) - (Self.t0 + 4.12 - 0.41)) < 0.001)
        #expect(abs((q.end?.secondsSince1970 ?? 0) - (Self.t0 + 4.12 + 0.41)) < 0.001)
        #expect(q.host == "video.example.com" && q.path == "/a/s1.ts" && q.query == "t=1")
        #expect(q.bytes == 1_048_576)
        #expect(q.cacheResult == .hit)
        #expect(q.pop == "ams-2", "the cache nearest the viewer")
    }

    /// Hostile values: absurd numbers read as unknown, never trap.
    @Test func absurdNumbersAreUnknown() throws {
        let line =
            #"{"EdgeStartTimestamp":1e400,"EdgeEndTimestamp":"-5","RayID":"h1","ClientRequestPath":"/a","EdgeResponseStatus":99999,"EdgeResponseBytes":-3,"EdgeTimeToFirstByteMs":"NaN","OriginResponseHeaderReceiveDurationMs":1e300}"#
        let r = rows(
            "h.json",
            #"{"EdgeStartTimestamp":1795255204120000000,"RayID":"h0","ClientRequestPath":"/a"}"# + "\n" + line + "\n")
        #expect(r.requests.count == 1, "the row without a readable time is not read")
        #expect(r.diagnostics.contains { $0.message.contains("without a readable time") })
    }
}

/// nginx's and Apache's combined format.
@Suite struct CombinedAccessLogTests {
    @Test func offsetsAreReadAndTheAnchorIsUnknown() throws {
        let text = """
            198.51.100.7 - - [21/Nov/2026:11:00:04 +0100] "GET /v/s12.ts?token=abc HTTP/1.1" 200 1048576 "-" "AppleCoreMedia/1.0.0"
            203.0.113.9 - bob [21/Nov/2026:05:00:05 -0500] "GET /x HTTP/2.0" 404 - "https://r.example/p?q=1" "UA \\"quoted\\""

            """
        let o = ingest("access.log", text)
        #expect(o.format == InputFormat("combined-access-log"))
        let rows = (o.result?.records ?? []).compactMap(\.serverRequest)
        #expect(rows.count == 2)
        #expect(rows.map { $0.start?.iso8601 } == ["2026-11-21T10:00:04.000Z", "2026-11-21T10:00:05.000Z"])
        #expect(rows.allSatisfy { !$0.anchorKnown })
        #expect(rows[0].path == "/v/s12.ts" && rows[0].bytes == 1_048_576)
        #expect(rows[0].query == "token=REDACTED", "the token redacted like every record's")
        #expect(rows[1].status == 404 && rows[1].bytes == nil)
        #expect(rows[1].userAgent == "UA \"quoted\"")
        #expect(!rows[1].raw.contains("bob"), "the user name leaves the quoted row")
    }

    /// Near misses: a line of another `log_format`, and the common format's shape with a time that
    /// does not read, are not combined-format logs.
    @Test func anotherShapeIsNotRead() {
        #expect(ingest("a.log", "10:00:04 GET /v/s12.ts 200 0.412\n").format != InputFormat("combined-access-log"))
        #expect(
            ingest("b.log", "198.51.100.7 - - [32/Nov/2026:11:00:04 +0100] \"GET / HTTP/1.1\" 200 5\n").format
                != InputFormat("combined-access-log"))
    }

    /// With redaction on, the viewer's address, user and referer leave the quoted row.
    @Test func personalDataLeavesTheQuotedRow() throws {
        let line =
            "198.51.100.77 - alice [21/Nov/2026:11:00:04 +0100] \"GET /v/s1.ts HTTP/1.1\" 200 5 \"https://shop.example/account/alice\" \"UA\"\n"
        let o = ingest("access.log", line)
        let raw = try #require(o.result?.records.first?.serverRequest?.raw)
        #expect(!raw.contains("198.51.100.77") && !raw.contains("alice"))
    }
}
