import Foundation

/// Substring search of a `String` on its UTF-8 bytes (`ByteScan.firstOffset`). Foundation's `range(of:)` goes through CFString and UTF-16
/// and was most of the cache-log parser's time in a profile; log templates are ASCII, so a byte
/// search finds the same ranges. Neither side is copied: native strings and substrings expose
/// their UTF-8 in place (the first version copied both into arrays on every call).
extension StringProtocol {
    func fastRange(of needle: String) -> Range<Index>? {
        var needle = needle
        let offset: Int? = needle.withUTF8 { pattern in
            guard !pattern.isEmpty else { return nil }
            let search = { (hay: UnsafeBufferPointer<UInt8>) -> Int? in hay.firstOffset(of: pattern) }
            if let found = utf8.withContiguousStorageIfAvailable(search) { return found }
            // Bridged or foreign storage: copy once.
            return Array(utf8).withUnsafeBufferPointer(search)
        }
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: needle.utf8.count)
    }

    func fastContains(_ needle: String) -> Bool { fastRange(of: needle) != nil }
}
