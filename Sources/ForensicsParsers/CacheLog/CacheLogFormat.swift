import ForensicsCore

/// KTVHTTPCache logs of every release, record-log file or console (`shared/spec/ktvhttpcache-log.md`):
/// recognised by a line of the library's own shape in the first bytes of a text that is not JSON —
/// a `KTVHC…` module tag (or an object's `<KTVHC…: 0x…>` description) in log-line position,
/// followed by the entry's `:` separator. A `KTVHC` word anywhere else (a README's table, an
/// issue's prose, a URL in a playlist) is not a log line.
package enum CacheLogFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .cacheLog, displayName: "KTVHTTPCache full-path log",
        semantics: SourceSemantics(
            role: .proxy, clock: .deviceUTC, anchor: .requestStart, resolution: 0.001, clockPrecedence: 2,
            viewPrecedence: 2, capabilities: [.failures, .requestTimings, .cacheResult]),
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
        !text.looksLikeJSON && (text.contains("KTVHC") || text.contains("KTVHTTPCache")) && text.anyLine(isEntryLine)
    }

    /// `[prefix]TAG  :   message` or `[prefix]<TAG: 0x…>  :   message`, where the prefix is empty,
    /// the record-log file's date (`2026-11-21 10:00:00 +0000  `) or NSLog's
    /// (`2026-11-21 18:00:00.123456+0800 App[1:2] `): it starts with a digit and holds none of the
    /// characters prose and tables put before a word (`|`, `` ` ``, `*`, `#`, letters before the digit).
    static func isEntryLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if isErrorDumpLine(line) { return true }
        guard let at = line.firstOffset(of: tag) else { return false }
        var start = at
        if start > 0, line[start - 1] == UInt8(ascii: "<") { start -= 1 }
        // The prefix: nothing but white space, or a time stamp (a digit first).
        let prefix = line[..<start]
        if let first = prefix.first(where: { $0 != 0x20 && $0 != 0x09 }) {
            guard first >= 0x30, first <= 0x39 else { return false }
            for c in prefix where c == UInt8(ascii: "|") || c == UInt8(ascii: "`") || c == UInt8(ascii: "*") {
                return false
            }
        }
        // The tag: letters and digits, then `: 0x…>` for an object's description.
        var i = at + tag.count
        while i < line.count, isTagByte(line[i]) { i += 1 }
        guard i > at + tag.count else { return false }
        if line[start] == UInt8(ascii: "<") {
            while i < line.count, line[i] != UInt8(ascii: ">") {
                guard i - at < 128 else { return false }
                i += 1
            }
            guard i < line.count else { return false }
            i += 1
        }
        // Padding, then the entry's `:` separator.
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        return i < line.count && line[i] == UInt8(ascii: ":")
    }

    /// The library's own NSError at a line's start (`Error Domain=KTVHTTPCache error Code=…`),
    /// bare or after the `Error : ` of its log template: a dump users paste from a failed request.
    static func isErrorDumpLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        var rest = UnsafeBufferPointer(rebasing: line[i...])
        if rest.hasPrefix("Error : ") { rest = UnsafeBufferPointer(rebasing: rest[8...]) }
        return rest.hasPrefix("Error Domain=KTVHTTPCache")
    }

    static let tagText: StaticString = "KTVHC"
    static var tag: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: tagText.utf8Start, count: tagText.utf8CodeUnitCount)
    }

    static func isTagByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try context.readLines(&source) { lines in
            var parser = CacheLogParser(file: context.path)
            parser.maxRecords = context.maxRecords
            return try parser.parse(lines: &lines)
        }
    }
}
