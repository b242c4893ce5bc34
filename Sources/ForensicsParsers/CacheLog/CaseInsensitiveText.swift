/// Case-insensitive `hasPrefix` / `contains` of a `String` against lower-case ASCII patterns,
/// without building a lower-cased copy (`ByteScan` does the folding).
///
/// Why: the cache-log classifier tests each message against a few template prefixes, and
/// `lowercased()` on every entry (a new string, Unicode case mapping) was a visible cost.
struct CaseInsensitiveText {
    let text: String

    init(_ text: String) { self.text = text }

    func hasPrefix(_ pattern: StaticString) -> Bool {
        var text = text  // withUTF8 needs a var; a native string is not copied
        return text.withUTF8 { $0.hasPrefixIgnoringCase(pattern) }
    }

    func contains(_ pattern: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { $0.containsIgnoringCase(pattern) }
    }
}
