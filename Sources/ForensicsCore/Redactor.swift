import Foundation

/// Removes secrets from log-derived text before it goes into a report: signed-URL query
/// parameters (`token`, `sig`, `signature`, `key`, `auth`, `Policy`, `Key-Pair-Id`, `X-Amz-*`,
/// …), JWT-shaped values, `skd://` key identifiers and `Authorization`/`Cookie` header values.
/// Reports are pasted into tickets and shared with partners; a customer's credentials must not be.
public struct Redactor: Sendable {
    public var enabled: Bool
    public static let placeholder = "REDACTED"

    /// Query parameter names (lower-cased) whose values are secrets.
    static let secretParameters: Set<String> = [
        "token", "sig", "signature", "key", "auth", "policy", "key-pair-id", "hdnts", "hdnea", "access_token",
        "api_key", "apikey", "jwt", "password", "secret", "session", "st", "expires_signature", "credential",
        // CDN and platform signing: Aliyun `auth_key`, Tencent `sign`, Kaltura `ks`, Wowza, HMACs, OAuth.
        "auth_key", "sign", "ks", "wowzatokenhash", "hmac", "client_secret",
    ]

    public init(enabled: Bool = true) { self.enabled = enabled }

    public func redact(_ text: String) -> String {
        guard enabled else { return text }
        var s = redactQueryParameters(text)
        s = redactEncodedQueryParameters(s)
        s = redactSKD(s)
        s = redactJWTs(s)
        s = redactHeaders(s)
        return s
    }

    static func isSecretName(_ name: Substring) -> Bool {
        let lower = name.lowercased()
        return secretParameters.contains(lower) || lower.hasPrefix("x-amz-") || lower.hasSuffix("token")
            || lower.hasSuffix("signature")
    }

    func redactQueryParameters(_ text: String) -> String {
        // Parameters are read only inside a query, after a `?`.
        guard text.utf8.contains(UInt8(ascii: "?")), text.utf8.contains(UInt8(ascii: "=")) else { return text }
        var out = ""
        var i = text.startIndex
        var inQuery = false
        while i < text.endIndex {
            let c = text[i]
            if c == "?" { inQuery = true }
            if c == " " || c == "\n" || c == "\"" || c == "<" || c == ">" { inQuery = false }
            out.append(c)
            i = text.index(after: i)
            guard inQuery, c == "?" || c == "&" || c == ";" else { continue }
            // Read NAME=VALUE after the separator.
            guard let eq = text[i...].firstIndex(where: { $0 == "=" || $0 == "&" || $0 == " " || $0 == "#" }),
                text[eq] == "="
            else { continue }
            let name = text[i..<eq]
            guard Self.isSecretName(name) else { continue }
            let valueStart = text.index(after: eq)
            let valueEnd = text[valueStart...].firstIndex(where: { "& \n\"#<>".contains($0) }) ?? text.endIndex
            out += name + "=" + Self.placeholder
            i = valueEnd
        }
        return out
    }

    /// Query parameters of a URL carried percent-encoded inside another URL — a caching proxy's
    /// URL holds the origin URL as `…%3Ftoken%3DSECRET…` (KTVHTTPCache 3.x path, 1.x/2.x `url=`):
    /// `%3F`/`%26` open a parameter, `%3D` ends its name, and the value runs to the next `%26`,
    /// `%23`, `/`, `&` or delimiter.
    func redactEncodedQueryParameters(_ text: String) -> String {
        guard Self.containsBytes(text, "%3D") || Self.containsBytes(text, "%3d") else { return text }
        let chars = Array(text.unicodeScalars)
        // `%XY`, X and Y compared with the letters of `hex` (upper case) in any case.
        func isEscape(_ i: Int, _ hex: StaticString) -> Bool {
            guard i + 2 < chars.count, chars[i] == "%" else { return false }
            let h = hex.utf8Start
            func same(_ c: Unicode.Scalar, _ expected: UInt8) -> Bool {
                c.value == UInt32(expected) || (expected >= 0x41 && expected <= 0x5A && c.value == UInt32(expected | 0x20))
            }
            return same(chars[i + 1], h[0]) && same(chars[i + 2], h[1])
        }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            guard isEscape(i, "3F") || isEscape(i, "26") else {
                out.append(chars[i])
                i += 1
                continue
            }
            out.append(contentsOf: chars[i...(i + 2)])
            i += 3
            // NAME up to %3D (a name holds no delimiter).
            var j = i
            while j < chars.count, !isEscape(j, "3D"), !" \n\"<>&/?#%".unicodeScalars.contains(chars[j]) { j += 1 }
            guard isEscape(j, "3D"), j > i else { continue }
            let name = String(String.UnicodeScalarView(chars[i..<j]))
            out.append(contentsOf: chars[i..<(j + 3)])
            i = j + 3
            guard Self.isSecretName(Substring(name)) else { continue }
            var k = i
            while k < chars.count, !isEscape(k, "26"), !isEscape(k, "23"), !" \n\"<>&/#".unicodeScalars.contains(chars[k]) { k += 1 }
            out.append(contentsOf: Self.placeholder.unicodeScalars)
            i = k
        }
        return String(out)
    }

    func redactSKD(_ text: String) -> String {
        guard Self.containsBytes(text, "skd://") else { return text }
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: "skd://") {
            out += rest[..<r.upperBound] + Self.placeholder
            rest = rest[r.upperBound...].drop(while: { !" \n\"'<>,;)]}".contains($0) })
        }
        return out + rest
    }

    func redactJWTs(_ text: String) -> String {
        guard Self.containsBytes(text, "eyJ") else { return text }
        var out = ""
        var rest = Substring(text)
        while let r = rest.range(of: "eyJ") {
            out += rest[..<r.lowerBound]
            let token = rest[r.lowerBound...].prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
            if token.split(separator: ".", omittingEmptySubsequences: false).count >= 3, token.count >= 20 {
                out += Self.placeholder
            } else {
                out += token
            }
            rest = rest[token.endIndex...]
        }
        return out + rest
    }

    /// Every header name below contains one of these, in any letter case.
    static let headerNameCores: [[UInt8]] = ["authorization", "cookie", "x-api-key"].map { Array($0.utf8) }

    /// True when the text may name a secret header: one of the name cores appears in the text
    /// once letter case is folded. ASCII letters are folded byte by byte. Of all non-ASCII
    /// characters only the Kelvin sign (U+212A, bytes E2 84 AA) lower-cases to a letter of the
    /// cores (`k`), and Foundation's case-insensitive search matches it, so it is read as `k`
    /// and redaction cannot be evaded with it. (İ lower-cases to `i` plus a combining dot, which
    /// cannot complete a match; ß, ſ and ligatures fold to letters the cores do not use.)
    static func mayNameSecretHeader(_ text: String) -> Bool {
        var folded: [UInt8] = []
        folded.reserveCapacity(text.utf8.count)
        var text = text  // withUTF8 needs a var; a native string is not copied
        text.withUTF8 { b in
            var i = 0
            while i < b.count {
                let c = b[i]
                if c == 0xE2, i + 2 < b.count, b[i + 1] == 0x84, b[i + 2] == 0xAA {
                    folded.append(UInt8(ascii: "k"))
                    i += 3
                    continue
                }
                folded.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
                i += 1
            }
        }
        return headerNameCores.contains { core in
            guard folded.count >= core.count else { return false }
            for start in 0...(folded.count - core.count) where folded[start] == core[0] {
                if core.indices.allSatisfy({ folded[start + $0] == core[$0] }) { return true }
            }
            return false
        }
    }

    /// Whether the text holds this ASCII byte sequence (for the cheap tests that let most texts
    /// skip a redaction pass). Pass literals of two characters or more: a one-character
    /// `StaticString` may be stored as a scalar, without UTF-8 bytes.
    static func containsBytes(_ text: String, _ needle: StaticString) -> Bool {
        let m = needle.utf8CodeUnitCount
        var text = text
        return text.withUTF8 { b in
            guard b.count >= m else { return false }
            let n = UnsafeBufferPointer(start: needle.utf8Start, count: m)
            for start in 0...(b.count - m) where b[start] == n[0] {
                if (1..<m).allSatisfy({ b[start + $0] == n[$0] }) { return true }
            }
            return false
        }
    }

    func redactHeaders(_ text: String) -> String {
        // Twenty-five case-insensitive Foundation searches per text were over half of triage's
        // time; almost no report text names one of these headers.
        guard Self.mayNameSecretHeader(text) else { return text }
        var out = text
        for name in ["Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization", "X-Api-Key"] {
            for sep in [": ", " = ", "\":\"", "=", ":"] {
                let needle = name + sep
                var searchFrom = out.startIndex
                while let r = out.range(of: needle, options: .caseInsensitive, range: searchFrom..<out.endIndex) {
                    let valueStart = out[r.upperBound...].firstIndex(where: { $0 != " " }) ?? out.endIndex
                    let valueEnd = out[valueStart...].firstIndex(where: { "\n;\"".contains($0) }) ?? out.endIndex
                    if out[valueStart..<valueEnd] == Substring(Self.placeholder) || valueStart == valueEnd {
                        searchFrom = valueEnd
                        continue
                    }
                    let startOffset = out.distance(from: out.startIndex, to: valueStart)
                    out.replaceSubrange(valueStart..<valueEnd, with: Self.placeholder)
                    searchFrom = out.index(out.startIndex, offsetBy: startOffset + Self.placeholder.count)
                }
            }
        }
        return out
    }
}
