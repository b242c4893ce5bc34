import Foundation

/// A JSON parser working directly on UTF-8 bytes, producing `JSONValue`.
///
/// Hand-written because Foundation's `JSONDecoder` into a generic value was the bottleneck of
/// metric-dump ingest (about 3 MB/s on this machine; see Benchmarks/README.md). Strict RFC 8259
/// grammar, nesting limited to `maxDepth` (hostile input cannot exhaust the stack), errors with a
/// byte offset.
struct JSONByteParser {
    struct ParseError: Error, CustomStringConvertible {
        var offset: Int
        var message: String
        var description: String { "\(message) at byte \(offset)" }
    }

    static let maxDepth = 512

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        var p = JSONByteParser(b: bytes)
        p.skipWhitespace()
        let v = try p.value(depth: 0)
        p.skipWhitespace()
        guard p.i == p.b.count else { throw ParseError(offset: p.i, message: "unexpected text after the JSON value") }
        return v
    }

    let b: UnsafeBufferPointer<UInt8>
    var i = 0

    init(b: UnsafeBufferPointer<UInt8>) { self.b = b }

    mutating func skipWhitespace() {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
        }
    }

    func fail(_ message: String) -> ParseError { ParseError(offset: i, message: message) }

    mutating func value(depth: Int) throws -> JSONValue {
        guard i < b.count else { throw fail("unexpected end of JSON") }
        switch b[i] {
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw fail("JSON nested deeper than \(Self.maxDepth) levels") }
            i += 1
            var object = JSONObject()
            skipWhitespace()
            if i < b.count, b[i] == UInt8(ascii: "}") {
                i += 1
                return .object(object)
            }
            while true {
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let key = try string()
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipWhitespace()
                object.append(key, try value(depth: depth + 1))
                skipWhitespace()
                guard i < b.count else { throw fail("unexpected end of JSON in an object") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                } else if b[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(object)
                } else {
                    throw fail("expected ',' or '}'")
                }
            }
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw fail("JSON nested deeper than \(Self.maxDepth) levels") }
            i += 1
            var array: [JSONValue] = []
            skipWhitespace()
            if i < b.count, b[i] == UInt8(ascii: "]") {
                i += 1
                return .array(array)
            }
            while true {
                skipWhitespace()
                array.append(try value(depth: depth + 1))
                skipWhitespace()
                guard i < b.count else { throw fail("unexpected end of JSON in an array") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                } else if b[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(array)
                } else {
                    throw fail("expected ',' or ']'")
                }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try number())
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("unexpected end of JSON") }
        let w = word.utf8Start
        for k in 0..<n where b[i + k] != w[k] { throw fail("invalid literal") }
        i += n
    }

    mutating func number() throws -> Double {
        let start = i
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        var integer: UInt64 = 0
        var digits = 0
        var simple = true
        while i < b.count, b[i] >= 48, b[i] <= 57 {
            if digits < 18 { integer = integer &* 10 &+ UInt64(b[i] - 48) } else { simple = false }
            digits += 1
            i += 1
        }
        guard digits > 0 else { throw fail("invalid value") }
        if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            simple = false
            if b[i] == UInt8(ascii: ".") {
                i += 1
                var frac = 0
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    i += 1
                    frac += 1
                }
                guard frac > 0 else { throw fail("invalid number") }
            }
            if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                var exp = 0
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    i += 1
                    exp += 1
                }
                guard exp > 0 else { throw fail("invalid number") }
            }
        }
        if simple {
            let v = Double(integer)
            return b[start] == UInt8(ascii: "-") ? -v : v
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        guard let d = Double(text) else { throw fail("invalid number") }
        return d
    }

    mutating func string() throws -> String {
        i += 1  // opening quote
        let start = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("control character in string") }
            i += 1
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw fail("control character in string") }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { break }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), i + 1 < b.count, b[i] == UInt8(ascii: "\\"),
                    b[i + 1] == UInt8(ascii: "u")
                {
                    i += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        scalar = 0xFFFD
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape")
            }
        }
        throw fail("unterminated string")
    }

    static func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case 48...57: UInt32(c - 48)
        case 65...70: UInt32(c - 55)
        case 97...102: UInt32(c - 87)
        default: nil
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= b.count else { throw fail("invalid \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Self.hexDigit(b[i]) else { throw fail("invalid \\u escape") }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}
