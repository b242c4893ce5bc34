import ForensicsCore
import Testing

/// Request matching across sources rests on these two functions.
@Suite struct URLCanonicalizerTests {
    @Test(arguments: [
        ("https://cdn.example.com/v/s1.m4s?token=abc#t=1", "https://cdn.example.com/v/s1.m4s"),
        ("https://cdn.example.com/v/s1.m4s#frag?x", "https://cdn.example.com/v/s1.m4s"),
        ("https://cdn.example.com/v/s1.m4s", "https://cdn.example.com/v/s1.m4s"),
        ("https://cdn.example.com/vidéo/ségment 1.ts?q=é", "https://cdn.example.com/vidéo/ségment 1.ts"),
        ("?only", ""),
        ("", ""),
        (
            "http://localhost:8080/https%3A%2F%2Fcdn.example.com%2Fv%2Fs1.m4s/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.m4s",
            "https://cdn.example.com/v/s1.m4s"
        ),
        (
            "http://127.0.0.1:80/request.mp4?url=https%3A%2F%2Fcdn.example.com%2Fclip.mp4%3Fsig%3Dx",
            "https://cdn.example.com/clip.mp4"
        ),
        ("/request.mp4?originalURL=https%3A%2F%2Fcdn.example.com%2Fa.mp4", "https://cdn.example.com/a.mp4"),
        ("http://localhostile.example.com/a.ts?x", "http://localhostile.example.com/a.ts"),
    ])
    func withoutQueryKeepsPathAndDecodesProxyURLs(input: String, expected: String) {
        #expect(URLCanonicalizer.withoutQuery(input) == expected)
    }
}
