import ForensicsCore

/// Reads the text `-[NSError description]` prints — `Error Domain=D Code=N "text"
/// UserInfo={Key=value, NSUnderlyingError=0x… {Error Domain=… Code=… "…"}}` — into an error with
/// its chain of underlying errors, outermost first.
///
/// Lenient where Foundation varies (a description printed without quotes, `UserInfo=0x… {`,
/// a domain with spaces in it), strict where it matters: a domain followed by ` Code=` and a
/// signed number, or it is not an `NSError`. Nesting is followed to `maxDepth` levels.
package enum NSErrorDescription {
    /// How deep `NSUnderlyingError` is followed: chains in the wild are two or three deep.
    package static let maxDepth = 8

    /// The first `NSError` printed in `text`, or nil.
    package static func parse(_ text: Substring) -> ErrorInfo? {
        guard let start = text.fastRange(of: "Error Domain=") else { return nil }
        return parseError(text[start.lowerBound...], depth: 0)
    }

    /// Parses from `Error Domain=`: the error, then the chain in its `UserInfo`.
    private static func parseError(_ text: Substring, depth: Int) -> ErrorInfo? {
        guard text.hasPrefix("Error Domain="), let codeRange = text.fastRange(of: " Code=") else { return nil }
        let domain = text[text.index(text.startIndex, offsetBy: 13)..<codeRange.lowerBound]
        guard !domain.isEmpty, domain.count <= 200, !domain.contains("\n") else { return nil }
        var rest = text[codeRange.upperBound...]
        var digits = rest.prefix { $0 == "-" || $0 == "+" || $0.isASCII && $0.isNumber }
        if digits.count > 12 { digits = digits.prefix(12) }
        guard let code = Int(digits) else { return nil }
        rest = rest.dropFirst(digits.count)
        var description: String?
        if rest.hasPrefix(" \"") {
            let (quoted, after) = quotedString(rest.dropFirst(2))
            description = quoted == "(null)" ? nil : quoted
            rest = after
        }
        var underlying: [ErrorInfo] = []
        var userInfo: Substring?
        if let info = rest.range(of: "UserInfo="), rest[..<info.lowerBound].allSatisfy({ $0 == " " }) {
            if let open = rest[info.upperBound...].firstIndex(of: "{") {
                userInfo = balanced(rest[open...])
            }
        }
        if let userInfo {
            if description == nil {
                description = value(of: "NSLocalizedDescription", in: userInfo)
            }
            if let reason = value(of: "NSLocalizedFailureReason", in: userInfo), reason != description {
                description = description.map { "\($0) (\(reason))" } ?? reason
            }
            if depth < maxDepth, let key = userInfo.range(of: "NSUnderlyingError="),
                let inner = userInfo[key.upperBound...].range(of: "Error Domain="),
                let nested = parseError(userInfo[inner.lowerBound...], depth: depth + 1)
            {
                underlying = nested.chain
            }
        }
        return ErrorInfo(
            domain: String(domain), code: code, description: description.map { String($0.prefix(2000)) },
            underlying: underlying)
    }

    /// The text of a quoted string after its opening quote (`\"` kept as a quote), and what follows
    /// its closing one. An unclosed quote runs to the end of the line.
    private static func quotedString(_ text: Substring) -> (String, Substring) {
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "\\", text.index(after: i) < text.endIndex {
                out.append(text[text.index(after: i)])
                i = text.index(i, offsetBy: 2)
                continue
            }
            if c == "\"" { return (out, text[text.index(after: i)...]) }
            if c == "\n" { break }
            out.append(c)
            i = text.index(after: i)
        }
        return (out, text[i...])
    }

    /// From an opening `{` to its closing brace (quotes respected), or to the end when unclosed.
    private static func balanced(_ text: Substring) -> Substring {
        var depth = 0
        var inQuote = false
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "\\" {
                i = text.index(i, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                continue
            }
            if c == "\"" { inQuote.toggle() }
            if !inQuote {
                if c == "{" { depth += 1 }
                if c == "}" {
                    depth -= 1
                    if depth == 0 { return text[...i] }
                }
            }
            i = text.index(after: i)
        }
        return text
    }

    /// A top-level `Key=value` of a `UserInfo` dictionary: the value to the next `, ` or `}`.
    private static func value(of key: String, in userInfo: Substring) -> String? {
        guard let r = userInfo.range(of: key + "=") else { return nil }
        let rest = userInfo[r.upperBound...]
        let end = rest.range(of: ", ")?.lowerBound ?? rest.lastIndex(of: "}") ?? rest.endIndex
        let v = rest[..<end].trimmingCharacters(in: " \"")
        return v.isEmpty || v == "(null)" ? nil : String(v.prefix(2000))
    }
}
