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
        var out = ""
        write(into: &out, indent: 0)
        out += "\n"
        return out
    }

    /// The value's text as it appears nested `indent` levels deep (no newline after it): what a
    /// writer that streams a long array one element at a time emits per element.
    package func text(indent: Int) -> String {
        var out = ""
        write(into: &out, indent: indent)
        return out
    }

    func write(into out: inout String, indent: Int) {
        switch self {
        case .object(let pairs):
            guard !pairs.isEmpty else {
                out += "{}"
                return
            }
            // Indentation is built only for containers (it was built for every scalar too).
            let pad = String(repeating: "  ", count: indent + 1)
            let closePad = String(repeating: "  ", count: indent)
            out += "{\n"
            for (i, (k, v)) in pairs.enumerated() {
                out += pad
                JSONOut.appendQuoted(k, to: &out)
                out += ": "
                v.write(into: &out, indent: indent + 1)
                out += i + 1 < pairs.count ? ",\n" : "\n"
            }
            out += closePad + "}"
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            let pad = String(repeating: "  ", count: indent + 1)
            let closePad = String(repeating: "  ", count: indent)
            out += "[\n"
            for (i, v) in items.enumerated() {
                out += pad
                v.write(into: &out, indent: indent + 1)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += closePad + "]"
        case .string(let s):
            JSONOut.appendQuoted(s, to: &out)
        case .number(let d):
            out += JSONOut.number(d)
        case .integer(let i):
            out += String(i)
        case .bool(let b):
            out += b ? "true" : "false"
        case .null:
            out += "null"
        }
    }

    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return NumberFormat.trimmed(d, decimals: 6)
    }

    /// Appends `s` as a JSON string literal. Most strings need no escape at all: those are
    /// copied whole after one pass over their bytes.
    static func appendQuoted(_ s: String, to out: inout String) {
        if !needsEscape(s) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
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
