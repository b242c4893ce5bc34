#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A text with its ASCII letters lowered once, for testing many phrases against it: each test is
/// then a byte search. Why: Foundation's `localizedCaseInsensitiveContains` goes through
/// ICU for every call and was most of the time of reading a large console capture; the phrases
/// looked for are ASCII, so comparing lowered bytes finds the same matches.
package struct ASCIILowered: Sendable {
    package let bytes: [UInt8]

    package init(_ text: String) {
        var text = text
        bytes = text.withUTF8(ASCIILowered.lowered)
    }

    package init(_ text: Substring) {
        bytes =
            text.utf8.withContiguousStorageIfAvailable(ASCIILowered.lowered) ?? ASCIILowered.lowered(Array(text.utf8))
    }

    /// The bytes lowered into a new array in one pass (no per-byte append).
    static func lowered(_ source: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: source.count) { out, count in
            for i in 0..<source.count { out[i] = lower(source[i]) }
            count = source.count
        }
    }

    static func lowered(_ source: [UInt8]) -> [UInt8] { source.withUnsafeBufferPointer(lowered) }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// A phrase as it is searched for: lowered once, where it is declared.
    package static func pattern(_ phrase: String) -> [UInt8] { phrase.utf8.map(lower) }

    /// Whether the lowered `pattern` occurs.
    package func contains(_ pattern: [UInt8]) -> Bool {
        guard !pattern.isEmpty else { return true }
        guard pattern.count <= bytes.count else { return false }
        // memchr for the first byte, memcmp for the rest (glibc's memmem is not in Swift's Glibc).
        return bytes.withUnsafeBufferPointer { hay in
            pattern.withUnsafeBufferPointer { needle in
                guard let h = hay.baseAddress, let n = needle.baseAddress else { return false }
                let first = Int32(n.pointee)
                var offset = 0
                let last = hay.count - needle.count
                while offset <= last {
                    guard let found = memchr(h + offset, first, last - offset + 1) else { return false }
                    let at = h.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(h + at, n, needle.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }

    /// Whether any of the lowered patterns occurs.
    package func containsAny(_ patterns: [[UInt8]]) -> Bool { patterns.contains { contains($0) } }
}

extension String {
    /// Whether `needle` (ASCII, any case) occurs in the text, ASCII letters compared without case.
    package func containsIgnoringASCIICase(_ needle: String) -> Bool {
        ASCIILowered(self).contains(ASCIILowered.pattern(needle))
    }
}

extension Substring {
    /// Whether `needle` (ASCII, any case) occurs in the text, ASCII letters compared without case.
    package func containsIgnoringASCIICase(_ needle: String) -> Bool {
        ASCIILowered(self).contains(ASCIILowered.pattern(needle))
    }
}
