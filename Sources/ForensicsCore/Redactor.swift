/// Removes secrets from log-derived text: signed-URL parameters wherever a URL carries them
/// (query, path, matrix `;name=`, fragment, percent-encoded inside a proxy URL), credentials in
/// `scheme://user:password@host`, JWT-shaped values, `skd://` key identifiers, Kaltura `/ks/…`
/// path segments, and the values of secret headers (`Authorization`, `Cookie`, `Set-Cookie`,
/// `x-auth-token`, `x-api-key`, …) written as `Name: value`, `Name : value`, `"name": "value"` or
/// `"Name" = "value";`.
///
/// Why one byte scanner: the pipeline redacts every record right after parsing (see `redact(_:)`
/// on `Record`), so the common case — a text with nothing to redact — must cost one pass over its
/// bytes and no allocation. A secret is found at its separator (`=`, `:`, `@`, `%3D`), by reading
/// the name just before it; the value after it is replaced by `REDACTED`.
/// Reports are pasted into tickets and shared with partners; a customer's credentials must not be.
public struct Redactor: Sendable {
    public var enabled: Bool
    public static let placeholder = "REDACTED"

    public init(enabled: Bool = true) { self.enabled = enabled }

    public func redact(_ text: String) -> String {
        guard enabled, !text.isEmpty else { return text }
        var copy = text  // withUTF8 needs a var; a native string is not copied
        return copy.withUTF8 { bytes -> String in
            var scanner = RedactionScanner(bytes)
            scanner.scan()
            guard !scanner.edits.isEmpty else { return text }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var at = 0
            for edit in scanner.edits {
                out.append(contentsOf: bytes[at..<edit.lowerBound])
                out.append(contentsOf: Self.placeholder.utf8)
                at = edit.upperBound
            }
            out.append(contentsOf: bytes[at...])
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// A record's place as `file:line`, the file's path redacted on its own: redacting the
    /// joined text read `session_token.jsonl:12` as a credential named `session_token.jsonl`
    /// and replaced the line (probe M), so a citation lost where it points.
    /// Line 0 stands for the whole file (a file not read, an archive refused): the file alone,
    /// since `file:0` reads as a line that does not exist.
    public func redact(_ location: SourceLocation) -> String {
        location.line > 0 ? "\(redact(location.file)):\(location.line)" : redact(location.file)
    }

    /// A citation and what it says (`file:line: message`): each part cleaned on its own, for the
    /// reason `redact(_: SourceLocation)` gives.
    public func clean(_ location: SourceLocation, _ message: String) -> String {
        let file = clean(location.file)
        return "\(location.line > 0 ? "\(file):\(location.line)" : file): \(clean(message))"
    }

    /// The pipeline stage's treatment of one log text: control and bidi-override characters made
    /// visible (always — a terminal escape or a right-to-left override in a log must neither act on
    /// a terminal nor disguise what a report shows), then secrets redacted (when enabled).
    public func clean(_ text: String) -> String {
        let visible = Self.visibleControls(text)
        return enabled ? redact(visible) : visible
    }

    /// Whether `clean(_:)` may change the text (true may be a false alarm, false never is): the
    /// same two byte passes without building anything. Why: most texts of a log need no change,
    /// and a record whose every text passes is then neither copied out of its payload nor rebuilt
    /// (see `needsCleaning(_:)` on `Record`).
    public func mayChange(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        var copy = text  // withUTF8 needs a var; a native string is not copied
        return copy.withUTF8 { bytes in
            if Self.isInert(bytes) { return false }
            if Self.mayHaveControls(bytes) { return true }
            guard enabled else { return false }
            var scanner = RedactionScanner(bytes)
            scanner.scan()
            return !scanner.edits.isEmpty
        }
    }

    /// Whether no pass of `clean` can change the text, from its bytes alone: printable ASCII
    /// without `=`, `:`, `@`, `%`, `/` and `.` — every redaction starts at one of those (a
    /// parameter or header separator, credentials, an escape, `skd://`, `/ks/`, a JWT's dots) and
    /// every replaced control character is outside printable ASCII. Module tags, pointers and
    /// most log messages are such texts; they are then checked by one table look-up a byte.
    static func isInert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        inertBytes.withUnsafeBufferPointer { table in
            var i = 0
            while i < bytes.count {
                let kind = table[Int(bytes[i])]
                if kind != 0 {
                    // `b`/`B`: only `Bearer` or `Basic` (a credential in free text) can start here;
                    // `p`, `r`, `a`, `i`, `c`: only `password`, the credential names and (`A`) an AWS access key id.
                    if kind == 1 || RedactionScanner.startsCredentialScheme(bytes, at: i)
                        || RedactionScanner.startsPasswordWord(bytes, at: i)
                        || (bytes[i] == UInt8(ascii: "A") && RedactionScanner.awsAccessKeyIDEnd(bytes, at: i) != nil)
                    {
                        return false
                    }
                }
                i += 1
            }
            return true
        }
    }

    /// 0: no pass of `clean` starts at this byte; 1: one may; 2: one may if a credential scheme
    /// word (`Bearer`, `Basic`) starts here.
    static let inertBytes: [UInt8] = (0..<256).map { value in
        // b: Bearer, Basic; p, r, a, i, c: password and credential names in prose.
        if [0x42, 0x62, 0x50, 0x70, 0x52, 0x72, 0x41, 0x61, 0x49, 0x69, 0x43, 0x63].contains(value) { return 2 }
        return value >= 0x20 && value < 0x7F && !"=:@%/.".utf8.contains(UInt8(value)) ? 0 : 1
    }

    /// The lead bytes of every character `visibleControls` replaces (C0, DEL, and the first
    /// byte of C1 controls and of the bidi characters): a superset, checked before decoding.
    static func mayHaveControls(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func lead(_ b: UInt8) -> Bool {
            b < 0x20 && b != 0x09 && b != 0x0A || b == 0x7F || b == 0xC2 || b == 0xE2 || b == 0xD8
        }
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return false }
        // Eight bytes at a time: a word with no byte below 0x20, none equal to 0x7F and none at
        // or above 0x80 holds no lead byte; any other word is looked at byte by byte.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        while i + 8 <= bytes.count {
            let w = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let below20 = (w &- ones &* 0x20) & ~w & high
            let x = w ^ (ones &* 0x7F)
            let del = (x &- ones) & ~x & high
            if below20 | del | (w & high) != 0 {
                for k in i..<(i + 8) where lead(bytes[k]) { return true }
            }
            i += 8
        }
        while i < bytes.count {
            if lead(bytes[i]) { return true }
            i += 1
        }
        return false
    }

    /// Replaces C0/C1 control characters (but tab and line feed), DEL and the bidirectional
    /// formatting characters (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) with `\u{XXXX}`.
    public static func visibleControls(_ text: String) -> String {
        var copy = text  // withUTF8 needs a var; a native string is not copied
        let needed = copy.withUTF8(mayHaveControls)
        guard needed else { return text }
        // Written as UTF-8 bytes into one growing buffer: appending to a `UnicodeScalarView`
        // copied the whole text so far at each replacement, so a line of control characters
        // (binary junk in a log) took time quadratic in its length — minutes for a few MiB.
        var out: [UInt8] = []
        out.reserveCapacity(copy.utf8.count + 64)
        var changed = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let control = (v < 0x20 && v != 0x09 && v != 0x0A) || (v >= 0x7F && v <= 0x9F)
            let bidi =
                v == 0x061C || v == 0x200E || v == 0x200F || (v >= 0x202A && v <= 0x202E)
                || (v >= 0x2066 && v <= 0x2069)
            if control || bidi {
                changed = true
                out.append(contentsOf: "\\u{".utf8)
                out.append(contentsOf: String(v, radix: 16, uppercase: true).utf8)
                out.append(UInt8(ascii: "}"))
            } else {
                UTF8.encode(scalar) { out.append($0) }
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : text
    }

    /// Query, path, cookie or fragment parameter names (lower-cased, percent-decoded) whose values
    /// are secrets.
    static let secretParameters: [[UInt8]] = [
        "token", "sig", "signature", "key", "auth", "policy", "key-pair-id", "hdnts", "hdnea", "access_token",
        "api_key", "apikey", "jwt", "password", "passwd", "pwd", "secret", "session", "st", "expires_signature",
        "credential", "code", "id_token", "refresh_token",
        // CDN and platform signing: Aliyun `auth_key`, Tencent `sign`, Kaltura `ks`, Wowza, HMACs, OAuth.
        "auth_key", "sign", "ks", "wowzatokenhash", "hmac", "client_secret",
        // Akamai (`__gda__`, `__token__` are matched without their underscores; Token Auth 2.0),
        // Azure SAS (`sig` with the expiry and permissions it signs), nginx secure_link, Wowza,
        // Limelight, Cloudflare, Edgio and other signature parameters.
        "gda", "hdntl", "hdnet", "se", "sp", "skoid", "sktid", "md5", "hash", "lsig", "verify", "secure", "bearer",
        "urlprefix", "keyname", "private_key", "license_key",
        // Signed-URL access key ids (S3 SigV2, Google, Aliyun OSS), Wowza's `wmsAuthSign`, DRM
        // licence data (FairPlay's SPC and CKC, PallyCon and other `customdata` tokens), Google
        // Media CDN's signed cookie, one-time and single sign-on tokens (probe B, F6 and F7).
        "awsaccesskeyid", "googleaccessid", "ossaccesskeyid", "wmsauthsign", "pass", "spc", "ckc", "customdata",
        "pallycon-customdata-v2", "edge-cache-cookie", "ticket", "samlresponse", "otp", "x_auth", "skey", "ip", "phone",
        // Personal data (README, "Personal data"): e-mail, advertising and device identifiers, client addresses.
        "email", "e-mail", "mail", "idfa", "idfv", "gaid", "aaid", "adid", "rdid", "ifa", "udid", "msisdn",
        "client_ip", "clientip", "c-ip", "cip", "remote_addr", "x-forwarded-for",
        // Probe F, round five: short and plural credential names, and phone numbers.
        "cred", "creds", "credentials", "pw", "x-auth", "tel", "telephone", "phone_number", "phonenumber", "mobile",
        "msisdn_hash",
        // camelCase keys, lower-cased (`secretKey`, `accessKey`, `authKey`). Not every name ending
        // in `key`: Foundation's userInfo keys (`NSErrorFailingURLStringKey`) hold the evidence.
        "secretkey", "accesskey", "authkey", "signingkey", "sharedkey", "accountkey", "masterkey", "encryptionkey",
        "clientkey", "appkey", "hmackey", "licensekey", "subscriptionkey", "accesskeyid", "secretaccesskey",
        // Probe K, round six.
        "passphrase",
    ].map { Array($0.utf8) }

    static let secretParameterSuffixes: [[UInt8]] = [
        "token", "signature", "secret", "password", "passwd", "sessionid", "sessid", "key-pair-id", "api_key",
        "api-key",
        "apikey", "credential", "_key", "-key", "privatekey", "advertising_id", "advertisingid", "device_id",
        "deviceid", "_email", "-email",
    ].map { Array($0.utf8) }

    /// Header names that are never query parameters.
    static let headerOnlyNames: [[UInt8]] = ["cookie", "set-cookie", "authorization", "proxy-authorization"].map {
        Array($0.utf8)
    }

    static let secretHeaderParts: [[UInt8]] = [
        "authorization", "token", "secret", "password", "api-key", "apikey", "api_key", "passwd", "passphrase",
        "bearer",
    ].map { Array($0.utf8) }

    /// Names that are secrets as JSON keys and `name: value` pairs too (a licence body logged in
    /// the console: `{"spc":"AAAA…"}`).
    static let secretKeyNames: [[UInt8]] = ["spc", "ckc", "customdata"].map { Array($0.utf8) }

    /// The fixed prefixes and suffixes the name tests use, made once.
    enum Names {
        static let xAmz = Array("x-amz-".utf8)
        static let xGoog = Array("x-goog-".utf8)
        static let cloudFront = Array("cloudfront-".utf8)
        static let dashAuth = Array("-auth".utf8)
        static let xAuth = Array("x-auth".utf8)
        static let signature = Array("signature".utf8)
        static let xAmzSecurity = Array("x-amz-security".utf8)
        static let dashIP = Array("-ip".utf8)
        static let forwarded = Array("forwarded".utf8)
    }

    /// Whether a header name names a credential. `X-Playback-Session-Id` is deliberately not one:
    /// it is the identifier sessions are correlated by, not a secret.
    static func isSecretHeader(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = raw.first, isLetter(first) else { return false }
        return withDecodedName(raw, isSecretHeaderName) ?? false
    }

    /// Whether a parameter name (raw bytes, possibly percent-encoded) names a secret.
    static func isSecretParameter(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = raw.first, isLetter(first) || first == UInt8(ascii: "%") || first == UInt8(ascii: "_")
        else { return false }
        return withDecodedName(raw, isSecretParameterName) ?? false
    }

    /// What a name before `=` names (raw bytes): a secret header, one of the names that can only be
    /// a header, a secret parameter. The name is decoded once for the three.
    static func classify(
        _ raw: UnsafeBufferPointer<UInt8>
    ) -> (
        secretHeader: Bool, headerOnly: Bool, secretParameter: Bool
    ) {
        guard let first = raw.first else { return (false, false, false) }
        let headerLike = isLetter(first)
        let parameterLike = headerLike || first == UInt8(ascii: "%") || first == UInt8(ascii: "_")
        return withDecodedName(raw) { name in
            let secretHeader = headerLike && isSecretHeaderName(name)
            return (
                secretHeader, secretHeader && name.isOne(of: headerOnlyNames),
                parameterLike && isSecretParameterName(name)
            )
        } ?? (false, false, false)
    }

    /// The tests on a decoded (percent-decoded, lower-cased) name.
    static func isSecretHeaderName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.isOne(of: headerOnlyNames) || name.isOne(of: secretKeyNames) || name.hasByteSuffix(Names.dashAuth)
            || name.hasBytePrefix(Names.xAuth)
            || name.hasByteSuffix(Names.signature) || name.hasBytePrefix(Names.xAmzSecurity)
            || secretHeaderParts.contains { name.containsBytes($0) }
            // Client addresses are personal data (README, "Personal data"): the headers proxies and
            // CDNs forward them in (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`, `True-Client-IP`,
            // `CF-Connecting-IP`, every `*-Client-IP`).
            || name.hasByteSuffix(Names.dashIP) || name.containsBytes(Names.forwarded)
    }

    /// A decoded parameter name: also without its surrounding underscores (`__token__`), and as
    /// either part of an array-style name (`token[]`, `auth[token]`).
    static func isSecretParameterName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        var lower = 0
        var upper = name.count
        while lower < upper, name[lower] == UInt8(ascii: "_") { lower += 1 }
        while upper > lower, name[upper - 1] == UInt8(ascii: "_") { upper -= 1 }
        let core = UnsafeBufferPointer(rebasing: name[lower..<upper])
        if upper > lower, core[core.count - 1] == UInt8(ascii: "]"),
            let open = core.firstIndex(of: UInt8(ascii: "["))
        {
            let outer = UnsafeBufferPointer(rebasing: core[..<open])
            let inner = UnsafeBufferPointer(rebasing: core[(open + 1)..<(core.count - 1)])
            return (!outer.isEmpty && isPlainSecretParameterName(outer))
                || (!inner.isEmpty && isPlainSecretParameterName(inner))
        }
        return isPlainSecretParameterName(core)
    }

    static func isPlainSecretParameterName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.isOne(of: secretParameters) || name.hasBytePrefix(Names.xAmz) || name.hasBytePrefix(Names.cloudFront)
            || name.hasBytePrefix(Names.xGoog) || secretParameterSuffixes.contains { name.hasByteSuffix($0) }
    }

    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    /// Runs `body` with the name percent-decoded and ASCII lower-cased, in a buffer on the stack
    /// (names are tested at every `=` and `:` of every text: allocating one each time was a good
    /// part of the pipeline's redaction stage); nil when the name is empty or too long to be a name.
    static func withDecodedName<R>(_ raw: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard !raw.isEmpty, raw.count <= 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { out in
            var n = 0
            var i = 0
            while i < raw.count, n < out.count {
                var c = raw[i]
                if c == UInt8(ascii: "%"), i + 2 < raw.count, let h = hexValue(raw[i + 1]), let l = hexValue(raw[i + 2])
                {
                    c = h << 4 | l
                    i += 3
                } else {
                    i += 1
                }
                out[n] = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
                n += 1
            }
            return body(UnsafeBufferPointer(rebasing: out[0..<n]))
        }
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}

/// One pass over a text's bytes collecting the byte ranges to replace, in order and disjoint.
struct RedactionScanner {
    let b: UnsafeBufferPointer<UInt8>
    var edits: [Range<Int>] = []
    /// Inside a URL's query (after `?`, up to white space or a quote): values end at `&`, not `/`.
    var inQuery = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) { b = bytes }

    static let placeholder = Array(Redactor.placeholder.utf8)
    static let skdScheme = Array("skd://".utf8)

    /// What `scan` does at each byte value, 0 for nothing: a table rather than a switch on the
    /// byte, because most bytes of a text are none of these and the loop over them is then one
    /// load and one test (the switch cost ~30 instructions a byte on a proxy log's texts).
    enum Action: UInt8 {
        case none = 0, openQuery, closeQuery, equals, colon, userInfo, encodedEquals, jwt, skd, pathSecret,
            credentialScheme, passwordWord
    }

    static let actions: [Action] = (0..<256).map { value -> Action in
        switch UInt8(value) {
        case UInt8(ascii: "?"): .openQuery
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\""),
            UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            .closeQuery
        case UInt8(ascii: "="): .equals
        case UInt8(ascii: ":"): .colon
        case UInt8(ascii: "@"): .userInfo
        case UInt8(ascii: "%"): .encodedEquals
        case UInt8(ascii: "e"): .jwt
        case UInt8(ascii: "s"), UInt8(ascii: "S"): .skd
        case UInt8(ascii: "/"): .pathSecret
        case UInt8(ascii: "b"), UInt8(ascii: "B"): .credentialScheme
        case UInt8(ascii: "p"), UInt8(ascii: "P"), UInt8(ascii: "r"), UInt8(ascii: "R"), UInt8(ascii: "a"),
            UInt8(ascii: "A"), UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "c"), UInt8(ascii: "C"):
            .passwordWord
        default: .none
        }
    }

    mutating func scan() {
        Self.actions.withUnsafeBufferPointer { table in
            var i = 0
            while i < b.count {
                let action = table[Int(b[i])]
                if action == .none {
                    i += 1
                    continue
                }
                var next = i + 1
                switch action {
                case .none: break
                case .openQuery: inQuery = true
                case .closeQuery: inQuery = false
                case .equals: next = equals(at: i)
                case .colon: next = colon(at: i)
                case .userInfo: next = userInfo(at: i)
                case .encodedEquals: next = encodedEquals(at: i)
                case .jwt: next = jwt(at: i)
                case .skd: next = skd(at: i)
                case .pathSecret: next = pathSecret(at: i)
                case .credentialScheme: next = credentialScheme(at: i)
                case .passwordWord: next = passwordWord(at: i)
                }
                i = max(next, i + 1)
            }
        }
    }

    // MARK: - Byte classes

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "-")
            || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: "%")
    }

    static func isSpace(_ c: UInt8) -> Bool { c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") }

    static func endsLine(_ c: UInt8) -> Bool { c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") }

    /// Ends a parameter value: separators, white space, quotes, markup and JSON escapes; in a
    /// path (outside a query) also the next path segment or matrix parameter.
    func endsValue(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "&"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
            UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "#"),
            UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\\"), UInt8(ascii: "|"), UInt8(ascii: ")"),
            UInt8(ascii: "]"), UInt8(ascii: "}"):
            return true
        case UInt8(ascii: "/"), UInt8(ascii: "?"): return !inQuery
        default: return false
        }
    }

    /// The start of the name that ends just before `end` (name bytes only; the Kelvin sign, which
    /// case-insensitive matching reads as `k`, counts as one).
    func nameStart(before end: Int) -> Int {
        var s = end
        while s > 0 {
            if Self.isNameByte(b[s - 1]) {
                s -= 1
            } else if s >= 3, b[s - 1] == 0xAA, b[s - 2] == 0x84, b[s - 3] == 0xE2 {
                s -= 3
            } else {
                break
            }
            if end - s > 256 { break }
        }
        return s
    }

    /// Runs `body` with the name's bytes, the Kelvin sign read as `k` (copied only when present).
    func withName<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard b[range].contains(0xE2) else { return body(UnsafeBufferPointer(rebasing: b[range])) }
        var bytes: [UInt8] = []
        var i = range.lowerBound
        while i < range.upperBound {
            if i + 2 < range.upperBound, b[i] == 0xE2, b[i + 1] == 0x84, b[i + 2] == 0xAA {
                bytes.append(UInt8(ascii: "k"))
                i += 3
            } else {
                bytes.append(b[i])
                i += 1
            }
        }
        return bytes.withUnsafeBufferPointer(body)
    }

    func isPlaceholder(_ range: Range<Int>) -> Bool {
        range.count == Self.placeholder.count && zip(b[range], Self.placeholder).allSatisfy { $0 == $1 }
    }

    /// Records a replacement unless it is empty or already the placeholder; returns where to go on.
    mutating func replace(_ range: Range<Int>) -> Int {
        guard !range.isEmpty, !isPlaceholder(range) else { return range.upperBound }
        let lower = max(range.lowerBound, edits.last?.upperBound ?? 0)
        if lower < range.upperBound { edits.append(lower..<range.upperBound) }
        return range.upperBound
    }

    // MARK: - Forms

    /// `name=value` (query, path, cookie, fragment) or a header written `Name = value` /
    /// `"Name" = "value";` (Foundation's dictionary description).
    mutating func equals(at i: Int) -> Int {
        if i > 0, b[i - 1] == UInt8(ascii: "]") { return arrayParameter(closedAt: i - 1, equals: i) }
        guard let header = headerName(before: i) else { return i + 1 }
        // `Name = value` or `"Name" = …` is a header; `name=value` is a parameter unless the name
        // can only be a header (`set-cookie=…` in a dictionary description).
        let spaced = header.quoted || header.name.upperBound < i
        let name = withName(header.name, Redactor.classify)
        if name.secretHeader, spaced || name.headerOnly {
            return headerValue(after: i, toEndOfLine: false)
        }
        guard !spaced, name.secretParameter || isSignedURLHash(header.name) else { return i + 1 }
        // `password="…"`, `token='…'` in prose (an error's description): the quoted value.
        if i + 1 < b.count, b[i + 1] == UInt8(ascii: "\"") || b[i + 1] == UInt8(ascii: "'") {
            return quotedValue(from: i + 1)
        }
        if i + 2 < b.count, b[i + 1] == UInt8(ascii: "\\"), b[i + 2] == UInt8(ascii: "\"") {
            return quotedValue(from: i + 2)
        }
        var e = i + 1
        while e < b.count, !endsValue(b[e]) { e += 1 }
        if isNSErrorCode(name: header.name, value: (i + 1)..<e) { return e }
        return replace((i + 1)..<e)
    }

    /// Limelight/Edgio MediaVault signs a URL with `e` (the expiry) and `h` (the hash): `h` is a
    /// secret in a query that also has an `e` parameter (alone, `h=720` is a height).
    func isSignedURLHash(_ name: Range<Int>) -> Bool {
        guard name.count == 1, b[name.lowerBound] | 0x20 == UInt8(ascii: "h"), name.lowerBound > 0,
            b[name.lowerBound - 1] == UInt8(ascii: "&") || b[name.lowerBound - 1] == UInt8(ascii: "?")
        else { return false }
        var j = name.lowerBound - 1
        let floor = max(0, j - 4096)
        while j > floor {
            let c = b[j]
            if c == UInt8(ascii: " ") || endsLine(c) || c == UInt8(ascii: "\"") { return false }
            if c == UInt8(ascii: "?") || c == UInt8(ascii: "&"), j + 2 < b.count, b[j + 1] | 0x20 == UInt8(ascii: "e"),
                b[j + 2] == UInt8(ascii: "=")
            {
                return true
            }
            if c == UInt8(ascii: "?") { break }
            j -= 1
        }
        // The `e` may follow: `?h=…&e=…`.
        var k = name.upperBound
        let ceiling = min(b.count, k + 4096)
        while k < ceiling, !endsValue(b[k]) || b[k] == UInt8(ascii: "&") {
            if b[k] == UInt8(ascii: "&"), k + 2 < b.count, b[k + 1] | 0x20 == UInt8(ascii: "e"),
                b[k + 2] == UInt8(ascii: "=")
            {
                return true
            }
            k += 1
        }
        return false
    }

    func endsLine(_ c: UInt8) -> Bool { Self.endsLine(c) }

    /// `Error Domain=CoreMediaErrorDomain Code=-12642`: an `NSError`'s code, a number the error
    /// is known by, not an authorization code. Only `Code` spelled so, after a space, a signed
    /// number, and `Domain=` just before with nothing but the domain's name between: a `Code=`
    /// further along (`…NSErrorFailingURLKey=https://sso/cb?Code=482913`) is a parameter.
    func isNSErrorCode(name: Range<Int>, value: Range<Int>) -> Bool {
        guard name.count == 4, name.lowerBound > 0, b[name.lowerBound - 1] == 0x20,
            b[name.lowerBound] == UInt8(ascii: "C"), b[name.lowerBound + 1] == UInt8(ascii: "o"),
            b[name.lowerBound + 2] == UInt8(ascii: "d"), b[name.lowerBound + 3] == UInt8(ascii: "e"),
            !value.isEmpty, value.count <= 11
        else { return false }
        for k in value where !(b[k] >= 0x30 && b[k] <= 0x39) && !(k == value.lowerBound && b[k] == UInt8(ascii: "-")) {
            return false
        }
        // Back over the domain's name (letters, digits, spaces, `.`, `_`) to `Domain=`.
        let pattern = Array("Domain=".utf8)
        var k = name.lowerBound - 1
        let floor = max(0, name.lowerBound - 256)
        while k > floor {
            let c = b[k - 1]
            if c == UInt8(ascii: "=") {
                let start = k - pattern.count
                return start >= 0 && b[start..<k].elementsEqual(pattern)
            }
            guard Self.isNameByte(c) || c == 0x20 || c == UInt8(ascii: ".") else { return false }
            k -= 1
        }
        return false
    }

    /// `name[]=value` or `outer[inner]=value` (PHP- and Rails-style parameters): a secret when
    /// either name is one.
    mutating func arrayParameter(closedAt close: Int, equals i: Int) -> Int {
        var open = close
        while open > 0, close - open < 64, b[open - 1] != UInt8(ascii: "[") {
            guard Self.isNameByte(b[open - 1]) else { return i + 1 }
            open -= 1
        }
        guard open > 0, b[open - 1] == UInt8(ascii: "[") else { return i + 1 }
        let outerEnd = open - 1
        let outer = nameStart(before: outerEnd)..<outerEnd
        let inner = open..<close
        let secret =
            (!outer.isEmpty && withName(outer, Redactor.isSecretParameter))
            || (!inner.isEmpty && withName(inner, Redactor.isSecretParameter))
        guard secret else { return i + 1 }
        var e = i + 1
        while e < b.count, !endsValue(b[e]) { e += 1 }
        return replace((i + 1)..<e)
    }

    /// `Name: value` and `"name": "value"` headers.
    mutating func colon(at i: Int) -> Int {
        guard let header = headerName(before: i) else { return i + 1 }
        // A header, or a quoted key (JSON, a dictionary dump) naming a secret or personal datum:
        // `"client_ip": "…"`, `"idfa": "…"`.
        guard
            withName(header.name, Redactor.isSecretHeader)
                || (header.quoted && withName(header.name, Redactor.isSecretParameter))
        else { return i + 1 }
        return headerValue(after: i, toEndOfLine: true)
    }

    /// A header name before a separator at `i`: spaces, a closing quote (maybe JSON-escaped) and the
    /// name are skipped back over.
    func headerName(before i: Int) -> (name: Range<Int>, quoted: Bool)? {
        var e = i
        while e > 0, Self.isSpace(b[e - 1]) { e -= 1 }
        var quoted = false
        if e > 0, b[e - 1] == UInt8(ascii: "\"") || b[e - 1] == UInt8(ascii: "'") {
            quoted = true
            e -= 1
            if e > 0, b[e - 1] == UInt8(ascii: "\\") { e -= 1 }
        }
        let s = nameStart(before: e)
        guard s < e else { return nil }
        return (s..<e, quoted)
    }

    /// A header's value: quoted (to the closing quote) or bare (to the end of the line for `:`,
    /// to `;` or the end of the line for Foundation's `=` form).
    mutating func headerValue(after i: Int, toEndOfLine: Bool) -> Int {
        var s = i + 1
        while s < b.count, Self.isSpace(b[s]) { s += 1 }
        if s < b.count, b[s] == UInt8(ascii: "\\"), s + 1 < b.count, b[s + 1] == UInt8(ascii: "\"") { s += 1 }
        if s < b.count, b[s] == UInt8(ascii: "\"") || b[s] == UInt8(ascii: "'") {
            return quotedValue(from: s)
        }
        var e = s
        while e < b.count, !Self.endsLine(b[e]), toEndOfLine || b[e] != UInt8(ascii: ";") { e += 1 }
        // A value that a report cell or JSON string closes stays inside it.
        while e > s, b[e - 1] == UInt8(ascii: "\"") || Self.isSpace(b[e - 1]) { e -= 1 }
        return replace(s..<e)
    }

    /// The value inside the quote at `open` (`"` or `'`), to its closing quote, an escape or the
    /// end of the line; returns where to go on.
    ///
    /// Escapes inside are part of the value (`A\/B`, `PW\"X`: JSON writes `/` as `\/`): only an
    /// unescaped closing quote ends it; a value opened by an escaped quote (JSON inside a JSON
    /// string, `\"token\":\"…\"`) ends at the escaped quote.
    mutating func quotedValue(from open: Int) -> Int {
        let quote = b[open]
        let escapedOpen = open > 0 && b[open - 1] == UInt8(ascii: "\\")
        var e = open + 1
        while e < b.count, !Self.endsLine(b[e]) {
            if b[e] == UInt8(ascii: "\\") {
                if escapedOpen, e + 1 < b.count, b[e + 1] == quote { break }
                e += 2
                continue
            }
            if b[e] == quote, !escapedOpen { break }
            e += 1
        }
        return replace((open + 1)..<min(e, b.count))
    }

    /// `scheme://user:password@host`: everything between `://` and `@` is a credential; otherwise
    /// `local@domain.tld` in text is an e-mail address (personal data), redacted whole. A name in a
    /// path (`/poster@2x.png`) is neither.
    mutating func userInfo(at i: Int) -> Int {
        var s = i
        while s > 0, i - s < 1024 {
            let c = b[s - 1]
            if c == UInt8(ascii: "/") || c == UInt8(ascii: "?") || c == UInt8(ascii: "#") || c == UInt8(ascii: "@")
                || c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\"")
                || c == UInt8(ascii: "<")
            {
                break
            }
            s -= 1
        }
        if s >= 3, s < i, b[s - 1] == UInt8(ascii: "/"), b[s - 2] == UInt8(ascii: "/"), b[s - 3] == UInt8(ascii: ":") {
            _ = replace(s..<i)
            return i + 1
        }
        return email(at: i)
    }

    static func isEmailLocalByte(_ c: UInt8) -> Bool {
        isTokenByte(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "%")
    }

    /// `local@domain.tld`: a local part of e-mail bytes, a domain of dot-separated labels ending
    /// in a top-level label of two or more letters (a sentence's closing full stop is not part of
    /// it). In a path (`/poster@2x.png`) a name whose "domain" is a scale (`2x`) or ends in a file
    /// extension is a file name, not an address.
    mutating func email(at i: Int, domainFrom domain: Int? = nil) -> Int {
        var s = i
        while s > 0, i - s < 64, Self.isEmailLocalByte(b[s - 1]) { s -= 1 }
        guard s < i else { return i + 1 }
        var e = domain ?? (i + 1)
        var labels: [Range<Int>] = []
        var labelStart = e
        while e < b.count, e - i < 256 {
            let c = b[e]
            if c == UInt8(ascii: ".") {
                guard e > labelStart else { break }
                labels.append(labelStart..<e)
                labelStart = e + 1
            } else if !(Redactor.isLetter(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-")) {
                break
            }
            e += 1
        }
        if e > labelStart { labels.append(labelStart..<e) }
        // The top-level label is the last one of two or more letters; what runs on after it
        // (`jane@example.com-2026-11-21`, `jane@example.com.2026-11-21`: a bundle named after its
        // reporter) is not part of the address, and does not hide it.
        var last: Range<Int>?
        var j = labels.count - 1
        while j >= 1, last == nil {
            let label = labels[j]
            var letters = label.lowerBound
            while letters < label.upperBound, Redactor.isLetter(b[letters]) { letters += 1 }
            if letters - label.lowerBound >= 2, letters == label.upperBound || b[letters] == UInt8(ascii: "-") {
                last = label.lowerBound..<letters
            }
            j -= 1
        }
        guard let last else { return i + 1 }
        // `seg@1080p.ts`, `poster@2x.png`: a file name, wherever it stands (no top-level domain
        // is a media or web file extension).
        let tld = String(decoding: b[last], as: UTF8.self).lowercased()
        if Self.fileExtensions.contains(tld) { return i + 1 }
        if s > 0, b[s - 1] == UInt8(ascii: "/") {
            let first = b[labels[0]]
            let isScale =
                first.count >= 2 && first.last.map { $0 | 0x20 == UInt8(ascii: "x") } == true
                && first.dropLast().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            if isScale { return i + 1 }
        }
        return replace(s..<last.upperBound)
    }

    /// Extensions that make `name@x.ext` in a path a file name.
    static let fileExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "heic", "m3u8", "m3u", "ts", "mp4", "m4s", "m4a", "m4v",
        "aac", "mp3", "vtt", "webvtt", "key", "json", "js", "css", "html", "htm", "xml", "txt", "cmfv", "cmfa",
    ]

    /// `%3D` ending a parameter name that `%3F`, `%26`, `%23` or `%3B` opened: a URL carried
    /// percent-encoded inside another (a caching proxy's URL holds the origin URL so), or encoded
    /// twice or more (`%253D`, a signed URL in a redirect parameter of a redirect). The opener is
    /// encoded as many times as the `=`; the value runs to the next encoded separator or a delimiter.
    mutating func encodedEquals(at i: Int) -> Int {
        guard let equals = escape(at: i) else { return i + 1 }
        // An address written into a URL: `jane.doe%40example.com` (probe B, F5).
        if equals.code == UInt8(ascii: "@") { return email(at: i, domainFrom: i + equals.length) }
        guard equals.code == UInt8(ascii: "=") else { return i + equals.length }
        // Back over the name (escapes included: `token%5B%5D`) to the separator that opened it:
        // an escape of `?`, `&`, `#` or `;` encoded as often as the `=`, or (once encoded) a raw one.
        var s = i
        while s > 0, i - s < 256, Self.isNameByte(b[s - 1]) { s -= 1 }
        var nameStart: Int?
        var k = s
        while k < i {
            if b[k] == UInt8(ascii: "%"), let open = escape(at: k) {
                if open.depth == equals.depth,
                    Self.opensParameter(open.code)
                {
                    nameStart = k + open.length
                }
                k += open.length
            } else {
                k += 1
            }
        }
        if nameStart == nil, equals.depth == 0, s > 0,
            Self.opensParameter(b[s - 1])
        {
            nameStart = s
        }
        // A query logged on its own, as a field of a server log's row (CloudFront's
        // `cs-uri-query` holds `token%3D…` with no `?` before it): the name starts the field
        // (probe B, F4).
        if nameStart == nil, s == 0 || Self.isSpace(b[s - 1]) || b[s - 1] == UInt8(ascii: "\"") {
            nameStart = s
        }
        guard let start = nameStart, start < i, isSecretEncodedName(start..<i, depth: equals.depth)
        else { return i + equals.length }
        var e = i + equals.length
        while e < b.count {
            if b[e] == UInt8(ascii: "%"), let next = escape(at: e),
                next.code != UInt8(ascii: "?"), Self.opensParameter(next.code)
            {
                break
            }
            let c = b[e]
            if c == UInt8(ascii: "&") || c == UInt8(ascii: "/") || c == UInt8(ascii: "#") || c == UInt8(ascii: "?")
                || c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n")
                || c == UInt8(ascii: "\r") || c == UInt8(ascii: "\"")
                || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || c == UInt8(ascii: "\\")
            {
                break
            }
            e += 1
        }
        return replace((i + equals.length)..<e)
    }

    /// `?`, `&`, `#` or `;`: what a parameter's name follows.
    static func opensParameter(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "?") || c == UInt8(ascii: "&") || c == UInt8(ascii: "#") || c == UInt8(ascii: ";")
    }

    /// Whether a name encoded `depth` more times than its URL's own encoding names a secret: it is
    /// undone that many times, then tested as any parameter name (which undoes one more level and
    /// reads array forms such as `token[]`).
    func isSecretEncodedName(_ range: Range<Int>, depth: Int) -> Bool {
        guard range.count <= 256 else { return false }
        var name = Array(b[range])
        for _ in 0..<depth {
            var out: [UInt8] = []
            out.reserveCapacity(name.count)
            var j = 0
            while j < name.count {
                if name[j] == UInt8(ascii: "%"), j + 2 < name.count, let h = Redactor.hexValue(name[j + 1]),
                    let l = Redactor.hexValue(name[j + 2])
                {
                    out.append(h << 4 | l)
                    j += 3
                } else {
                    out.append(name[j])
                    j += 1
                }
            }
            name = out
        }
        return name.withUnsafeBufferPointer { Redactor.isSecretParameter($0) }
    }

    /// A percent escape at `i`, undone as many times as it was encoded (`%3D`, `%253D`,
    /// `%25253D`…): the byte it stands for, how many times `%` itself was encoded, its length.
    func escape(at i: Int) -> (code: UInt8, depth: Int, length: Int)? {
        guard i < b.count, b[i] == UInt8(ascii: "%") else { return nil }
        var at = i + 1
        var depth = 0
        while at + 1 < b.count, let h = Redactor.hexValue(b[at]), let l = Redactor.hexValue(b[at + 1]) {
            let code = h << 4 | l
            // `%25` followed by two more hex digits is an encoded `%`: one level deeper.
            if code == 0x25, depth < 8, at + 3 < b.count, Redactor.hexValue(b[at + 2]) != nil,
                Redactor.hexValue(b[at + 3]) != nil
            {
                depth += 1
                at += 2
                continue
            }
            return (code, depth, at + 2 - i)
        }
        return nil
    }

    /// `%XY` at `i`, with X and Y the upper-case hex digits given (either letter case matches).
    func isEscape(_ i: Int, _ x: UInt8, _ y: UInt8) -> Bool {
        guard i + 2 < b.count, b[i] == UInt8(ascii: "%") else { return false }
        return (b[i + 1] | 0x20) == (x | 0x20) && (b[i + 2] | 0x20) == (y | 0x20)
    }

    static func isTokenByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "-")
            || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
    }

    /// A JWT: `eyJ…` with three dot-separated parts, 20 bytes or more.
    mutating func jwt(at i: Int) -> Int {
        guard i + 2 < b.count, b[i + 1] == UInt8(ascii: "y"), b[i + 2] == UInt8(ascii: "J") else { return i + 1 }
        if i > 0, Self.isTokenByte(b[i - 1]) { return i + 1 }
        var e = i
        var dots = 0
        while e < b.count, Self.isTokenByte(b[e]) {
            if b[e] == UInt8(ascii: ".") { dots += 1 }
            e += 1
        }
        guard dots >= 2, e - i >= 20 else { return e }
        return replace(i..<e)
    }

    /// A FairPlay key identifier: everything after `skd://` up to a delimiter.
    mutating func skd(at i: Int) -> Int {
        // Called at every `s`: the second byte rules out almost all of them before the pattern.
        let pattern = Self.skdScheme
        guard i + pattern.count <= b.count, b[i + 1] | 0x20 == UInt8(ascii: "k") else { return i + 1 }
        for k in 0..<pattern.count where (b[i + k] | 0x20) != pattern[k] && b[i + k] != pattern[k] { return i + 1 }
        let s = i + pattern.count
        var e = s
        while e < b.count {
            let c = b[e]
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") || c == UInt8(ascii: "\"")
                || c == UInt8(ascii: "'") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || c == UInt8(ascii: ",")
                || c == UInt8(ascii: ";") || c == UInt8(ascii: ")") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}")
                || c == UInt8(ascii: "\\")
            {
                break
            }
            e += 1
        }
        return replace(s..<e)
    }

    /// Path segments that announce a secret in the next one: Kaltura's `/ks/<session>/`, and
    /// `/token/…/`, `/auth/…/`, `/hdnts/…/` the way token-authenticating CDNs and packagers put
    /// them in the path.
    static let secretPathSegments: [[UInt8]] = [
        "ks", "token", "tok", "auth", "authtoken", "auth_token", "access_token", "sig", "signature", "hmac", "jwt",
        "hdnts", "hdnea", "hdntl", "secure", "session", "sessionid",
    ].map { Array($0.utf8) }

    mutating func pathSecret(at i: Int) -> Int {
        // Called at every `/`: almost every segment is ruled out by its first letter.
        guard i + 3 < b.count else { return i + 1 }
        // The names' first two letters: ks, to, au, ac, si, se, hm, jw, hd.
        let second = b[i + 2] | 0x20
        switch b[i + 1] | 0x20 {
        case UInt8(ascii: "k"): guard second == UInt8(ascii: "s") else { return i + 1 }
        case UInt8(ascii: "t"): guard second == UInt8(ascii: "o") else { return i + 1 }
        case UInt8(ascii: "a"): guard second == UInt8(ascii: "u") || second == UInt8(ascii: "c") else { return i + 1 }
        case UInt8(ascii: "s"): guard second == UInt8(ascii: "i") || second == UInt8(ascii: "e") else { return i + 1 }
        case UInt8(ascii: "h"): guard second == UInt8(ascii: "m") || second == UInt8(ascii: "d") else { return i + 1 }
        case UInt8(ascii: "j"): guard second == UInt8(ascii: "w") else { return i + 1 }
        default: return i + 1
        }
        // A segment of 2 to 12 name bytes closed by `/`, compared without case with the names.
        var e = i + 1
        while e < b.count, e - i <= 13, Self.isTokenByte(b[e]) { e += 1 }
        guard e - i >= 3, e - i <= 13, e < b.count, b[e] == UInt8(ascii: "/") else { return i + 1 }
        let segment = (i + 1)..<e
        let isSecret = Self.secretPathSegments.contains { name in
            name.count == segment.count
                && zip(b[segment], name).allSatisfy { c, n in (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) == n }
        }
        guard isSecret else { return i + 1 }
        let s = e + 1
        var v = s
        while v < b.count,
            Self.isTokenByte(b[v]) || b[v] == UInt8(ascii: "%") || b[v] == UInt8(ascii: "=")
                || b[v] == UInt8(ascii: "~") || b[v] == UInt8(ascii: "+") || b[v] == UInt8(ascii: "!")
        {
            v += 1
        }
        guard v > s else { return i + 1 }
        _ = replace(s..<v)
        return v
    }

    /// Whether `Bearer ` or `Basic ` (any letter case, at a word's start) begins at `i`.
    static func startsCredentialScheme(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        // `be…` or `ba…`: the second byte rules out almost every `b` of a text.
        guard i + 6 < b.count else { return false }
        let second = b[i + 1] | 0x20
        guard second == UInt8(ascii: "e") || second == UInt8(ascii: "a") else { return false }
        if i > 0, Redactor.isLetter(b[i - 1]) || (b[i - 1] >= 0x30 && b[i - 1] <= 0x39) { return false }
        return startsWord(b, at: i, "bearer") || startsWord(b, at: i, "basic")
    }

    /// The lower-case `word` (any letter case in the text) followed by a space or a tab, at `i`.
    static func startsWord(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n < b.count else { return false }
        let w = word.utf8Start
        for k in 0..<n {
            let c = b[i + k]
            // Letters in any case; `_` and spaces as they are (`|0x20` would turn `_` into DEL).
            if (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != w[k] { return false }
        }
        return b[i + n] == UInt8(ascii: " ") || b[i + n] == UInt8(ascii: "\t")
    }

    /// `password`, `passwd` or `passphrase` as a word of prose, followed by a space.
    static func startsPasswordWord(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        passwordWordLength(b, at: i) != nil
    }

    /// The length of the password word or credential name at `i` (followed by a space), if one
    /// starts there.
    static func passwordWordLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        guard i + 6 < b.count else { return nil }
        if i > 0, Redactor.isLetter(b[i - 1]) || (b[i - 1] >= 0x30 && b[i - 1] <= 0x39) || b[i - 1] == 0x5F {
            return nil
        }
        // Up to three words, no array made (this runs at every `re…`, `ac…` of a text).
        func first(_ a: StaticString, _ b2: StaticString? = nil, _ c: StaticString? = nil) -> Int? {
            if startsWord(b, at: i, a) { return a.utf8CodeUnitCount }
            if let b2, startsWord(b, at: i, b2) { return b2.utf8CodeUnitCount }
            if let c, startsWord(b, at: i, c) { return c.utf8CodeUnitCount }
            return nil
        }
        // The second byte rules out almost every letter of a text before any word is compared.
        switch (b[i] | 0x20, b[i + 1] | 0x20) {
        case (UInt8(ascii: "p"), UInt8(ascii: "a")): return first("password", "passwd", "passphrase")
        // Probe L: credential names written into prose with a space, not a separator.
        case (UInt8(ascii: "r"), UInt8(ascii: "e")): return first("refresh_token")
        case (UInt8(ascii: "a"), UInt8(ascii: "c")): return first("access_token")
        case (UInt8(ascii: "a"), UInt8(ascii: "p")): return first("api_key", "apikey", "api key")
        case (UInt8(ascii: "i"), UInt8(ascii: "d")): return first("id_token")
        case (UInt8(ascii: "c"), UInt8(ascii: "l")): return first("client_secret")
        default: return nil
        }
    }

    /// The end of an AWS access key id at `i`: `AKIA` (long-term) or `ASIA` (temporary) and 16
    /// upper-case letters or digits, a word of its own. Why: it names the account and user a
    /// signed request came from, and it is pasted into prose (`aws configure` output, an SDK's
    /// error) with no parameter name before it.
    static func awsAccessKeyIDEnd(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let end = i + 20
        guard end <= b.count, b[i + 2] == UInt8(ascii: "I"), b[i + 3] == UInt8(ascii: "A"),
            b[i + 1] == UInt8(ascii: "K") || b[i + 1] == UInt8(ascii: "S")
        else { return nil }
        func alphanumeric(_ c: UInt8) -> Bool { Redactor.isLetter(c) || (c >= 0x30 && c <= 0x39) }
        if i > 0, alphanumeric(b[i - 1]) { return nil }
        if end < b.count, alphanumeric(b[end]) { return nil }
        for k in (i + 4)..<end {
            let c = b[k]
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) else { return nil }
        }
        return end
    }

    /// A password in prose (`… logged in with password hunter2x`, `refresh_token abc123…`): the
    /// word after it (and after an `is`), four bytes or more up to a space or quote. It may be a plain word ("password
    /// reset failed" loses "reset"): a word too many is redacted rather than a secret kept.
    mutating func passwordWord(at i: Int) -> Int {
        if b[i] == UInt8(ascii: "A"), let end = Self.awsAccessKeyIDEnd(b, at: i) { return replace(i..<end) }
        guard let length = Self.passwordWordLength(b, at: i) else { return i + 1 }
        var s = i + length
        func spaces() { while s < b.count, b[s] == UInt8(ascii: " ") || b[s] == UInt8(ascii: "\t") { s += 1 } }
        spaces()
        if s + 2 < b.count, b[s] | 0x20 == UInt8(ascii: "i"), b[s + 1] | 0x20 == UInt8(ascii: "s"), b[s + 2] == 0x20 {
            s += 3
            spaces()
        }
        var e = s
        while e < b.count, b[e] > 0x20, b[e] != UInt8(ascii: "\""), b[e] != UInt8(ascii: "'") { e += 1 }
        while e > s, b[e - 1] == UInt8(ascii: ".") || b[e - 1] == UInt8(ascii: ",") { e -= 1 }
        guard e - s >= 4 else { return s }
        return replace(s..<e)
    }

    /// A credential in free text (`… sent Bearer abc123…`, `Basic dXNlcjpw…`): the token after the
    /// scheme word, when it looks like one (6 or more token68 bytes with a digit, a symbol or both
    /// letter cases) — "basic information" and "the bearer of" stay.
    mutating func credentialScheme(at i: Int) -> Int {
        guard Self.startsCredentialScheme(b, at: i) else { return i + 1 }
        var s = i
        while s < b.count, b[s] != UInt8(ascii: " "), b[s] != UInt8(ascii: "\t") { s += 1 }
        while s < b.count, b[s] == UInt8(ascii: " ") || b[s] == UInt8(ascii: "\t") { s += 1 }
        var e = s
        var upper = false
        var lower = false
        var other = false
        while e < b.count {
            let c = b[e]
            if c >= 0x41 && c <= 0x5A {
                upper = true
            } else if c >= 0x61 && c <= 0x7A {
                lower = true
            } else if (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "~") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/")
                || c == UInt8(ascii: "=")
            {
                other = true
            } else {
                break
            }
            e += 1
        }
        // A sentence's closing full stop is not part of the token ("Bearer token." is prose).
        var end = e
        while end > s, b[end - 1] == UInt8(ascii: ".") { end -= 1 }
        if end < e {
            other = b[s..<end].contains { c in
                (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_")
                    || c == UInt8(ascii: "~") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/")
                    || c == UInt8(ascii: "=")
            }
        }
        // Six bytes or more (a short test token is a token too: probe K planted 7), with a digit,
        // a symbol or both letter cases: "the bearer of", "basic information" stay.
        guard end - s >= 6, other || (upper && lower) else { return s }
        return replace(s..<end)
    }
}

extension UnsafeBufferPointer<UInt8> {
    func isOne(of names: [[UInt8]]) -> Bool {
        names.contains { $0.count == count && $0.elementsEqual(self) }
    }

    func hasBytePrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && self[0..<prefix.count].elementsEqual(prefix)
    }

    func hasByteSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }

    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count, let first = needle.first else { return needle.isEmpty }
        for start in 0...(count - needle.count) where self[start] == first {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
