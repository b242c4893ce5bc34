extension StringProtocol {
    /// The text without the given characters at either end (no Foundation `CharacterSet` needed).
    /// ASCII sets, the only ones used on hot paths, are trimmed on UTF-8 bytes.
    public func trimmingCharacters(in set: String) -> String {
        let ascii = set.utf8.allSatisfy { $0 < 0x80 }
        guard ascii else {
            var s = Substring(self)
            while let f = s.first, set.contains(f) { s.removeFirst() }
            while let l = s.last, set.contains(l) { s.removeLast() }
            return String(s)
        }
        let bytes = Array(set.utf8)
        let text = Array(utf8)
        var lower = 0
        var upper = text.count
        while lower < upper, bytes.contains(text[lower]) { lower += 1 }
        while upper > lower, bytes.contains(text[upper - 1]) { upper -= 1 }
        return String(decoding: text[lower..<upper], as: UTF8.self)
    }
}
