import ForensicsCore

/// KTVHTTPCache logs of every release, record-log file or console (`shared/spec/ktvhttpcache-log.md`):
/// recognised by the library's `KTVHC` class prefix anywhere in the first bytes of a text that is
/// not JSON.
package enum CacheLogFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .cacheLog, displayName: "KTVHTTPCache full-path log",
        summary:
            "KTVHTTPCache full-path log, record-log file or console (1.x–3.x); see shared/spec/ktvhttpcache-log.md.",
        samples: [
            FormatDeclaration.Sample(
                text: """
                    2025-07-01 08:15:02 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                    2025-07-01 08:15:02 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                    URL : https://media.example.com/vod/clip-042.mp4
                    2018-12-13 12:58:33.143627+0800 iSmartLBS[37685:1519576] <KTVHCDataSourceManager: 0x283465d60>  :   alloc
                    """,
                expectedSummaries: [
                    "proxy KTVHCHTTPServer: Start server success", "proxy KTVHCHTTPConnection: Accept request",
                    "proxy KTVHCDataSourceManager: alloc",
                ])
        ],
        // Asked last: `KTVHC` may appear in any text (a URL in a playlist).
        sniffPriority: 1)

    package static func sniff(_ text: SniffText) -> Bool {
        !text.looksLikeJSON && text.contains("KTVHC")
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try context.readLines(&source) { lines in
            var parser = CacheLogParser(file: context.path)
            parser.maxRecords = context.maxRecords
            return try parser.parse(lines: &lines)
        }
    }
}
