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
        ("segment request https://cdn.example.com/v/s1.m4s → 404", "segment request https://cdn.example.com/v/s1.m4s → 404"),
    ])
    func headerValuesAreRedacted(input: String, expected: String) {
        #expect(Redactor().redact(input) == expected)
    }

    @Test func thePreCheckOnlySkipsTextsThatCannotNameAHeader() {
        #expect(!Redactor.mayNameSecretHeader("segment request https://cdn.example.com/v/s1.m4s 404"))
        #expect(!Redactor.mayNameSecretHeader(""))
        #expect(Redactor.mayNameSecretHeader("x AuThOrIzAtIoN y"))
        #expect(Redactor.mayNameSecretHeader("Set-COOKIE"))
        #expect(Redactor.mayNameSecretHeader("x-Api-Key"))
        // Non-ASCII text is lower-cased with Unicode rules: the Kelvin sign reads as `k`.
        #expect(Redactor.mayNameSecretHeader("Coo\u{212A}ie: secret"))
        #expect(Redactor.mayNameSecretHeader("→ X-API-\u{212A}EY: k"))
        #expect(Redactor.mayNameSecretHeader("durée → AUTHORIZATION: x"))
        #expect(!Redactor.mayNameSecretHeader("segment request https://cdn.example.com/v/s1.m4s → 404 in 0.045 s"))
    }
}

/// Query parameters percent-encoded inside another URL (a caching proxy's URL), in either case.
@Suite struct RedactorEncodedQueryTests {
    @Test(arguments: [
        ("http://localhost:1/https%3A%2F%2Fcdn%2Ecom%2Fa%3Ftoken%3DSECRET/KTVHTTPCachePlaceHolder/x", "%3Ftoken%3DREDACTED/"),
        ("http://localhost:1/request?url=https%3a%2f%2fcdn.com%2fa%3fx%3d1%26sig%3dSECRET%26y%3d2", "%26sig%3dREDACTED%26y%3d2"),
        ("http://localhost:1/request?url=https%3A%2F%2Fcdn.com%2Fa%3Fpage%3D2", "%3Fpage%3D2"),
    ])
    func encodedParametersAreRedacted(text: String, expected: String) {
        let out = Redactor().redact(text)
        #expect(out.contains(expected), "\(out)")
        #expect(!out.contains("SECRET"))
    }
}
