import Foundation

/// The byte-level questions parsers ask of text they have not made a `String` of: search,
/// prefix, ASCII case folding, trimming. Written once here; every format uses these.
///
/// Why bytes: log templates, tags and markers are ASCII, so comparing bytes finds what a `String`
/// search finds without decoding, copying or Unicode case mapping (each of which showed up in
/// profiles: see `Documentation/Architecture.md`, "Hot paths").
extension UnsafeBufferPointer<UInt8> {
    /// Offset of the first occurrence of `pattern`, or nil (an empty pattern is not found).
    package func firstOffset(of pattern: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = count
        let m = pattern.count
        guard m > 0, m <= n, let hayBase = baseAddress, let patternBase = pattern.baseAddress else { return nil }
        let first = Int32(pattern[0])
        var i = 0
        while i <= n - m {
            // memchr finds candidate starts with vector instructions.
            guard let hit = memchr(hayBase + i, first, n - m - i + 1) else { return nil }
            let at = hayBase.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(hayBase + at, patternBase, m) == 0 { return at }
            i = at + 1
        }
        return nil
    }

    package func contains(_ pattern: StaticString) -> Bool {
        firstOffset(of: UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)) != nil
    }

    /// Whether both hold the same bytes.
    package func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let a = baseAddress, let b = other.baseAddress else { return true }
        return memcmp(a, b, count) == 0
    }

    package func hasPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard count >= n, let base = baseAddress else { return n == 0 }
        return memcmp(base, prefix.utf8Start, n) == 0
    }

    /// Whether the bytes at `start` are `pattern` (lower-case ASCII) in any ASCII case.
    package func matchesIgnoringCase(_ pattern: StaticString, at start: Int) -> Bool {
        let m = pattern.utf8CodeUnitCount
        guard start >= 0, m <= count, start <= count - m else { return false }
        let p = pattern.utf8Start
        for k in 0..<m {
            var b = self[start + k]
            if b >= 0x41, b <= 0x5A { b |= 0x20 }
            if b != p[k] { return false }
        }
        return true
    }

    package func hasPrefixIgnoringCase(_ pattern: StaticString) -> Bool { matchesIgnoringCase(pattern, at: 0) }

    package func containsIgnoringCase(_ pattern: StaticString) -> Bool {
        let m = pattern.utf8CodeUnitCount
        guard m <= count else { return false }
        for start in 0...(count - m) where matchesIgnoringCase(pattern, at: start) { return true }
        return false
    }

    /// The bytes without spaces and tabs at either end.
    package func trimmingBlanks() -> UnsafeBufferPointer<UInt8> {
        var lower = 0
        var upper = count
        while lower < upper, self[lower] == 0x20 || self[lower] == 0x09 { lower += 1 }
        while upper > lower, self[upper - 1] == 0x20 || self[upper - 1] == 0x09 { upper -= 1 }
        return UnsafeBufferPointer(rebasing: self[lower..<upper])
    }

    /// Whether every byte is below 0x80, eight at a time.
    package var isASCII: Bool {
        guard let base = UnsafeRawPointer(baseAddress) else { return true }
        var i = 0
        while i + 8 <= count {
            if base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            if self[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// Index of the first `byte`, or nil.
    package func firstIndex(ofByte byte: UInt8) -> Int? {
        guard let base = baseAddress, let hit = memchr(base, Int32(byte), count) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}
