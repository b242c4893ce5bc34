/// A parsed JSON value. Inputs are read into this neutral form first, so that a missing or
/// mistyped key becomes a diagnostic instead of a decoding failure of the whole event.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses one JSON document; throws with the position on invalid JSON.
    public static func parse<Bytes: Collection>(_ bytes: Bytes) throws -> JSONValue where Bytes.Element == UInt8 {
        if let result = try bytes.withContiguousStorageIfAvailable({ try JSONByteParser.parse($0) }) {
            return result
        }
        return try Array(bytes).withUnsafeBufferPointer { try JSONByteParser.parse($0) }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var double: Double? {
        switch self {
        case .number(let d): return d.isFinite ? d : nil
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    /// An integer value, refusing fractions and values outside `Int` (no trapping conversion).
    public var int: Int? {
        guard let d = double, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    public var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let d): return d != 0
        default: return nil
        }
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
