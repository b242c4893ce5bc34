import Foundation

/// Substring search on UTF-8 bytes. Foundation's `range(of:)` goes through CFString and UTF-16
/// and was most of the cache-log parser's time in a profile; log templates are ASCII, so a byte
/// search finds the same ranges. Neither side is copied: native strings and substrings expose
/// their UTF-8 in place (the first version copied both into arrays on every call).
extension StringProtocol {
    func fastRange(of needle: String) -> Range<Index>? {
        var needle = needle
        let offset: Int? = needle.withUTF8 { pattern in
            guard !pattern.isEmpty else { return nil }
            let search = { (hay: UnsafeBufferPointer<UInt8>) -> Int? in Self.firstOffset(of: pattern, in: hay) }
            if let found = utf8.withContiguousStorageIfAvailable(search) { return found }
            // Bridged or foreign storage: copy once.
            return Array(utf8).withUnsafeBufferPointer(search)
        }
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: needle.utf8.count)
    }

    func fastContains(_ needle: String) -> Bool { fastRange(of: needle) != nil }

    private static func firstOffset(of pattern: UnsafeBufferPointer<UInt8>, in hay: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = hay.count
        let m = pattern.count
        guard m <= n, let hayBase = hay.baseAddress, let patternBase = pattern.baseAddress else { return nil }
        let first = Int32(pattern[0])
        var i = 0
        while i <= n - m {
            // memchr finds candidate starts with vector instructions.
            guard let hit = memchr(hayBase + i, first, n - m - i + 1) else { return nil }
            let at = hayBase.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(hayBase + at, patternBase, m) == 0 { return at }
            i = at + 1
        }
        return nil
    }
}
