/// Text operations on UTF-8 bytes for the hot paths of server logs, where Foundation's
/// `replacingOccurrences` and `removingPercentEncoding` bridge every call through `NSString`
/// (they were two thirds of reading a CloudFront log: see Documentation/Architecture.md).
extension String {
    /// Every occurrence of `needle` replaced by `replacement`, compared byte by byte (a UTF-8
    /// needle matches only whole characters of valid UTF-8 text).
    package func replacingBytes(of needle: String, with replacement: String) -> String {
        let n = Array(needle.utf8)
        guard let first = n.first else { return self }
        let bytes = Array(utf8)
        guard bytes.count >= n.count else { return self }
        var out: [UInt8] = []
        var i = 0
        var changed = false
        let r = Array(replacement.utf8)
        while i < bytes.count {
            if bytes[i] == first, i + n.count <= bytes.count, bytes[i..<(i + n.count)].elementsEqual(n) {
                if !changed {
                    out.reserveCapacity(bytes.count)
                    out.append(contentsOf: bytes[0..<i])
                    changed = true
                }
                out.append(contentsOf: r)
                i += n.count
                continue
            }
            if changed { out.append(bytes[i]) }
            i += 1
        }
        return changed ? String(decoding: out, as: UTF8.self) : self
    }

    /// `%XX` sequences decoded once; nil when one is malformed or the result is not UTF-8 (as
    /// Foundation's `removingPercentEncoding`), the text itself when it has none.
    package var percentDecoded: String? {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        var out: [UInt8] = []
        var it = Array(utf8)[...]
        let hex = UInt8.hexDigitValue
        while let c = it.first {
            it = it.dropFirst()
            guard c == UInt8(ascii: "%") else {
                out.append(c)
                continue
            }
            guard it.count >= 2, let hi = hex(it[it.startIndex]), let lo = hex(it[it.startIndex + 1]) else {
                return nil
            }
            out.append(hi << 4 | lo)
            it = it.dropFirst(2)
        }
        return String(validating: out, as: UTF8.self)
    }
}

extension UInt8 {
    /// The value of an ASCII hexadecimal digit (`0`–`9`, `A`–`F`, `a`–`f`); nil for anything else.
    package static func hexDigitValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x37
        case 0x61...0x66: c - 0x57
        default: nil
        }
    }
}
