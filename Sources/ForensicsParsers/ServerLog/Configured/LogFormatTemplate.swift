import ForensicsCore

/// A line format a server writes as its operator configured it — nginx's `log_format`, Apache's
/// (and Fastly's) `LogFormat` directives — compiled to literal text and named fields, so that a
/// line is read by matching it against the template instead of guessing at its columns.
///
/// A field's value runs to the next literal text of the template (a quoted field to its closing
/// quote, skipping `\"`), and the last field to the end of the line. Two fields with nothing
/// between them cannot be told apart, so such a template is refused when it is compiled.
package struct LogFormatTemplate: Sendable, Equatable {
    package enum Piece: Sendable, Equatable {
        case literal([UInt8])
        /// A field by its template name (`time_local`, `%>s`, `%{X-Playback-Session-Id}i`); the
        /// number of spaces its value always holds (`21/Nov/2026:10:00:00 +0100` holds one), so
        /// that a space after it in the template is looked for after those.
        case field(name: String, spaces: Int)
    }

    package var pieces: [Piece]

    package init(pieces: [Piece]) throws(ConfigurationError) {
        var merged: [Piece] = []
        for piece in pieces {
            if case .literal(let b) = piece, case .literal(let a)? = merged.last {
                merged[merged.count - 1] = .literal(a + b)
            } else if case .literal(let b) = piece, b.isEmpty {
                continue
            } else {
                if case .field(let name, _) = piece, case .field(let previous, _)? = merged.last {
                    throw ConfigurationError.invalid(
                        "log format: '\(previous)' and '\(name)' have nothing between them, so a line cannot be split between them"
                    )
                }
                merged.append(piece)
            }
        }
        guard merged.contains(where: { if case .field = $0 { true } else { false } }) else {
            throw ConfigurationError.invalid("log format: no field in it")
        }
        self.pieces = merged
    }

    /// The fields of one line by template name, or nil when the line does not have the
    /// template's shape.
    package func match(_ line: ArraySlice<UInt8>) -> [(name: String, value: ArraySlice<UInt8>)]? {
        var rest = line
        if rest.last == 0x0D { rest = rest.dropLast() }
        var out: [(name: String, value: ArraySlice<UInt8>)] = []
        var k = 0
        while k < pieces.count {
            switch pieces[k] {
            case .literal(let text):
                guard rest.starts(with: text) else { return nil }
                rest = rest.dropFirst(text.count)
            case .field(let name, let spaces):
                guard k + 1 < pieces.count, case .literal(let next) = pieces[k + 1], let first = next.first else {
                    out.append((name, rest))
                    rest = rest[rest.endIndex...]
                    break
                }
                let quoted = rest.startIndex > line.startIndex && line[rest.startIndex - 1] == 0x22 && first == 0x22
                var i = rest.startIndex
                var spacesLeft = first == 0x20 ? spaces : 0
                var found: Int?
                while i < rest.endIndex {
                    let c = rest[i]
                    if quoted, c == 0x5C, i + 1 < rest.endIndex {
                        i += 2
                        continue
                    }
                    if c == first {
                        if spacesLeft > 0 {
                            spacesLeft -= 1
                        } else if rest[i...].starts(with: next) {
                            found = i
                            break
                        }
                    }
                    i += 1
                }
                guard let end = found else { return nil }
                out.append((name, rest[rest.startIndex..<end]))
                rest = rest[end...]
            }
            k += 1
        }
        return rest.isEmpty ? out : nil
    }

    /// nginx's `log_format` text: `$name` and `${name}` variables between literal text.
    package static func nginx(_ format: String) throws(ConfigurationError) -> LogFormatTemplate {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        let bytes = Array(format.utf8)
        var i = 0
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
        }
        while i < bytes.count {
            let c = bytes[i]
            guard c == UInt8(ascii: "$"), i + 1 < bytes.count else {
                literal.append(c)
                i += 1
                continue
            }
            var name: [UInt8] = []
            if bytes[i + 1] == UInt8(ascii: "{") {
                guard let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw ConfigurationError.invalid("log format: '${' without '}'")
                }
                name = Array(bytes[(i + 2)..<close])
                i = close + 1
            } else {
                var j = i + 1
                while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                name = Array(bytes[(i + 1)..<j])
                i = j
            }
            guard !name.isEmpty else {
                literal.append(c)
                continue
            }
            pieces.append(.literal(literal))
            literal = []
            let n = String(decoding: name, as: UTF8.self).lowercased()
            pieces.append(.field(name: n, spaces: nginxSpaces(n)))
        }
        pieces.append(.literal(literal))
        return try LogFormatTemplate(pieces: pieces)
    }

    static func nginxSpaces(_ name: String) -> Int {
        switch name {
        case "time_local": 1
        case "request": 2
        default: 0
        }
    }

    /// Apache's `LogFormat` text (Fastly's too): `%h`, `%>s`, `%{name}i`, `%{format}t`, `%%`;
    /// modifiers (`%400,501{User-agent}i`, `%<s`) read and dropped. `%t` is written in brackets,
    /// which become literal text around the field.
    package static func apache(_ format: String) throws(ConfigurationError) -> LogFormatTemplate {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        let bytes = Array(format.utf8)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x5C, i + 1 < bytes.count {
                // `\"` in a format given on a command line or read from a configuration.
                let next = bytes[i + 1]
                literal.append(next == UInt8(ascii: "t") ? 0x09 : next == UInt8(ascii: "n") ? 0x0A : next)
                i += 2
                continue
            }
            guard c == UInt8(ascii: "%"), i + 1 < bytes.count else {
                literal.append(c)
                i += 1
                continue
            }
            var j = i + 1
            if bytes[j] == UInt8(ascii: "%") {
                literal.append(c)
                i = j + 1
                continue
            }
            var final = ""
            // Status-code conditions and `!`, then `<` / `>`.
            while j < bytes.count,
                bytes[j] == UInt8(ascii: "!") || bytes[j] == UInt8(ascii: ",")
                    || (bytes[j] >= 0x30 && bytes[j] <= 0x39)
            {
                j += 1
            }
            while j < bytes.count, bytes[j] == UInt8(ascii: "<") || bytes[j] == UInt8(ascii: ">") {
                if bytes[j] == UInt8(ascii: ">") { final = ">" }
                j += 1
            }
            var argument: String?
            if j < bytes.count, bytes[j] == UInt8(ascii: "{") {
                // Fastly's `%{...}V` may hold a VCL expression with braces of its own.
                var depth = 0
                var k = j
                while k < bytes.count {
                    if bytes[k] == UInt8(ascii: "{") { depth += 1 }
                    if bytes[k] == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    k += 1
                }
                guard k < bytes.count else { throw ConfigurationError.invalid("log format: '%{' without '}'") }
                argument = String(decoding: bytes[(j + 1)..<k], as: UTF8.self)
                j = k + 1
            }
            guard j < bytes.count else {
                throw ConfigurationError.invalid("log format: '%' at the end, with no directive")
            }
            let letter = String(UnicodeScalar(bytes[j]))
            i = j + 1
            let name = "%" + final + (argument.map { "{\($0)}" } ?? "") + letter
            pieces.append(.literal(literal))
            literal = []
            if letter == "t", argument == nil {
                // `[21/Nov/2026:10:00:00 +0100]`
                pieces.append(.literal([0x5B]))
                pieces.append(.field(name: name, spaces: 1))
                pieces.append(.literal([0x5D]))
            } else {
                pieces.append(
                    .field(name: name, spaces: letter == "r" ? 2 : letter == "t" ? strftimeSpaces(argument) : 0))
            }
        }
        pieces.append(.literal(literal))
        // `%U%q`, the path and the query (`?…`, or nothing), is one field: there is no text between them.
        var joined: [Piece] = []
        for piece in pieces {
            if case .field("%q", _) = piece, case .field("%U", _)? = joined.last {
                joined[joined.count - 1] = .field(name: "%U%q", spaces: 0)
            } else if case .literal(let l) = piece, l.isEmpty {
                continue
            } else {
                joined.append(piece)
            }
        }
        return try LogFormatTemplate(pieces: joined)
    }

    /// A quoted value as the server escaped it (`\"`, `\\`, nginx's `\x22`), unescaped.
    package static func unescaped(_ value: ArraySlice<UInt8>) -> [UInt8] {
        guard value.contains(0x5C) else { return Array(value) }
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var i = value.startIndex
        let hex = UInt8.hexDigitValue
        while i < value.endIndex {
            let c = value[i]
            if c == 0x5C, i + 1 < value.endIndex {
                let n = value[i + 1]
                if n == 0x22 || n == 0x5C {
                    out.append(n)
                    i += 2
                    continue
                }
                if n == UInt8(ascii: "x"), i + 3 < value.endIndex, let h = hex(value[i + 2]), let l = hex(value[i + 3])
                {
                    out.append(h << 4 | l)
                    i += 4
                    continue
                }
            }
            out.append(c)
            i += 1
        }
        return out
    }

    /// The spaces a `%{format}t` time holds: those of its strftime format.
    static func strftimeSpaces(_ argument: String?) -> Int {
        guard var format = argument else { return 0 }
        for prefix in ["begin:", "end:"] where format.hasPrefix(prefix) {
            format = String(format.dropFirst(prefix.count))
        }
        return format.filter { $0 == " " }.count
    }
}
