import ForensicsCore
import ForensicsParsers
import ForensicsTestSupport
import Testing

@testable import ForensicsCorrelation

/// The correlator on its own: records from two sources that saw one request become one timeline
/// entry with both views, and the session's analysis is derived once from the finished timeline.
@Suite struct CorrelatorTests {
    static let dump = """
        {"type":"AVMetricHLSMediaSegmentRequestEvent","date":"2026-11-21T10:00:01.000Z","sessionID":"S1","url":"https://cdn.example.com/a/v1/s1.ts","mediaResourceRequestEvent":{"url":"https://cdn.example.com/a/v1/s1.ts","requestStartTime":"2026-11-21T10:00:00.800Z","responseEndTime":"2026-11-21T10:00:01.000Z","networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":404,"headers":{}}}]}}}
        {"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:00:03.000Z","sessionID":"S1","rate":0,"previousRate":1}
        """
    static let har = """
        {"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[
        {"startedDateTime":"2026-11-21T10:00:00.800Z","time":200,"request":{"method":"GET","url":"https://cdn.example.com/a/v1/s1.ts","headers":[{"name":"X-Playback-Session-Id","value":"S1"}]},"response":{"status":404,"headers":[],"content":{"size":0,"mimeType":"text/html"}},"timings":{"wait":150,"receive":50}}
        ]}}
        """

    func source(_ name: String, _ text: String) throws -> SourceFile {
        let result = try #require(ingest(name, text).result)
        return SourceFile(
            path: name, format: result.format, semantics: FormatRegistry.standard.semantics(of: result.format),
            records: result.records, clock: result.clock)
    }

    @Test func oneRequestSeenByTwoSourcesIsOneEntryWithBothViews() throws {
        let correlation = Correlator().correlate([
            try source("events.jsonl", Self.dump), try source("capture.har", Self.har),
        ])
        let session = try #require(correlation.sessions.first)
        #expect(correlation.sessions.count == 1)
        let requests = session.entries.filter { $0.record.request != nil }
        #expect(requests.count == 1)
        #expect(requests.first?.otherViews.count == 1)
        #expect(Set(session.sources) == [.metricEvents, .har])
    }

    @Test func theAnalysisIsDerivedFromTheFinishedTimeline() throws {
        let session = try #require(Correlator().correlate([try source("events.jsonl", Self.dump)]).sessions.first)
        #expect(
            session.analysis.stalls.map(\.index)
                == session.entries.indices.filter { session.entries[$0].record.playerEvent?.kind == .stall })
        #expect(session.analysis.failures.count == 1)
        #expect(session.kpis.stallCount == 1)
    }
}

/// Access-log rows that do not tell a value leave its KPI unknown, not 0.
@Suite struct UnknownAccessLogValuesTests {
    @Test func rowsWithoutStallsOrBitratesLeaveThoseKPIsUnknown() throws {
        let log = """
            #Version: 1.0
            #Fields: date time uri cs-guid c-stalls sc-indicated-bitrate c-duration-watched
            2026/11/21 10:00:00.000 https://h/a/v1/index.m3u8 G1 9223372036854775807 -5 10
            2026/11/21 10:00:10.000 https://h/a/v2/index.m3u8 G1 - - 10
            """
        let result = try #require(ingest("access.log", log).result)
        let source = SourceFile(
            path: "access.log", format: result.format, semantics: FormatRegistry.standard.semantics(of: result.format),
            records: result.records, clock: result.clock)
        let session = try #require(Correlator().correlate([source]).sessions.first)
        #expect(session.kpis.stallCount == nil)
        #expect(session.kpis.stallDuration == nil)
        #expect(session.kpis.variantSwitchCount == nil)
        #expect(session.kpis.playingTime == 20)
    }

    @Test func oneRowThatTellsMakesSwitchesKnownButNotAZeroStallCount() throws {
        let log = """
            #Version: 1.0
            #Fields: date time uri cs-guid c-stalls sc-indicated-bitrate c-duration-watched
            2026/11/21 10:00:00.000 https://h/a/v1/index.m3u8 G1 0 5000000 10
            2026/11/21 10:00:10.000 https://h/a/v2/index.m3u8 G1 - - 10
            """
        let result = try #require(ingest("access.log", log).result)
        let source = SourceFile(
            path: "access.log", format: result.format, semantics: FormatRegistry.standard.semantics(of: result.format),
            records: result.records, clock: result.clock)
        let session = try #require(Correlator().correlate([source]).sessions.first)
        #expect(session.kpis.variantSwitchCount == 0)
        // Ten seconds watched with the stalls untold: "0 so far" is no count of 0 (unknown is not
        // zero); a count above 0 would stand as "at least".
        #expect(session.kpis.stallCount == nil)
        let told = log.replacingOccurrences(of: "G1 - - 10", with: "G1 0 - 10")
        let allTold = try #require(ingest("access.log", told).result)
        let source2 = SourceFile(
            path: "access.log", format: allTold.format,
            semantics: FormatRegistry.standard.semantics(of: allTold.format), records: allTold.records,
            clock: allTold.clock)
        #expect(try #require(Correlator().correlate([source2]).sessions.first).kpis.stallCount == 0)
        let oneStall = log.replacingOccurrences(of: "G1 0 5000000 10", with: "G1 2 5000000 10")
        let some = try #require(ingest("access.log", oneStall).result)
        let source3 = SourceFile(
            path: "access.log", format: some.format, semantics: FormatRegistry.standard.semantics(of: some.format),
            records: some.records, clock: some.clock)
        #expect(try #require(Correlator().correlate([source3]).sessions.first).kpis.stallCount == 2)
    }
}
