/// A parsed JSON value. Inputs are read into this neutral form first, so that a missing or
/// mistyped key becomes a diagnostic instead of a decoding failure of the whole event.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Parses one JSON document; throws with the position on invalid JSON.
    package static func parse<Bytes: Collection>(_ bytes: Bytes) throws -> JSONValue where Bytes.Element == UInt8 {
        if let result = try bytes.withContiguousStorageIfAvailable({ try JSONByteParser.parse($0) }) {
            return result
        }
        return try Array(bytes).withUnsafeBufferPointer { try JSONByteParser.parse($0) }
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package var double: Double? {
        switch self {
        case .number(let d): return d.isFinite ? d : nil
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    /// An integer value, refusing fractions and values outside `Int` (no trapping conversion).
    package var int: Int? {
        guard let d = double, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    package var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let d): return d != 0
        default: return nil
        }
    }

    package var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    package var object: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A JSON object as its members in written order.
///
/// Why not a `Dictionary`: metric events are small objects read by a handful of keys, and hashing
/// every key of every event (then growing and freeing the table) was over half of metric-dump
/// ingest. A linear look-up over a few keys is cheaper. Semantics are those of a dictionary built
/// in order: when a key is repeated, the last value wins.
package struct JSONObject: Sendable, Hashable {
    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: JSONValue
    }

    /// Members in written order, repeated keys included (one array: one allocation per object).
    package private(set) var members: [Member] = []

    package init() {}

    package init(_ pairs: [(String, JSONValue)]) {
        for (k, v) in pairs { append(k, v) }
    }

    package var isEmpty: Bool { members.isEmpty }

    /// Adds a member at the end (a repeated key shadows the earlier one).
    package mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    package subscript(key: String) -> JSONValue? {
        get {
            // Lengths first: most members differ in length, and a length is O(1) on native strings.
            let length = key.utf8.count
            var i = members.count - 1
            while i >= 0 {
                if members[i].key.utf8.count == length, members[i].key == key { return members[i].value }
                i -= 1
            }
            return nil
        }
        set {
            members.removeAll { $0.key == key }
            if let newValue { append(key, newValue) }
        }
    }
}
