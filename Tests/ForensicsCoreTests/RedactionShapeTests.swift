@testable import ForensicsCore
import Testing

/// Secrets in the shapes the major clouds and CDNs give them (issue 30): every planted value is
/// gone, and the parts of the URL that are evidence (host, path, file) stay. Each shape is written
/// from the vendor's documented parameter names, not from a sample log.
@Suite struct RedactionShapeTests {
    static let shapes: [(String, String)] = [
        // Probe K, round six: an address that runs on into a bundle's name, `passwd:`.
        ("PLANTEDjane.doe@example.com-2026-11-21", "-2026-11-21"),
        ("upload PLANTEDjane.doe@example.com.2026-11-21 done", "2026-11-21 done"),
        ("user PLANTEDjane+video@example.co.uk-ios logged in", "-ios logged in"),
        ("login passwd: PLANTEDpw1 refused", "login passwd:"),
        // Probe L: prose and header-like forms.
        ("user bob logged in with password PLANTEDpassword now", "now"),
        ("the password is PLANTEDpw2, done", "done"),
        ("Bearer: PLANTEDtoken9", "Bearer"),
        ("Bearer\tPLANTEDtoken9 sent", "sent"),
        ("https://cdn.example.com/a.m3u8?user_passwd=PLANTEDpw3&seg=1", "seg=1"),
        ("KTVHCMacro: refresh_token PLANTEDrt1 saved", "saved"),
        ("api key PLANTEDak1 rejected", "rejected"),
        ("sent access_token PLANTEDat1", "sent"),
        ("client_secret PLANTEDcs1 in use", "in use"),
        // Probe F, round five: camelCase and short credential names, phone numbers, MediaVault.
        (
            "https://cdn.example.com/v/a.ts?secretKey=PLANTED1&accessKey=PLANTED2&authkey=PLANTED3&cred=PLANTED4&credentials=PLANTED5&x-auth=PLANTED6&pw=PLANTED7&seg=4",
            "seg=4"
        ),
        ("https://cdn.example.com/v/b.ts?e=1795255200&h=PLANTED8&tel=PLANTED9&phone_number=PLANTEDa", "e=1795255200"),
        ("https://cdn.example.com/v/b.ts?h=PLANTEDb&e=1795255200", "/v/b.ts"),
        // Quoted values in prose and dictionary dumps (an error's description, a console line).
        ("login failed password=\"PLANTEDc\" auth_token=\"PLANTEDd\" for user", "for user"),
        ("UserInfo={NSDescription=HTTP 403 password=\"PLANTEDe\" token='PLANTEDf'}", "HTTP 403"),
        ("license {'token': 'PLANTEDg', 'api_key': 'PLANTEDh'} refused", "refused"),
        ("'token' = 'PLANTEDi';", "'token'"),
        ("body {\\\"password\\\":\\\"PLANTEDj\\\"} sent", "sent"),
        // Escapes inside a quoted secret are part of it (review: `\/` and `\"` leaked the rest).
        (#"{"token":"PLANTEDk\/PLANTEDl\/PLANTEDm","n":1}"#, #""n":1"#),
        (#"login password="PLANTEDn\"PLANTEDo" done"#, "done"),
        (#"{\"token\":\"PLANTEDp\\/PLANTEDq\"} sent"#, "sent"),
        // Google Cloud Storage V4 signed URL: credential (a service account) and signature.
        (
            "https://storage.googleapis.com/b/o.m3u8?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=PLANTEDsa%40p.iam.gserviceaccount.com%2F20261124%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261124T000000Z&X-Goog-SignedHeaders=host&X-Goog-Signature=PLANTEDabc123",
            "storage.googleapis.com/b/o.m3u8"
        ),
        // Google Cloud CDN signed URL and cookie.
        ("https://cdn.example.com/v/a.m3u8?Expires=1&KeyName=k&Signature=PLANTEDsig", "/v/a.m3u8"),
        ("Cookie: Cloud-CDN-Cookie=URLPrefix=aHR0cHM6Ly9j:Expires=1:KeyName=k:Signature=PLANTEDsig", "Cookie"),
        // Azure shared access signature: the signature, and the expiry and permissions it signs.
        (
            "https://acct.blob.core.windows.net/c/a.m3u8?sv=2022-11-02&ss=b&srt=o&sp=PLANTEDr&se=PLANTED2026-12-01T00:00:00Z&spr=https&sig=PLANTED%2Bab%3D",
            "acct.blob.core.windows.net/c/a.m3u8"
        ),
        // Akamai: legacy `__gda__`, Token Auth 2.0 `hdnea`/`hdntl`/`hdnts` and `__token__`.
        ("https://a.akamaihd.net/i/x.m3u8?__gda__=PLANTED1700000000_abcdef", "a.akamaihd.net/i/x.m3u8"),
        ("https://a.akamaihd.net/i/x.m3u8?hdnea=st=1~exp=2~acl=/i/*~hmac=PLANTEDdeadbeef", "a.akamaihd.net/i/x.m3u8"),
        ("https://a.akamaihd.net/i/x.m3u8?hdntl=exp=1~acl=%2f*~data=hdntl~hmac=PLANTEDab", "/i/x.m3u8"),
        ("https://a.akamaihd.net/i/x.m3u8?__token__=exp=1~acl=/*~hmac=PLANTEDab", "/i/x.m3u8"),
        ("Set-Cookie: hdntl=exp=1~acl=%2f*~hmac=PLANTEDab; path=/", "Set-Cookie"),
        // nginx secure_link, Wowza, Limelight, Cloudflare, Edgio signature parameters.
        ("https://cdn.example.com/v/a.m3u8?md5=PLANTEDabc&expires=1700000000", "/v/a.m3u8"),
        ("https://cdn.example.com/v/a.m3u8?hash=PLANTEDabc", "/v/a.m3u8"),
        ("https://cdn.example.com/v/a.m3u8?lsig=PLANTEDabc", "/v/a.m3u8"),
        ("https://cdn.example.com/v/a.m3u8?verify=1700000000-PLANTEDabc", "/v/a.m3u8"),
        ("https://cdn.example.com/v/a.m3u8?secure=PLANTEDabc,1700000000", "/v/a.m3u8"),
        ("https://cdn.example.com/v/a.m3u8?ectoken=PLANTEDabc", "/v/a.m3u8"),
        // Array-style and nested parameter names.
        ("https://cdn.example.com/v/a.m3u8?token[]=PLANTEDabc", "/v/a.m3u8"),
        ("https://cdn.example.com/v/a.m3u8?auth[token]=PLANTEDabc&x=1", "x=1"),
        ("https://cdn.example.com/v/a.m3u8?token%5B%5D=PLANTEDabc", "/v/a.m3u8"),
        // Tokens as path segments.
        ("https://cdn.example.com/token/PLANTEDabc/v/a.m3u8", "/v/a.m3u8"),
        ("https://cdn.example.com/auth/PLANTEDabc/v/a.m3u8", "/v/a.m3u8"),
        ("https://cdn.example.com/v/a.m3u8;jsessionid=PLANTEDabc", "/v/a.m3u8"),
        // Key material named as such.
        ("https://cdn.example.com/v/a.m3u8?private_key=PLANTEDabc&license_key=PLANTEDdef", "/v/a.m3u8"),
        // A signed URL nested in a redirect parameter, percent-encoded twice (and three times).
        (
            "https://app.example.com/go?redirect=https%253A%252F%252Fcdn.example.com%252Fa.m3u8%253FSignature%253DPLANTEDabc%2526Key-Pair-Id%253DPLANTEDdef",
            "app.example.com/go?redirect="
        ),
        ("https://app.example.com/go?u=https%25253A%25252F%25252Fc%25252Fa%25253Ftoken%25253DPLANTEDabc", "/go?u="),
        // Credentials in free text (an error description, a console line).
        ("HTTP 401: request refused (sent Bearer PLANTEDabcdefgh123)", "HTTP 401: request refused"),
        ("HTTP 401: credentials Basic PLANTEDdXNlcjpwYXNz were refused", "were refused"),
        ("token refused: bearer=PLANTEDabcdefgh123", "token refused"),
        // Personal data: advertising and device ids, e-mail addresses, client addresses.
        ("https://ads.example.com/v?idfa=PLANTED-6D92078A-8246-4BA4-AE5B-76104861E7DC&w=1", "ads.example.com/v?"),
        ("https://ads.example.com/v?gaid=PLANTED-6D92&rdid=PLANTEDx&device_id=PLANTEDd&w=1", "w=1"),
        ("https://ads.example.com/v?idfv=PLANTEDx&advertising_id=PLANTEDy&udid=PLANTEDz", "ads.example.com/v?"),
        ("contact PLANTEDjohn.doe@example.com about it", "contact "),
        ("https://cdn.example.com/v/a.m3u8?email=PLANTEDjane%40example.com", "/v/a.m3u8"),
        ("X-Forwarded-For: 198.51.100.23, PLANTED", "X-Forwarded-For"),
        ("True-Client-IP: PLANTED198.51.100.23", "True-Client-IP"),
        (#""CF-Connecting-IP": "PLANTED2001:db8::1""#, "CF-Connecting-IP"),
        // Found in review: a sentence's full stop, an address in a path, array names and a raw `?`
        // inside a nested URL, personal data as JSON keys.
        ("write to PLANTEDjane@example.com.", "write to "),
        ("https://api.example.com/users/PLANTEDjane.doe@gmail.com/profile", "/profile"),
        ("https://p.example.com/r?u=https%3A%2F%2Fc%2Fa%3Ftoken%5B%5D%3DPLANTEDabc", "/r?u="),
        ("https://p.example.com/r?u=https%3A%2F%2Fc%2Fa%3Fx%3D1%26auth%5Btoken%5D%3DPLANTEDabc", "%3Fx%3D1"),
        ("https://cdn.example.com/a.m3u8?token%3DPLANTEDabc", "/a.m3u8?token"),
        (#"{"client_ip": "PLANTED198.51.100.23", "idfa": "PLANTED-6D92"}"#, "client_ip"),
        // Probe B: a query logged on its own as a server-log field (CloudFront `cs-uri-query`),
        // once and twice encoded; an address written into a URL; FairPlay licence data in the
        // console; signed-URL access key ids and DRM tokens by their vendors' names.
        ("2026-11-21\t/v/s1.ts\ttoken%3DPLANTEDabc\tHit", "/v/s1.ts"),
        ("2026-11-21\t/v/s1.ts\ttoken%253DPLANTEDabc\tHit", "\tHit"),
        ("2026-11-21\t/v/s1.ts\tSignature%3DPLANTEDsig%26Key-Pair-Id%3DPLANTEDkp\tHit", "\tHit"),
        ("https://cdn.example.com/v/s1.ts?viewer=PLANTEDjane.doe%40example.com&w=1", "w=1"),
        ("https://app.example.com/w?u=PLANTEDref.zq%2540example.com", "/w?u="),
        ("keyRequest failed for skd://k err=-42669 SPC=PLANTEDAAAAAVNQQ1NF", "err=-42669"),
        (#"license request body {"spc":"PLANTEDAAAAAkNL","ckc":"PLANTEDx"}"#, "license request body"),
        ("https://b.s3.amazonaws.com/a.m3u8?AWSAccessKeyId=PLANTEDAKIA&Expires=1&Signature=PLANTEDs", "a.m3u8"),
        ("https://storage.googleapis.com/b/a.m3u8?GoogleAccessId=PLANTEDsa&Signature=PLANTEDs", "a.m3u8"),
        ("https://b.oss-cn-hangzhou.aliyuncs.com/a.m3u8?OSSAccessKeyId=PLANTEDk&Signature=PLANTEDs", "a.m3u8"),
        ("https://w.example.com/live/a.m3u8?wmsAuthSign=PLANTEDc2VydmVy", "a.m3u8"),
        ("https://lic.example.com/fp?pallycon-customdata-v2=PLANTEDeyJ4&customdata=PLANTEDabc", "/fp?"),
        ("https://cdn.example.com/a.m3u8?user=a&pass=PLANTEDpw&phone=PLANTED%2B15551234567", "user=a"),
    ]

    @Test(arguments: shapes)
    func plantedSecretIsGone(input: String, kept: String) {
        let out = Redactor().redact(input)
        #expect(!out.contains("PLANTED"), "\(out)")
        #expect(out.contains(kept), "\(out)")
        #expect(Redactor().mayChange(input))
    }

    /// Header dictionaries (HAR, proxy dumps, metric events): client-address headers go whole.
    @Test func clientAddressHeadersAreRedacted() {
        let headers = Redactor().clean(headers: [
            "X-Forwarded-For": "198.51.100.23", "CF-Connecting-IP": "2001:db8::1", "Forwarded": "for=192.0.2.60",
            "Content-Type": "video/mp2t",
        ])
        #expect(headers["X-Forwarded-For"] == Redactor.placeholder)
        #expect(headers["CF-Connecting-IP"] == Redactor.placeholder)
        #expect(headers["Forwarded"] == Redactor.placeholder)
        #expect(headers["Content-Type"] == "video/mp2t")
    }

    /// A bearer token in free text is a token from six bytes on (probe K planted `QQP17QQ`); the
    /// bearer of a ticket is not.
    @Test func aShortBearerTokenInProseIsRedacted() {
        let out = Redactor().redact("KTVHCMacro: Bearer QQP17QQ sent")
        #expect(!out.contains("QQP17QQ") && out.contains("sent"))
        #expect(Redactor().redact("the bearer of the ticket") == "the bearer of the ticket")
        #expect(Redactor().redact("Bearer abcdef ok") == "Bearer abcdef ok")
        // A sentence's full stop is no symbol of a token (review).
        #expect(Redactor().redact("send a Bearer token.") == "send a Bearer token.")
        #expect(!Redactor().redact("Bearer QQP17QQ.").contains("QQP17QQ"))
    }

    /// Near misses: evidence that looks like a shape but holds no secret stays as it is.
    @Test(arguments: [
        "https://cdn.example.com/v/seg_51.ts?bitrate=2000000&segment=51",
        "https://cdn.example.com/keys/key1.key",
        "https://cdn.example.com/v/hash/a.m3u8",
        "https://cdn.example.com/img/poster@2x.png",
        "missing file seg@1080p.ts in the playlist",
        "the api was called; access granted to the client",
        "https://cdn.example.com/img/icon@3x.webp",
        "https://cdn.example.com/v/thumb@small.jpg",
        "the user (not an address): example@ and @example.com",
        "HTTP 404: File Not Found",
        "the basic plan was used by the bearer of the ticket",
        "https://cdn.example.com/v/a.m3u8?spec=1&sex=2&sprite=3",
        "s-ip 203.0.113.7 answered",
        "segment request https://edge7.cdn.example.net/live/event/v20/s74.m4s → 404 in 0.045 s",
        // `h` without MediaVault's `e` is a height.
        "https://cdn.example.com/thumb.jpg?w=1280&h=720",
        // Foundation's userInfo keys end in `Key` and hold the evidence (probe G).
        "UserInfo={NSErrorFailingURLStringKey=https://cdn.example.com/show1/v5/seg1.ts, NSErrorFailingURLKey=https://cdn.example.com/show1/v5/seg1.ts}",
    ])
    func nearMissStays(input: String) {
        #expect(Redactor().redact(input) == input)
    }
}
