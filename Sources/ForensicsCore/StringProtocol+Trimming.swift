extension StringProtocol {
    /// The text without the given characters at either end (no Foundation `CharacterSet` needed).
    /// ASCII sets, the only ones used on hot paths, are trimmed on the UTF-8 bytes in place.
    /// Inlinable so that callers in other modules get it specialised for `String`/`Substring`
    /// (unspecialised, the generic index walk cost more than the parsing around it).
    @inlinable
    package func trimmingCharacters(in set: String) -> String {
        guard set.utf8.allSatisfy({ $0 < 0x80 }) else {
            var s = Substring(self)
            while let f = s.first, set.contains(f) { s.removeFirst() }
            while let l = s.last, set.contains(l) { s.removeLast() }
            return String(s)
        }
        let trim = { (bytes: UnsafeBufferPointer<UInt8>) -> String in
            var lower = 0
            var upper = bytes.count
            while lower < upper, set.utf8.contains(bytes[lower]) { lower += 1 }
            while upper > lower, set.utf8.contains(bytes[upper - 1]) { upper -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
        }
        return utf8.withContiguousStorageIfAvailable(trim) ?? Array(utf8).withUnsafeBufferPointer(trim)
    }
}
