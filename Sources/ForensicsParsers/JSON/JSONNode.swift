import Foundation

/// A value on a `JSONTape`, read on demand: keys are matched as bytes, and a string, number or
/// date becomes a Swift value only when asked for. Reads as `JSONValue` does (same conversions,
/// same last-key-wins rule), so a mapper can move from one to the other unchanged in behaviour.
///
/// A node points into the tape and the text: it is only valid inside `JSONTape.withRoot`.
struct JSONNode {
    let tokens: UnsafeBufferPointer<JSONTape.Token>
    let bytes: UnsafeBufferPointer<UInt8>
    let index: Int

    var token: JSONTape.Token { tokens[index] }
    var kind: JSONTape.Kind { token.kind }

    private func node(_ i: Int) -> JSONNode { JSONNode(tokens: tokens, bytes: bytes, index: i) }

    /// The member named `key` (the last one when a key is repeated), for objects.
    subscript(key: StaticString) -> JSONNode? {
        let t = token
        guard t.kind == .object, let base = bytes.baseAddress else { return nil }
        let n = key.utf8CodeUnitCount
        let w = key.utf8Start
        let first = n > 0 ? w[0] : 0
        var found: Int?
        var i = index + 1
        let end = Int(t.next)
        // Mapping a metric event asks a few dozen keys of objects of a dozen members: the loop
        // compares a length and a first byte per member, and calls memcmp only on a likely match.
        while i < end, i + 1 < tokens.count {
            let k = tokens[i]
            if k.kind == .string {
                if Int(k.end) - Int(k.start) == n, n == 0 || base[Int(k.start)] == first,
                    memcmp(base + Int(k.start), w, n) == 0
                {
                    found = i + 1
                }
            } else if node(i).keyEquals(UnsafeBufferPointer(start: w, count: n)) {
                found = i + 1
            }
            i = Int(tokens[i + 1].next)
        }
        return found.map(node)
    }

    /// Whether this string token (a key) spells `wanted`, escapes decoded.
    private func keyEquals(_ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let t = token
        if t.kind == .escapedString { return string.map { $0.utf8.elementsEqual(wanted) } ?? false }
        let n = Int(t.end) - Int(t.start)
        guard n == wanted.count, let base = bytes.baseAddress, let w = wanted.baseAddress else { return false }
        // Most keys of one length already differ in their first byte: no call for those.
        guard n > 0 else { return true }
        return base[Int(t.start)] == w[0] && memcmp(base + Int(t.start), w, n) == 0
    }

    /// The members named by `keys`, found in one pass over the object, into `out` (its storage
    /// re-used from call to call): for each key the value of its last occurrence (as the
    /// subscript reads it), nil where absent or when this is no object. Why: a request event is asked a dozen keys, and the subscript walks every member
    /// for each of them, present or not — 22 walks an event were a tenth of reading a dump.
    func members(_ keys: JSONKeys, into out: inout [JSONNode?]) {
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(nil, count: keys.count))
        let t = token
        guard t.kind == .object, let base = bytes.baseAddress else { return }
        keys.flat.withUnsafeBufferPointer { flat in
            guard let names = flat.baseAddress else { return }
            var i = index + 1
            let end = Int(t.next)
            while i < end, i + 1 < tokens.count {
                let k = tokens[i]
                let n = Int(k.end) - Int(k.start)
                if k.kind == .string {
                    // The keys this one could be, by its first byte; then length and bytes.
                    var mask = n > 0 ? keys.byFirstByte[Int(base[Int(k.start)])] : keys.empty
                    while mask != 0 {
                        let j = mask.trailingZeroBitCount
                        mask &= mask &- 1
                        if keys.lengths[j] == n, memcmp(base + Int(k.start), names + keys.starts[j], n) == 0 {
                            out[j] = node(i + 1)
                        }
                    }
                } else {
                    for j in 0..<keys.count
                    where node(i).keyEquals(
                        UnsafeBufferPointer(rebasing: flat[keys.starts[j]..<(keys.starts[j] + keys.lengths[j])]))
                    {
                        out[j] = node(i + 1)
                    }
                }
                i = Int(tokens[i + 1].next)
            }
        }
    }

    /// The members of an object in written order (repeated keys included).
    var members: [(key: String, value: JSONNode)] {
        let t = token
        guard t.kind == .object else { return [] }
        var out: [(key: String, value: JSONNode)] = []
        var i = index + 1
        while i < Int(t.next), i + 1 < tokens.count {
            out.append((node(i).string ?? "", node(i + 1)))
            i = Int(tokens[i + 1].next)
        }
        return out
    }

    /// The elements of an array.
    var elements: [JSONNode]? {
        let t = token
        guard t.kind == .array else { return nil }
        var out: [JSONNode] = []
        var i = index + 1
        while i < Int(t.next) {
            out.append(node(i))
            i = Int(tokens[i].next)
        }
        return out
    }

    var isNull: Bool { kind == .null }
    var isObject: Bool { kind == .object }
    var isArray: Bool { kind == .array }

    /// The bytes of a string without escapes (nil for other values and escaped strings).
    var plainStringBytes: UnsafeBufferPointer<UInt8>? {
        let t = token
        guard t.kind == .string else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)])
    }

    /// The value's text as written: a string's between its quotes, an object or array from its
    /// opening bracket to its closing one.
    var text: UnsafeBufferPointer<UInt8> {
        let t = token
        return UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)])
    }

    var string: String? {
        let t = token
        switch t.kind {
        case .string:
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)]), as: UTF8.self)
        case .escapedString:
            // The scan checked the string: decoding it again with the tree parser cannot fail.
            var parser = JSONByteParser(b: bytes)
            parser.i = Int(t.start) - 1
            return try? parser.string()
        default:
            return nil
        }
    }

    /// A number token's value as `JSONByteParser` reads it (infinite when out of range).
    var number: Double? {
        let t = token
        guard t.kind == .number else { return nil }
        var parser = JSONByteParser(b: UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)]))
        return try? parser.number()
    }

    /// A finite number, or a string `Double` reads (as `JSONValue.double`).
    var double: Double? {
        switch kind {
        case .number:
            return number.flatMap { $0.isFinite ? $0 : nil }
        case .string, .escapedString:
            return string.flatMap { Double($0) }
        default:
            return nil
        }
    }

    /// An integer value, refusing fractions and values outside `Int` (no trapping conversion).
    var int: Int? {
        guard let d = double, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    var bool: Bool? {
        switch kind {
        case .true: return true
        case .false: return false
        case .number: return number.map { $0 != 0 }
        default: return nil
        }
    }
}

/// Keys a mapper asks of one object, encoded once (`JSONNode.members`): their bytes back to
/// back, each one's start, length and first byte.
struct JSONKeys: Sendable {
    let flat: [UInt8]
    let starts: [Int]
    let lengths: [Int]
    let firsts: [UInt8]
    /// For each first byte, the keys starting with it (bit j: key j); at most 64 keys.
    let byFirstByte: [UInt64]
    /// The empty key's bit, if one is asked.
    let empty: UInt64
    var count: Int { lengths.count }

    init(_ names: [String]) {
        var flat: [UInt8] = []
        var starts: [Int] = []
        var lengths: [Int] = []
        var firsts: [UInt8] = []
        for name in names {
            let bytes = Array(name.utf8)
            starts.append(flat.count)
            lengths.append(bytes.count)
            firsts.append(bytes.first ?? 0)
            flat.append(contentsOf: bytes)
        }
        self.flat = flat
        self.starts = starts
        self.lengths = lengths
        self.firsts = firsts
        var table = [UInt64](repeating: 0, count: 256)
        var empty: UInt64 = 0
        for j in 0..<min(lengths.count, 64) {
            if lengths[j] == 0 { empty |= 1 << UInt64(j) } else { table[Int(firsts[j])] |= 1 << UInt64(j) }
        }
        byFirstByte = table
        self.empty = empty
    }
}
