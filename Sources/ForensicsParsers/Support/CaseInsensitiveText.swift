/// Case-insensitive `hasPrefix` / `contains` against lower-case ASCII patterns, without building
/// a lower-cased copy.
///
/// Why: the cache-log classifier tests each message against a few template prefixes, and
/// `lowercased()` on every entry (a new string, Unicode case mapping) was a visible cost.
/// Templates are ASCII, so folding ASCII letters is all the comparison needs.
struct CaseInsensitiveText {
    let text: String

    init(_ text: String) { self.text = text }

    func hasPrefix(_ pattern: StaticString) -> Bool {
        var text = text  // withUTF8 needs a var; a native string is not copied
        return text.withUTF8 { Self.matches($0, at: 0, pattern) }
    }

    func contains(_ pattern: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let m = pattern.utf8CodeUnitCount
            guard m <= bytes.count else { return false }
            for start in 0...(bytes.count - m) where Self.matches(bytes, at: start, pattern) { return true }
            return false
        }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ pattern: StaticString) -> Bool {
        let m = pattern.utf8CodeUnitCount
        guard start + m <= bytes.count else { return false }
        let p = pattern.utf8Start
        for k in 0..<m {
            var b = bytes[start + k]
            if b >= 0x41, b <= 0x5A { b |= 0x20 }
            if b != p[k] { return false }
        }
        return true
    }
}
