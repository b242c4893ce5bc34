/// Text and attribute values for the HTML and SVG the reports write (and the JUnit XML).
///
/// Byte by byte: every character it changes is ASCII, and no byte of a multi-byte UTF-8 sequence
/// is below 0x80, so the bytes are the characters here. A text with nothing to change is
/// returned as it is. Why: scalar by scalar, escaping was a tenth of a triage run (every label
/// of every SVG picture, every cell of every HTML table).
package enum XMLText {
    /// XML/HTML text and attribute values; other control characters (but line feed and tab) as spaces.
    package static func escape(_ s: String) -> String {
        var s = s
        return s.withUTF8 { bytes in
            guard let first = bytes.firstIndex(where: needsChange) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            out.append(contentsOf: bytes[..<first])
            append(bytes[first...], to: &out)
            return String(decoding: out, as: UTF8.self)
        } ?? s
    }

    /// Appends `bytes` escaped to `out`.
    package static func append<C: Collection>(_ bytes: C, to out: inout [UInt8]) where C.Element == UInt8 {
        for b in bytes {
            switch b {
            case UInt8(ascii: "&"): out.append(contentsOf: amp)
            case UInt8(ascii: "<"): out.append(contentsOf: lt)
            case UInt8(ascii: ">"): out.append(contentsOf: gt)
            case UInt8(ascii: "\""): out.append(contentsOf: quot)
            case 0x0A, 0x09: out.append(b)
            case ..<0x20: out.append(UInt8(ascii: " "))
            default: out.append(b)
            }
        }
    }

    @inline(__always) static func needsChange(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "\"")
            || (b < 0x20 && b != 0x0A && b != 0x09)
    }

    static let amp = Array("&amp;".utf8)
    static let lt = Array("&lt;".utf8)
    static let gt = Array("&gt;".utf8)
    static let quot = Array("&quot;".utf8)
}
