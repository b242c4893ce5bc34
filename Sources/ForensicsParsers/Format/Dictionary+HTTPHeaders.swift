extension Dictionary where Key == String, Value == String {
    /// A header's value by case-insensitive name. When a capture holds the same header in two
    /// spellings, the first in sorted key order wins, so the result does not depend on hashing.
    ///
    /// Names are compared byte by byte with ASCII case folding, and only a name with a non-ASCII
    /// byte is lower-cased as Unicode (the Kelvin sign lower-cases to `k`): lower-casing every
    /// key of every request's headers into new strings was 7 % of reading a metric dump.
    func headerValue(_ name: String) -> String? {
        var best: String?
        for key in keys where Self.sameHeaderName(key, name) {
            if let current = best, current <= key { continue }
            best = key
        }
        return best.flatMap { self[$0] }
    }

    /// Whether the two names are equal once lower-cased.
    static func sameHeaderName(_ a: String, _ b: String) -> Bool {
        func fold(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        var i = a.utf8.makeIterator()
        var j = b.utf8.makeIterator()
        while true {
            let x = i.next()
            let y = j.next()
            // Lower-casing maps a character on its own, so an ASCII prefix compares byte by byte
            // and only what follows a non-ASCII byte needs Unicode.
            if (x ?? 0) >= 0x80 || (y ?? 0) >= 0x80 { return a.lowercased() == b.lowercased() }
            // One ended with the other still going: the longer keeps its extra characters.
            guard let x, let y else { return x == nil && y == nil }
            if fold(x) != fold(y) { return false }
        }
    }
}
