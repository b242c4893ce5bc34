import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// Every text a record carries is cleaned, including the small ones a report shows beside the
/// URL (content type, media type, pointer, library): a terminal escape planted in any of them
/// comes out visible, never raw.
@Suite struct CleaningCoverageTests {
    static let escape = "\u{1B}[2J"

    @Test func proxyEventPointerContentTypeAndSessionAreCleaned() throws {
        let log = """
            2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x28\(Self.escape), Receive response
            response : <NSHTTPURLResponse: 0x1> { URL: https://cdn.example.com/a.ts } { Status Code: 200, Headers {
                "Content-Type" =     (
                    "video/mp2t\(Self.escape)"
                );
            } }
            """
        let events = (ingest("proxy.log", log, format: .cacheLog).result?.records ?? []).compactMap(\.proxyEvent)
        let response = try #require(events.first { $0.kind == .downloadResponse })
        #expect(response.pointer.map { !$0.contains("\u{1B}") && $0.contains("\\u{1B}") } == true)
        #expect(response.contentType.map { !$0.contains("\u{1B}") && $0.contains("\\u{1B}") } == true)
    }

    @Test func mediaRequestTypesAreCleaned() throws {
        let event = """
            {"type":"AVMetricHLSMediaSegmentRequestEvent","date":"2026-11-21T10:00:00Z","sessionID":"S","url":"https://cdn.example.com/a.ts","mediaType":"vide\(Self.escape.replacingOccurrences(of: "\u{1B}", with: "\\u001b"))","mediaResourceRequestEvent":{"url":"https://cdn.example.com/a.ts","requestStartTime":"2026-11-21T10:00:00Z","responseEndTime":"2026-11-21T10:00:01Z","networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":200,"headers":{"Content-Type":"video/mp2t\\u001b[2J","Content-Encoding":"gzip\\u001b[2J"}}}]}}}
            """
        let request = try #require(ingest("events.jsonl", event, format: .metricEvents).result?.records.first?.request)
        for text in [request.mediaType, request.contentType, request.contentEncoding] {
            #expect(
                text.map { !$0.contains("\u{1B}") && $0.contains("\\u{1B}") } == true, "\(String(describing: text))")
        }
    }
}
