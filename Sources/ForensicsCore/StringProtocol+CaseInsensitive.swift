extension StringProtocol {
    /// Whether `needle` (ASCII, any case) occurs in the text, comparing ASCII letters without case
    /// on the UTF-8 bytes in place. Why: Foundation's `localizedCaseInsensitiveContains` goes
    /// through ICU for every call and was most of the time of reading a large console capture;
    /// the phrases looked for are ASCII, so a byte comparison finds the same matches.
    package func containsIgnoringASCIICase(_ needle: String) -> Bool {
        let pattern = Array(needle.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard !pattern.isEmpty else { return true }
        let search = { (hay: UnsafeBufferPointer<UInt8>) -> Bool in
            let m = pattern.count
            guard m <= hay.count else { return false }
            let first = pattern[0]
            var start = 0
            let last = hay.count - m
            while start <= last {
                var b = hay[start]
                if b >= 0x41, b <= 0x5A { b |= 0x20 }
                if b == first {
                    var k = 1
                    while k < m {
                        var c = hay[start + k]
                        if c >= 0x41, c <= 0x5A { c |= 0x20 }
                        if c != pattern[k] { break }
                        k += 1
                    }
                    if k == m { return true }
                }
                start += 1
            }
            return false
        }
        if let found = utf8.withContiguousStorageIfAvailable(search) { return found }
        return Array(utf8).withUnsafeBufferPointer(search)
    }
}
