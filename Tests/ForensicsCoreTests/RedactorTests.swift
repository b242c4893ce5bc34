@testable import ForensicsCore
import Testing

/// Header values are redacted whatever the letter case; the byte pre-check that skips texts
/// without such headers must never skip one that has them.
@Suite struct RedactorHeaderTests {
    @Test(arguments: [
        ("Authorization: Bearer abc.def", "Authorization: REDACTED"),
        ("AUTHORIZATION: Bearer abc", "AUTHORIZATION: REDACTED"),
        ("proxy-authorization = Basic dXNlcjpwYXNz;", "proxy-authorization = REDACTED;"),
        ("set-cookie=session=1; Path=/", "set-cookie=REDACTED; Path=/"),
        (#"{"Cookie":"a=b"}"#, #"{"Cookie":"REDACTED"}"#),
        (#""X-API-KEY":"k-123""#, #""X-API-KEY":"REDACTED""#),
        ("request → Authorization: Bearer abc", "request → Authorization: REDACTED"),
        (
            "segment request https://cdn.example.com/v/s1.m4s → 404",
            "segment request https://cdn.example.com/v/s1.m4s → 404"
        ),
    ])
    func headerValuesAreRedacted(input: String, expected: String) {
        #expect(Redactor().redact(input) == expected)
    }

    /// Texts that name a secret header in any letter case are redacted; the Kelvin sign reads as
    /// `k` (as case-insensitive matching reads it), so it cannot be used to evade redaction.
    @Test(arguments: [
        ("x AuThOrIzAtIoN: y", "x AuThOrIzAtIoN: REDACTED"),
        ("Set-COOKIE: a=1", "Set-COOKIE: REDACTED"),
        ("x-Api-Key: k", "x-Api-Key: REDACTED"),
        ("Coo\u{212A}ie: secret", "Coo\u{212A}ie: REDACTED"),
        ("→ X-API-\u{212A}EY: k", "→ X-API-\u{212A}EY: REDACTED"),
        ("durée → AUTHORIZATION: x", "durée → AUTHORIZATION: REDACTED"),
        (
            "segment request https://cdn.example.com/v/s1.m4s → 404 in 0.045 s",
            "segment request https://cdn.example.com/v/s1.m4s → 404 in 0.045 s"
        ),
        ("", ""),
    ])
    func anyLetterCase(input: String, expected: String) {
        #expect(Redactor().redact(input) == expected)
    }
}

/// Every form a secret takes in the logs users send (the hostile-bundle list): the planted value
/// is gone, what is not secret stays.
@Suite struct RedactorFormsTests {
    @Test(arguments: [
        // Every cookie, not only the first; Set-Cookie attributes.
        ("Cookie: REDACTED; token=PLANTED1", "Cookie: REDACTED"),
        ("Cookie: a=1; b=PLANTED1", "Cookie: REDACTED"),
        ("Set-Cookie: CloudFront-Key-Pair-Id=PLANTED1; Path=/; Secure", "Set-Cookie: REDACTED"),
        (#""Set-Cookie" = "CloudFront-Signature=PLANTED1; Path=/";"#, #""Set-Cookie" = "REDACTED";"#),
        // Header spellings.
        ("Authorization : Bearer PLANTED1", "Authorization : REDACTED"),
        (#"{"authorization": "Bearer PLANTED1", "accept": "*/*"}"#, #"{"authorization": "REDACTED", "accept": "*/*"}"#),
        (#"{\"Authorization\":\"Bearer PLANTED1\"}"#, #"{\"Authorization\":\"REDACTED\"}"#),
        ("x-auth-token: PLANTED1", "x-auth-token: REDACTED"),
        (#""x-api-key":"PLANTED1""#, #""x-api-key":"REDACTED""#),
        // URL credentials, fragments, paths, matrix parameters.
        ("https://user:PLANTED1@cdn.example.com/a.m3u8", "https://REDACTED@cdn.example.com/a.m3u8"),
        (
            "https://cdn.example.com/a.m3u8#access_token=PLANTED1",
            "https://cdn.example.com/a.m3u8#access_token=REDACTED"
        ),
        (
            "https://cdn.example.com/hdnts=exp=1~acl=%2f*~hmac=PLANTED1/a.m3u8",
            "https://cdn.example.com/hdnts=REDACTED/a.m3u8"
        ),
        ("https://cdn.example.com/p/1/ks/PLANTED1/a.m3u8", "https://cdn.example.com/p/1/ks/REDACTED/a.m3u8"),
        ("https://cdn.example.com/a.m3u8?ks=PLANTED1&x=1", "https://cdn.example.com/a.m3u8?ks=REDACTED&x=1"),
        ("https://cdn.example.com/a;jsessionid=PLANTED1?x=1", "https://cdn.example.com/a;jsessionid=REDACTED?x=1"),
        // Platform signatures and percent-encoded names.
        ("https://c.example.com/a.ts?auth_key=PLANTED1", "https://c.example.com/a.ts?auth_key=REDACTED"),
        ("https://c.example.com/a.ts?sign=PLANTED1&t=5", "https://c.example.com/a.ts?sign=REDACTED&t=5"),
        ("https://c.example.com/a.ts?wowzatokenhash=PLANTED1", "https://c.example.com/a.ts?wowzatokenhash=REDACTED"),
        ("https://c.example.com/a.ts?hmac=PLANTED1", "https://c.example.com/a.ts?hmac=REDACTED"),
        ("https://c.example.com/a.ts?client_secret=PLANTED1", "https://c.example.com/a.ts?client_secret=REDACTED"),
        ("https://c.example.com/a.ts?%74oken=PLANTED1&q=2", "https://c.example.com/a.ts?%74oken=REDACTED&q=2"),
        (
            "https://c.example.com/a.ts?x-amz-security-token=PLANTED1",
            "https://c.example.com/a.ts?x-amz-security-token=REDACTED"
        ),
        // What must stay: the playback session identifier, ordinary parameters, attribute lists.
        ("X-Playback-Session-Id: 6C1D0F0B", "X-Playback-Session-Id: 6C1D0F0B"),
        ("https://c.example.com/a.ts?quality=hd&page=2", "https://c.example.com/a.ts?quality=hd&page=2"),
        (
            #"#EXT-X-KEY:METHOD=AES-128,URI="https://k.example.com/k1",KEYFORMAT="identity""#,
            #"#EXT-X-KEY:METHOD=AES-128,URI="https://k.example.com/k1",KEYFORMAT="identity""#
        ),
        ("https://c.example.com/tracks/1/a.ts", "https://c.example.com/tracks/1/a.ts"),
        ("https://c.example.com/img@2x.png", "https://c.example.com/img@2x.png"),
    ])
    func plantedSecretIsGone(input: String, expected: String) {
        let out = Redactor().redact(input)
        #expect(out == expected)
        #expect(!out.contains("PLANTED1"))
        // Redaction is idempotent: a redacted text is left as it is.
        #expect(Redactor().redact(out) == out)
    }
}

/// Query parameters percent-encoded inside another URL (a caching proxy's URL), in either case.
@Suite struct RedactorEncodedQueryTests {
    @Test(arguments: [
        (
            "http://localhost:1/https%3A%2F%2Fcdn%2Ecom%2Fa%3Ftoken%3DSECRET/KTVHTTPCachePlaceHolder/x",
            "%3Ftoken%3DREDACTED/"
        ),
        (
            "http://localhost:1/request?url=https%3a%2f%2fcdn.com%2fa%3fx%3d1%26sig%3dSECRET%26y%3d2",
            "%26sig%3dREDACTED%26y%3d2"
        ),
        ("http://localhost:1/request?url=https%3A%2F%2Fcdn.com%2Fa%3Fpage%3D2", "%3Fpage%3D2"),
    ])
    func encodedParametersAreRedacted(text: String, expected: String) {
        let out = Redactor().redact(text)
        #expect(out.contains(expected), "\(out)")
        #expect(!out.contains("SECRET"))
    }
}

/// Control and bidi characters become `\u{…}` text, everything else is kept scalar for scalar —
/// also in a long run of them (binary junk in a log line), which is built in one pass.
@Suite struct VisibleControlsTests {
    static func reference(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let replace =
                (v < 0x20 && v != 0x09 && v != 0x0A) || (v >= 0x7F && v <= 0x9F) || v == 0x061C || v == 0x200E
                || v == 0x200F || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
            out += replace ? "\\u{\(String(v, radix: 16, uppercase: true))}" : String(scalar)
        }
        return out
    }

    static let texts = [
        "plain", "tab\tand\nline", "esc\u{1B}[31mred", "del\u{7F}", "c1\u{85}\u{9F}",
        "bidi\u{202E}evil\u{2066}x\u{2069}",
        "e\u{301}\u{1B}combining", "日本\u{200F}語", "\u{0}\u{1}\u{2}", "\u{061C}", "emoji 👩‍👩‍👧 \u{1B}",
    ]

    @Test(arguments: texts)
    func matchesTheScalarRule(text: String) {
        #expect(Redactor.visibleControls(text) == Self.reference(text))
    }

    @Test func aLongRunOfControlsIsReplacedWhole() {
        let junk = String(repeating: "\u{1B}\u{0}a\u{85}", count: 50_000)
        let out = Redactor.visibleControls(junk)
        #expect(out == Self.reference(junk))
        #expect(!out.unicodeScalars.contains { $0.value < 0x20 })
    }
}

/// AWS access key ids pasted into prose (an SDK's error, `aws configure list`) carry no parameter
/// name: the id's own shape is the evidence. Near misses: a longer run of capitals, an id inside
/// a word, too short.
@Suite struct RedactorAWSKeyIDTests {
    @Test(arguments: [
        (
            "SignatureDoesNotMatch for AKIAIOSFODNN7EXAMPLE on s3", "SignatureDoesNotMatch for REDACTED on s3"
        ),
        ("access_key ASIAY34FZKBOKMUTVV7A (session)", "access_key REDACTED (session)"),
        ("id=AKIAIOSFODNN7EXAMPLE.", "id=REDACTED."),
        ("AKIAIOSFODNN7EXAMPLEX stays", "AKIAIOSFODNN7EXAMPLEX stays"),
        ("XAKIAIOSFODNN7EXAMPLE stays", "XAKIAIOSFODNN7EXAMPLE stays"),
        ("AKIAIOSFODNN7EXAMPL stays", "AKIAIOSFODNN7EXAMPL stays"),
        ("AKIAiosfodnn7example stays", "AKIAiosfodnn7example stays"),
    ])
    func accessKeyIDs(input: String, expected: String) {
        #expect(Redactor().redact(input) == expected)
    }
}
