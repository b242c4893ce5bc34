import ForensicsCore

/// `AVPlayerItemErrorLog.extendedLogData`: a W3C extended log that is AVPlayer's (see
/// `AVPlayerExtendedLogParser.isAVPlayerLog`) whose `#Fields` line names `status`, `domain` or `comment`.
package enum AVPlayerErrorLogFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .errorLog, displayName: "AVPlayer error log (W3C extended)",
        semantics: SourceSemantics(
            role: .player, clock: .deviceLocal, anchor: .event, resolution: 1, clockPrecedence: 4, viewPrecedence: 4,
            capabilities: [.failures]),
        summary: "AVPlayerItemErrorLog extendedLogData (W3C extended log format; quoted domain and comment).",
        samples: [
            FormatDeclaration.Sample(
                text: """
                    #Version: 1.0
                    #Fields: date time uri cs-guid s-ip status domain comment cs-iftype
                    2026/04/15 15:13:30.030 https://host/path/seg42.m4s 2D5C8F04-9F34-40F2-AA06-758CE4EC3643 203.0.113.7 -12938 "CoreMediaErrorDomain" "HTTP 404: File Not Found" -
                    """,
                expectedSummaries: [
                    "error log: CoreMediaErrorDomain -12938: HTTP 404: File Not Found https://host/path/seg42.m4s"
                ])
        ])

    package static func sniff(_ text: SniffText) -> Bool {
        if case .fields(let line) = text.headerDirective {
            return AVPlayerExtendedLogParser.namesErrorLogFields(line)
                && AVPlayerExtendedLogParser.isAVPlayerLog(software: text.w3cSoftware, fields: line)
        }
        return false
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try AVPlayerExtendedLogParser.read(&source, format: declaration.format, context: context)
    }
}
