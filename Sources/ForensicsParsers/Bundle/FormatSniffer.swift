import ForensicsCore
import Foundation

/// Recognises an input's format from its first bytes (after decompression), never from its name.
///
/// Works on bytes: every marker it looks for is ASCII. (It used to decode the 64 KiB prefix into
/// a `String` and search it Character by Character, a fifth of triage's time; and since `"\r\n"`
/// is one Character, a CRLF file was never split into lines, so a CRLF error log whose `#Fields:`
/// line was not first was taken for an access log.)
public enum FormatSniffer {
    /// How many leading bytes the sniffer looks at.
    public static let sniffLength = 64 * 1024
    /// How many non-empty lines of a `#`-headed text are examined.
    static let headerLines = 65

    public static func sniff(_ prefix: [UInt8]) -> InputFormat? {
        prefix.withUnsafeBufferPointer { sniff(bytes: $0) }
    }

    static func sniff(bytes all: UnsafeBufferPointer<UInt8>) -> InputFormat? {
        var start = 0
        if all.count >= 3, all[0] == 0xEF, all[1] == 0xBB, all[2] == 0xBF { start = 3 }
        let afterBOM = UnsafeBufferPointer(rebasing: all[start...])
        while start < all.count, all[start] == 0x20 || all[start] == 0x0A || all[start] == 0x0D || all[start] == 0x09 {
            start += 1
        }
        guard start < all.count else { return nil }
        let text = UnsafeBufferPointer(rebasing: all[start...])
        switch text[0] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if contains(text, "\"log\""), contains(text, "\"entries\"") || contains(text, "\"creator\"") {
                return .har
            }
            if contains(text, "\"AVMetric") || contains(text, "\"events\"") { return .metricEvents }
            return nil
        case UInt8(ascii: "#"):
            if let format = sniffHeaderLines(text) { return format }
            if hasPrefix(text, "#Version:") || hasPrefix(text, "#Software:") || hasPrefix(text, "#Date:") {
                return .accessLog
            }
        default:
            break
        }
        return contains(afterBOM, "KTVHC") ? .cacheLog : nil
    }

    /// A playlist tag or a W3C `#Fields:` line among the first non-empty lines (LF or CRLF).
    private static func sniffHeaderLines(_ text: UnsafeBufferPointer<UInt8>) -> InputFormat? {
        var lineStart = 0
        var seen = 0
        while lineStart < text.count, seen < headerLines {
            var end = lineStart
            while end < text.count, text[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > lineStart, text[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd])
            lineStart = end + 1
            guard !line.isEmpty else { continue }
            seen += 1
            if hasPrefix(line, "#EXTM3U") || hasPrefix(line, "#EXTINF") || hasPrefix(line, "#EXT-X-") { return .playlist }
            if hasPrefix(line, "#Fields:") {
                let names = line.split(separator: 0x20)
                let isError = names.contains { word in
                    ["status", "comment", "domain"].contains { word.elementsEqual($0.utf8) }
                }
                return isError ? .errorLog : .accessLog
            }
        }
        return nil
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard bytes.count >= n, let base = bytes.baseAddress else { return false }
        return memcmp(base, prefix.utf8Start, n) == 0
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let m = needle.utf8CodeUnitCount
        guard bytes.count >= m, let base = bytes.baseAddress else { return false }
        let first = Int32(needle.utf8Start[0])
        var i = 0
        while i <= bytes.count - m {
            guard let hit = memchr(base + i, first, bytes.count - m - i + 1) else { return false }
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + at, needle.utf8Start, m) == 0 { return true }
            i = at + 1
        }
        return false
    }
}
