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
        var i = a.utf8.makeIterator()
        var j = b.utf8.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil):
                return true
            case (let x?, let y?) where x < 0x80 && y < 0x80:
                let fx = x >= 0x41 && x <= 0x5A ? x | 0x20 : x
                let fy = y >= 0x41 && y <= 0x5A ? y | 0x20 : y
                if fx != fy { return false }
            case (let x, let y) where (x ?? 0) >= 0x80 || (y ?? 0) >= 0x80:
                return a.lowercased() == b.lowercased()
            default:
                // One name ended while the other goes on with ASCII: no lower-casing can make
                // them equal unless the rest holds non-ASCII (checked above when reached).
                return a.utf8.contains { $0 >= 0x80 } || b.utf8.contains { $0 >= 0x80 }
                    ? a.lowercased() == b.lowercased() : false
            }
        }
    }
}
