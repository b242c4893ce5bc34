import ForensicsCore

/// `AVPlayerItemAccessLog.extendedLogData`: a W3C extended log that is AVPlayer's (its
/// `#Software: AppleCoreMedia…` directive or AVPlayer's own field set, see
/// `AVPlayerExtendedLogParser.isAVPlayerLog`) whose `#Fields` line has none of the error log's columns —
/// or, with no `#Fields` line (a log with no event), an AppleCoreMedia header.
package enum AVPlayerAccessLogFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .accessLog, displayName: "AVPlayer access log (W3C extended)",
        semantics: SourceSemantics(
            role: .player, clock: .deviceLocal, anchor: .periodStart, resolution: 1, clockPrecedence: 3,
            viewPrecedence: 3, capabilities: [.stallCounts, .variantPeriods]),
        summary: "AVPlayerItemAccessLog extendedLogData (W3C extended log format, #Fields driven).",
        samples: [
            FormatDeclaration.Sample(
                text: """
                    #Version: 1.0
                    #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
                    #Date: 2026/11/21 10:00:00.000
                    #Fields: date time uri cs-guid s-ip c-observed-bitrate sc-indicated-bitrate c-stalls c-duration-watched c-startup-time
                    2026/11/21 10:00:02.002 https://cdn.example.com/a/v20/index.m3u8 6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10 203.0.113.7 25000000.000 20000000 0 120.500 1.920
                    """,
                expectedSummaries: ["access log: https://cdn.example.com/a/v20/index.m3u8 observed 25 Mbit/s"])
        ])

    package static func sniff(_ text: SniffText) -> Bool {
        switch text.headerDirective {
        case .fields(let line):
            !AVPlayerExtendedLogParser.namesErrorLogFields(line)
                && AVPlayerExtendedLogParser.isAVPlayerLog(software: text.w3cSoftware, fields: line)
        case .playlistTag: false
        case nil: AVPlayerExtendedLogParser.isAVPlayerLog(software: text.w3cSoftware, fields: nil)
        }
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try AVPlayerExtendedLogParser.read(&source, format: declaration.format, context: context)
    }
}
