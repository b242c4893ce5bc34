/// The first bytes of a file as format readers' `sniff` sees them: after a UTF-8 BOM and leading
/// white space, never decoded into a `String`.
///
/// Works on bytes: every marker a format looks for is ASCII. (Sniffing once decoded the 64 KiB
/// prefix into a `String` and searched it Character by Character, a fifth of triage's time; and
/// since `"\r\n"` is one Character, a CRLF file was never split into lines, so a CRLF error log
/// whose `#Fields:` line was not first was taken for an access log.)
package struct SniffText: Sendable {
    /// How many leading bytes of a file are sniffed.
    package static let length = 64 * 1024
    /// How many non-empty lines of a `#`-headed text `firstHeaderLine` examines.
    package static let headerLines = 65

    /// The first decisive `#` line of a text that starts with `#`: playlists (`#EXT…` tags) and
    /// W3C logs (`#Fields:`) both start with `#` lines, and whichever comes first decides. Found
    /// once, when the text is made, for every reader that asks.
    package enum HeaderDirective: Sendable {
        /// `#EXTM3U`, `#EXTINF` or `#EXT-X-…`.
        case playlistTag
        /// A W3C `#Fields:` line, whole.
        case fields([UInt8])
    }

    /// Nil when the text does not start with `#`, or none of its first `headerLines` non-empty
    /// lines (LF or CRLF) is decisive.
    package let headerDirective: HeaderDirective?

    private let bytes: [UInt8]
    private let start: Int

    /// Nil when the prefix holds nothing but a BOM and white space.
    package init?(_ prefix: [UInt8]) {
        var start = 0
        if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { start = 3 }
        while start < prefix.count, [0x20, 0x0A, 0x0D, 0x09].contains(prefix[start]) { start += 1 }
        guard start < prefix.count else { return nil }
        self.bytes = prefix
        self.start = start
        self.headerDirective =
            prefix[start] == UInt8(ascii: "#")
            ? prefix.withUnsafeBufferPointer { Self.headerDirective(UnsafeBufferPointer(rebasing: $0[start...])) } : nil
    }

    /// The first byte that is not white space.
    package var first: UInt8 { bytes[start] }

    /// The first non-empty lines as text (invalid UTF-8 repaired), for readers whose evidence is
    /// a line's shape rather than a word (the device console's styles).
    package func lines(_ count: Int) -> [Substring] {
        let text = withText { String(decoding: $0, as: UTF8.self) }
        return Array(
            text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
                .lazy.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }.prefix(count))
    }

    /// Whether the text begins with a JSON object or array.
    package var looksLikeJSON: Bool { first == UInt8(ascii: "{") || first == UInt8(ascii: "[") }

    package func hasPrefix(_ prefix: StaticString) -> Bool { withText { $0.hasPrefix(prefix) } }

    /// Whether one of the text's lines (LF or CRLF, the last one possibly cut by the prefix's end)
    /// satisfies `test`.
    package func anyLine(_ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        withText { text in
            var lineStart = 0
            while lineStart < text.count {
                var end = lineStart
                while end < text.count, text[end] != 0x0A { end += 1 }
                var lineEnd = end
                if lineEnd > lineStart, text[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if test(UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd])) { return true }
                lineStart = end + 1
            }
            return false
        }
    }

    /// The W3C `#Software:` directive among the header lines (before the first row), whole.
    package var w3cSoftware: [UInt8]? {
        withText { text in
            var lineStart = 0
            while lineStart < text.count, text[lineStart] == UInt8(ascii: "#") {
                var end = lineStart
                while end < text.count, text[end] != 0x0A { end += 1 }
                let line = UnsafeBufferPointer(rebasing: text[lineStart..<end])
                if line.hasPrefix("#Software:") { return Array(line) }
                lineStart = end + 1
                while lineStart < text.count, text[lineStart] == 0x0A || text[lineStart] == 0x0D { lineStart += 1 }
            }
            return nil
        }
    }

    package func contains(_ needle: StaticString) -> Bool { withText { $0.contains(needle) } }

    /// The first line (without its CR), possibly cut by the prefix's end.
    package var firstLine: [UInt8] {
        withText { text in
            var end = 0
            while end < text.count, text[end] != 0x0A { end += 1 }
            if end > 0, text[end - 1] == 0x0D { end -= 1 }
            return Array(text[0..<end])
        }
    }

    /// Whether a line is a W3C directive, `#Name:` (`#Version:`, `#Software:`, `#Date:`,
    /// `#Remark:`…): a letter right after the `#`, then letters, digits or `-`, then a colon.
    static func isW3CDirective(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        func letter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        guard line.count > 2, line[0] == UInt8(ascii: "#"), letter(line[1]) else { return false }
        var i = 2
        while i < line.count, letter(line[i]) || (line[i] >= 0x30 && line[i] <= 0x39) || line[i] == 0x2D {
            i += 1
        }
        return i < line.count && line[i] == UInt8(ascii: ":")
    }

    /// A `#Fields:` line counts only in a W3C header: every line before it a directive. A
    /// Markdown page that quotes one (a `# Ticket` heading, a code fence, prose) is no log
    /// (probe M: a README quoting CloudFront's header and a row was read as a CDN log).
    private static func headerDirective(_ text: UnsafeBufferPointer<UInt8>) -> HeaderDirective? {
        var lineStart = 0
        var seen = 0
        var onlyDirectives = true
        while lineStart < text.count, seen < headerLines {
            var end = lineStart
            while end < text.count, text[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > lineStart, text[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd])
            lineStart = end + 1
            guard !line.isEmpty else { continue }
            seen += 1
            if line.hasPrefix("#EXTM3U") || line.hasPrefix("#EXTINF") || line.hasPrefix("#EXT-X-") {
                return .playlistTag
            }
            if line.hasPrefix("#Fields:") { return onlyDirectives ? .fields(Array(line)) : nil }
            if onlyDirectives, !isW3CDirective(line) { onlyDirectives = false }
        }
        return nil
    }

    private func withText<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[start...])) }
    }
}
