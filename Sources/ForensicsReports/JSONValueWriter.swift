import ForensicsCore

/// An ordered JSON value and its deterministic, pretty-printed text (2-space indent, keys in the
/// order given, numbers without locale or exponent surprises).
package indirect enum JSONOut: Sendable {
    case object([(String, JSONOut)])
    case array([JSONOut])
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null

    package static func optional(_ v: Double?) -> JSONOut { v.map { .number($0) } ?? .null }
    package static func optional(_ v: String?) -> JSONOut { v.map { .string($0) } ?? .null }
    package static func optional(_ v: Int?) -> JSONOut { v.map { .integer($0) } ?? .null }
    package static func time(_ t: Timestamp?, _ basis: TimeBasis = .utc) -> JSONOut {
        t.map { .string($0.iso8601(basis)) } ?? .null
    }

    package func render() -> String {
        var out: [UInt8] = []
        write(into: &out, indent: 0)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    /// The value's text as it appears nested `indent` levels deep (no newline after it): what a
    /// writer that streams a long array one element at a time emits per element.
    package func text(indent: Int) -> String {
        var out: [UInt8] = []
        write(into: &out, indent: indent)
        return String(decoding: out, as: UTF8.self)
    }

    /// Written as bytes: appending to a `String` piece by piece (each append checking capacity
    /// and ASCII-ness) was 200 instructions per byte of a triage overview.
    func write(into out: inout [UInt8], indent: Int) {
        switch self {
        case .object(let pairs):
            guard !pairs.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(contentsOf: "{\n".utf8)
            for (i, (k, v)) in pairs.enumerated() {
                JSONOut.pad(&out, indent + 1)
                JSONOut.appendQuoted(k, to: &out)
                out.append(contentsOf: ": ".utf8)
                v.write(into: &out, indent: indent + 1)
                if i + 1 < pairs.count { out.append(0x2C) }
                out.append(0x0A)
            }
            JSONOut.pad(&out, indent)
            out.append(0x7D)
        case .array(let items):
            guard !items.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(contentsOf: "[\n".utf8)
            for (i, v) in items.enumerated() {
                JSONOut.pad(&out, indent + 1)
                v.write(into: &out, indent: indent + 1)
                if i + 1 < items.count { out.append(0x2C) }
                out.append(0x0A)
            }
            JSONOut.pad(&out, indent)
            out.append(0x5D)
        case .string(let s):
            JSONOut.appendQuoted(s, to: &out)
        case .number(let d):
            out.append(contentsOf: JSONOut.number(d).utf8)
        case .integer(let i):
            out.append(contentsOf: String(i).utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null:
            out.append(contentsOf: "null".utf8)
        }
    }

    static func pad(_ out: inout [UInt8], _ levels: Int) {
        out.append(contentsOf: repeatElement(0x20, count: 2 * max(0, levels)))
    }

    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return NumberFormat.trimmed(d, decimals: 6)
    }

    /// Appends `s` as a JSON string literal: runs without escapes are copied whole.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        var s = s  // withUTF8 needs a var; a native string is not copied
        s.withUTF8 { b in
            var start = 0
            var i = 0
            while i < b.count {
                let c = b[i]
                var length = 1
                var escape: String?
                switch c {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x00..<0x20:
                    let hex = String(c, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                case 0xE2 where i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9):
                    // U+2028 and U+2029: JSON allows them raw, JavaScript string literals do not.
                    escape = b[i + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    length = 3
                default:
                    break
                }
                guard let escape else {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<i]))
                out.append(contentsOf: escape.utf8)
                i += length
                start = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<b.count]))
        }
        out.append(0x22)
    }

    /// A control character, a quote, a backslash, or U+2028/U+2029 (bytes E2 80 A8/A9), which
    /// JSON allows raw but JavaScript string literals do not.
    static func needsEscape(_ s: String) -> Bool {
        var s = s  // withUTF8 needs a var; a native string is not copied
        return s.withUTF8 { b in
            var i = 0
            while i < b.count {
                let c = b[i]
                if c < 0x20 || c == 0x22 || c == 0x5C { return true }
                if c == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xA8 || b[i + 2] == 0xA9 { return true }
                i += 1
            }
            return false
        }
    }
}
