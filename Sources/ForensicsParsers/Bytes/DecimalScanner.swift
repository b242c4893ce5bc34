/// Numbers read from ASCII bytes with the same results as `Double(String)` / `Int64(String)`,
/// without building a `String` for the common shapes.
///
/// Why: every `#EXTINF` carries a duration, and a 24-hour playlist has tens of thousands of them.
/// Plain decimals (`6.006`, `2`, `10.`) take the exact fast path: with at most 15 significant
/// digits the significand is exactly representable, as is 10^k for k ≤ 22, and one IEEE division
/// of two exact values is correctly rounded (Clinger's fast path) — the same double the standard
/// library produces. Anything else (signs, exponents, hex, `nan`, long digit strings) goes to the
/// standard library, so edge cases behave exactly as before.
enum DecimalScanner {
    /// 10^k, exact for k ≤ 22. A `switch` compiles to a constant table: a static array cost a
    /// lazy-initialisation check and a bounds check on every duration.
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> Double? {
        switch k {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        default: nil
        }
    }

    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        // Through the base pointer: iterating the buffer as a sequence cost an optional unwrap and
        // a bounds check per byte, more than the arithmetic (121 instructions for `2.000`).
        guard let base = bytes.baseAddress, bytes.count <= 16 else { return slowDouble(bytes) }
        var significand: UInt64 = 0
        var digits = 0
        var point = -1
        for i in 0..<bytes.count {
            let d = base[i] &- 0x30
            if d < 10 {
                // At most 16 bytes: at most 16 digits, no overflow in 64 bits.
                significand = significand &* 10 &+ UInt64(d)
                digits &+= 1
            } else if base[i] == 0x2E, point < 0 {
                point = i
            } else {
                return slowDouble(bytes)
            }
        }
        let fractionDigits = point < 0 ? 0 : bytes.count &- point &- 1
        guard digits > 0, digits <= 15, let scale = powerOfTen(fractionDigits) else { return slowDouble(bytes) }
        return Double(significand) / scale
    }

    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return Int64(String(decoding: bytes, as: UTF8.self)) }
        var value: Int64 = 0
        for b in bytes {
            guard b >= 0x30, b <= 0x39 else { return Int64(String(decoding: bytes, as: UTF8.self)) }
            value = value * 10 + Int64(b - 0x30)
        }
        return value
    }

    private static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }
}
