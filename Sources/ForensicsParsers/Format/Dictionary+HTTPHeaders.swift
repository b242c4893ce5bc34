extension Dictionary where Key == String, Value == String {
    /// A header's value by case-insensitive name. When a capture holds the same header in two
    /// spellings, the first in sorted key order wins, so the result does not depend on hashing.
    func headerValue(_ name: String) -> String? {
        let lower = name.lowercased()
        return keys.filter { $0.lowercased() == lower }.min().flatMap { self[$0] }
    }
}
