import ForensicsCore

/// HTTP Archive 1.2 captures from proxies and browsers (`.har`, `.har.gz`): JSON with a `log`
/// holding `entries` or a `creator`.
package enum HARFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .har, displayName: "HTTP Archive (HAR 1.2)",
        semantics: SourceSemantics(
            role: .capture, clock: .captureUTC, anchor: .requestStart, resolution: 0.001, clockPrecedence: 1,
            viewPrecedence: 1,
            capabilities: [.failures, .requestTimings, .requestHeaders, .responseHeaders, .playlists]),
        summary: "HTTP Archive 1.2 (.har, .har.gz) from proxies and browsers; playlist bodies are parsed too.",
        samples: [
            FormatDeclaration.Sample(
                text: #"""
                    {"log":{"version":"1.2","creator":{"name":"sample","version":"1"},"entries":[
                    {"startedDateTime":"2026-11-21T10:00:00.000Z","time":120,"request":{"method":"GET","url":"https://cdn.example.com/a/v1/s1.ts","headers":[{"name":"X-Playback-Session-Id","value":"S1"}]},"response":{"status":404,"headers":[],"content":{"size":0,"mimeType":"text/html"}},"timings":{"wait":100,"receive":20}}
                    ]}}
                    """#,
                expectedSummaries: ["segment request https://cdn.example.com/a/v1/s1.ts → 404 in 0.12 s"])
        ],
        // Asked before metric events: a capture may mention `"events"`.
        sniffPriority: -1)

    package static func sniff(_ text: SniffText) -> Bool {
        text.looksLikeJSON && text.contains("\"log\"") && (text.contains("\"entries\"") || text.contains("\"creator\""))
    }

    /// A HAR is one JSON document, read whole: a source error is a diagnostic on the capture.
    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        do {
            var parser = HARParser(
                file: context.path, maxDocumentSize: context.limits.maxDecompressedSize,
                maxBodySize: context.limits.maxHARBodySize)
            parser.maxBodiesSize = context.limits.maxHARBodiesSize
            parser.maxRecords = context.maxRecords
            return try parser.parse(&source)
        } catch {
            var result = ParseResult(file: context.path, format: declaration.format)
            result.diagnostics.append(Diagnostic(SourceLocation(file: context.path, line: 0), .error, "\(error)"))
            return result
        }
    }
}
