import ForensicsCore

/// An ordered JSON value and its deterministic, pretty-printed text (2-space indent, keys in the
/// order given, numbers without locale or exponent surprises).
public indirect enum JSONOut: Sendable {
    case object([(String, JSONOut)])
    case array([JSONOut])
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null

    public static func optional(_ v: Double?) -> JSONOut { v.map { .number($0) } ?? .null }
    public static func optional(_ v: String?) -> JSONOut { v.map { .string($0) } ?? .null }
    public static func time(_ t: Timestamp?) -> JSONOut { t.map { .string($0.iso8601) } ?? .null }

    public func render() -> String {
        var out = ""
        write(into: &out, indent: 0)
        out += "\n"
        return out
    }

    func write(into out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch self {
        case .object(let pairs):
            guard !pairs.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (i, (k, v)) in pairs.enumerated() {
                out += pad + JSONOut.quote(k) + ": "
                v.write(into: &out, indent: indent + 1)
                out += i + 1 < pairs.count ? ",\n" : "\n"
            }
            out += closePad + "}"
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (i, v) in items.enumerated() {
                out += pad
                v.write(into: &out, indent: indent + 1)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += closePad + "]"
        case .string(let s):
            out += JSONOut.quote(s)
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

    static func quote(_ s: String) -> String {
        var out = "\""
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
        return out + "\""
    }
}
