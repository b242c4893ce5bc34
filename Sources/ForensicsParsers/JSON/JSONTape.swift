/// One JSON text as a flat list of tokens (offsets into the bytes), re-used from line to line.
///
/// Why: a metric dump is millions of small objects of which the mapper reads a few keys. Building
/// a `JSONValue` tree per event (an array per object, a `String` per key and value) and tearing it
/// down again was over half of the dump's ingest (Benchmarks/README.md). The tape validates the
/// whole text with the same strict grammar and depth limit as `JSONByteParser`, but allocates
/// nothing once its storage has grown: values become Swift values only when a reader asks for them
/// (`JSONNode`), and keys are compared as bytes.
struct JSONTape {
    enum Kind: UInt8 {
        case object, array, string, escapedString, number, `true`, `false`, null
    }

    /// A value: for strings the bytes between the quotes, for numbers and literals their bytes,
    /// for containers from the opening to one past the closing bracket. `next` is the index of the
    /// token after the value and all its children, so a reader skips a container in one step. An
    /// object's children alternate key (a string token) and value.
    struct Token {
        package var start: Int32
        package var end: Int32
        package var next: Int32
        package var kind: Kind
    }

    private(set) var tokens: [Token] = []
    private var open: [Int32] = []

    /// An empty tape (no storage until the first scan).
    init() {}

    /// Tokenizes `b`, replacing the previous text's tokens. Throws on invalid JSON (the error's
    /// offset is the byte where reading stopped) and on texts over 2 GiB.
    mutating func scan(_ b: UnsafeBufferPointer<UInt8>) throws(JSONByteParser.ParseError) {
        tokens.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        guard b.count < Int(Int32.max) else {
            throw JSONByteParser.ParseError(offset: 0, message: "JSON text larger than 2 GiB")
        }
        var cursor = Cursor(b: b)
        cursor.skipWhitespace()
        // Whether the innermost open container is an object (kept here, not read back per value).
        var inObject = false
        // Each turn reads one value; containers stay open on `open` until their closing bracket.
        value: while true {
            guard cursor.i < b.count else { throw cursor.fail("unexpected end of JSON") }
            let start = Int32(truncatingIfNeeded: cursor.i)
            let index = Int32(truncatingIfNeeded: tokens.count)
            switch b[cursor.i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b[cursor.i] == UInt8(ascii: "{")
                guard open.count < JSONByteParser.maxDepth else {
                    throw cursor.fail("JSON nested deeper than \(JSONByteParser.maxDepth) levels")
                }
                tokens.append(Token(start: start, end: start, next: index, kind: isObject ? .object : .array))
                cursor.i += 1
                cursor.skipWhitespace()
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if cursor.i < b.count, b[cursor.i] == close {
                    cursor.i += 1
                    tokens[Int(index)].next = index + 1
                    tokens[Int(index)].end = Int32(truncatingIfNeeded: cursor.i)
                } else {
                    open.append(index)
                    inObject = isObject
                    if isObject { try key(&cursor) }
                    continue value
                }
            case UInt8(ascii: "\""):
                let escaped = try cursor.string()
                tokens.append(
                    Token(
                        start: start + 1, end: Int32(truncatingIfNeeded: cursor.i - 1), next: index + 1,
                        kind: escaped ? .escapedString : .string))
            case UInt8(ascii: "t"):
                try cursor.literal("true")
                tokens.append(Token(start: start, end: start + 4, next: index + 1, kind: .true))
            case UInt8(ascii: "f"):
                try cursor.literal("false")
                tokens.append(Token(start: start, end: start + 5, next: index + 1, kind: .false))
            case UInt8(ascii: "n"):
                try cursor.literal("null")
                tokens.append(Token(start: start, end: start + 4, next: index + 1, kind: .null))
            default:
                try cursor.number()
                tokens.append(
                    Token(start: start, end: Int32(truncatingIfNeeded: cursor.i), next: index + 1, kind: .number))
            }
            // After a value: a separator, a closing bracket, or the end of the text.
            while true {
                cursor.skipWhitespace()
                guard !open.isEmpty else {
                    guard cursor.i == b.count else { throw cursor.fail("unexpected text after the JSON value") }
                    return
                }
                let isObject = inObject
                guard cursor.i < b.count else {
                    throw cursor.fail("unexpected end of JSON in \(isObject ? "an object" : "an array")")
                }
                let c = b[cursor.i]
                if c == UInt8(ascii: ",") {
                    cursor.i += 1
                    cursor.skipWhitespace()
                    if isObject { try key(&cursor) }
                    continue value
                }
                guard c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw cursor.fail(isObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                cursor.i += 1
                if let top = open.popLast() {
                    tokens[Int(top)].next = Int32(truncatingIfNeeded: tokens.count)
                    tokens[Int(top)].end = Int32(truncatingIfNeeded: cursor.i)
                }
                if let parent = open.last { inObject = tokens[Int(parent)].kind == .object }
            }
        }
    }

    /// An object member's key and its colon; the cursor is left on the value.
    private mutating func key(_ cursor: inout Cursor) throws(JSONByteParser.ParseError) {
        guard cursor.i < cursor.b.count, cursor.b[cursor.i] == UInt8(ascii: "\"") else {
            throw cursor.fail("expected a string key")
        }
        let start = Int32(truncatingIfNeeded: cursor.i + 1)
        let escaped = try cursor.string()
        let index = Int32(truncatingIfNeeded: tokens.count)
        tokens.append(
            Token(
                start: start, end: Int32(truncatingIfNeeded: cursor.i - 1), next: index + 1,
                kind: escaped ? .escapedString : .string))
        cursor.skipWhitespace()
        guard cursor.i < cursor.b.count, cursor.b[cursor.i] == UInt8(ascii: ":") else {
            throw cursor.fail("expected ':'")
        }
        cursor.i += 1
        cursor.skipWhitespace()
    }

    /// Runs `body` with the root value (the tape must hold a scanned text of `bytes`).
    func withRoot<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (JSONNode) throws -> R) rethrows -> R? {
        try tokens.withUnsafeBufferPointer { tokens in
            guard !tokens.isEmpty else { return nil }
            return try body(JSONNode(tokens: tokens, bytes: bytes, index: 0))
        }
    }
}

/// The reading position of `JSONTape.scan`: grammar checks that do not build values.
private struct Cursor {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0

    func fail(_ message: String) -> JSONByteParser.ParseError {
        JSONByteParser.ParseError(offset: i, message: message)
    }

    mutating func skipWhitespace() {
        while i < b.count {
            let c = b[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            i += 1
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONByteParser.ParseError) {
        let n = word.utf8CodeUnitCount
        guard b.count - i >= n else { throw fail("unexpected end of JSON") }
        let w = word.utf8Start
        for k in 0..<n where b[i + k] != w[k] { throw fail("invalid literal") }
        i += n
    }

    /// A number's bytes, by RFC 8259's grammar.
    mutating func number() throws(JSONByteParser.ParseError) {
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        guard digits() > 0 else { throw fail("invalid value") }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw fail("invalid number") }
        }
        if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw fail("invalid number") }
        }
    }

    private mutating func digits() -> Int {
        let start = i
        while i < b.count, b[i] &- 48 < 10 { i += 1 }
        return i - start
    }

    /// A string from its opening quote to past its closing one; true when it holds escapes.
    /// Eight bytes are tested at a time for a quote, a backslash or a control byte (SWAR).
    mutating func string() throws(JSONByteParser.ParseError) -> Bool {
        i += 1
        var escaped = false
        let raw = UnsafeRawBufferPointer(b)
        while true {
            while b.count - i >= 8 {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let high: UInt64 = 0x8080_8080_8080_8080
                let q = w ^ (ones &* 0x22)
                let s = w ^ (ones &* 0x5C)
                let special = (((q &- ones) & ~q) | ((s &- ones) & ~s) | ((w &- ones &* 0x20) & ~w)) & high
                if special != 0 {
                    // The lowest flagged byte is a real one (a borrow only flags bytes above it).
                    i += special.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < b.count else { throw fail("unterminated string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return escaped
            }
            if c == UInt8(ascii: "\\") {
                // Offsets as `JSONByteParser` reports them, so a diagnostic reads the same.
                escaped = true
                i += 1
                guard i < b.count else { throw fail("unterminated string") }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    guard b.count - i >= 4 else { throw fail("invalid \\u escape") }
                    for _ in 0..<4 {
                        guard JSONByteParser.hexDigit(b[i]) != nil else { throw fail("invalid \\u escape") }
                        i += 1
                    }
                default:
                    throw fail("invalid escape")
                }
                continue
            }
            if c < 0x20 { throw fail("control character in string") }
            i += 1
        }
    }
}
