/// Substring search on UTF-8 bytes. Foundation's `range(of:)` goes through CFString and UTF-16
/// and was most of the cache-log parser's time in a profile; log templates are ASCII, so a byte
/// search finds the same ranges.
extension StringProtocol {
    func fastRange(of needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return nil }
        let search = { (hay: UnsafeBufferPointer<UInt8>) -> Int? in
            let n = hay.count
            let m = pattern.count
            guard m <= n, let first = pattern.first else { return nil }
            var i = 0
            while i <= n - m {
                if hay[i] == first {
                    var k = 1
                    while k < m, hay[i + k] == pattern[k] { k += 1 }
                    if k == m { return i }
                }
                i += 1
            }
            return nil
        }
        // Substrings of native strings may not expose contiguous storage: copy once if so.
        let offset = utf8.withContiguousStorageIfAvailable(search) ?? Array(utf8).withUnsafeBufferPointer(search)
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: pattern.count)
    }

    func fastContains(_ needle: String) -> Bool { fastRange(of: needle) != nil }
}
