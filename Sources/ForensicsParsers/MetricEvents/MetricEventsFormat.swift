import ForensicsCore

/// AVMetrics event dumps (`shared/spec/metric-event-dump.md`): JSON Lines, an array, or
/// `{"events": [...]}`.
package enum MetricEventsFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .metricEvents, displayName: "AVMetrics event dump (JSON)",
        semantics: SourceSemantics(
            role: .player, clock: .deviceUTC, anchor: .requestStart, resolution: 0.001, clockPrecedence: 0,
            viewPrecedence: 0,
            capabilities: [.playerEvents, .failures, .fatalErrors, .requestTimings, .responseHeaders]),
        summary:
            "AVMetrics events serialized as JSON (JSON Lines, an array, or {\"events\": [...]}); see shared/spec/metric-event-dump.md.",
        samples: [
            FormatDeclaration.Sample(
                text: #"""
                    {"type":"AVMetricHLSPlaylistRequestEvent","date":"2026-11-21T10:00:00.120Z","sessionID":"S1","url":"https://cdn.example.com/a/master.m3u8","isMultivariantPlaylist":true,"mediaResourceRequestEvent":{"url":"https://cdn.example.com/a/master.m3u8","requestStartTime":"2026-11-21T10:00:00.020Z","responseEndTime":"2026-11-21T10:00:00.120Z","networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":200,"headers":{}}}]}}}
                    {"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","mediaTime":{"value":451000,"timescale":1000},"sessionID":"S1","rate":0,"previousRate":1}
                    """#,
                expectedSummaries: [
                    "multivariant-playlist request https://cdn.example.com/a/master.m3u8 → 200 in 0.1 s",
                    "stall rate 0 at media time 451 s",
                ])
        ])

    package static func sniff(_ text: SniffText) -> Bool {
        text.looksLikeJSON
            && (text.contains("\"AVMetric") || text.contains("\"AVFoundation.AVMetric") || text.contains("\"events\""))
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try context.readLines(&source) { lines in
            var parser = MetricEventParser(file: context.path)
            parser.maxRecords = context.maxRecords
            return try parser.parse(lines: &lines)
        }
    }
}
