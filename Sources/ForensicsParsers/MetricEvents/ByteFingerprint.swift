/// A 64-bit fingerprint of a byte string, for spotting repeated lines (a recorder that wrote an
/// event twice) without keeping the lines.
///
/// Why not `Hasher`: SipHash over every byte of every metric event was about a tenth of ingest.
/// This mixes eight bytes per step (a multiply and an xor-shift), then finishes with
/// SplitMix64's finalizer. Like `Hasher`, it is seeded per process, so a crafted input cannot plan a
/// collision offline; two distinct lines are taken as duplicates only on a 64-bit collision.
enum ByteFingerprint {
    private static let seed = UInt64.random(in: UInt64.min...UInt64.max)

    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        let n = raw.count
        var h = seed ^ (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        // One multiply per word (the full mix per word was a twentieth of metric-dump ingest);
        // the full mix at the end spreads the state over every bit.
        while i + 8 <= n {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 32
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(raw[i]) << shift
                shift += 8
                i += 1
            }
            h = mix(h ^ tail)
        }
        return mix(h)
    }

    private static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
