import Foundation
import Testing

/// Secrets planted in a caching proxy's URLs — percent-encoded inside the proxy URL (3.x path,
/// 1.x/2.x `url=`), decoded by the correlator, in a saved file's name — reach no output of any
/// command while redaction is on (the default).
@Suite(.serialized) struct ProxyURLRedactionTests {
    static let secrets = ["SECRETA1", "SECRETB2", "SECRETC3", "SECRETD4", "SECRETE5", "SECRETF6"]

    func plantedBundle() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-redact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ktv = """
            2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
            2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Return URL
            URL : http://localhost:52814/https%3A%2F%2Fcdn%2Eexample%2Ecom%2Fa%2Em3u8%3Ftoken%3DSECRETA1/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.m3u8
            2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Receive request
            method : GET
            path : /https%3A%2F%2Fcdn%2Eexample%2Ecom%2Fa%2Em3u8%3Ftoken%3DSECRETA1/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.m3u8
            URL : /https%3A%2F%2Fcdn%2Eexample%2Ecom%2Fa%2Em3u8%3Ftoken%3DSECRETA1/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.m3u8 -- http://localhost:52814/
            2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
            URL : https://cdn.example.com/a.m3u8?token=SECRETB2
            2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Invaild response
            Error : Error Domain=KTVHTTPCache error Code=-192703 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://cdn.example.com/a.m3u8?token=SECRETB2, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x2837c4a20> { URL: https://cdn.example.com/a.m3u8?token=SECRETB2 } { Status Code: 403, Headers {
            } }}

            """
        try Data(ktv.utf8).write(to: dir.appendingPathComponent("KTVHTTPCache.log"))
        let errorLog = """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
            #Date: 2026/11/21 10:00:02.002
            #Fields: date time uri cs-guid s-ip status domain comment cs-iftype
            2026/11/21 10:00:02.002 http://localhost:52814/https%3A%2F%2Fcdn%2Eexample%2Ecom%2Fa%2Em3u8%3Fx%3D1%26sig%3DSECRETC3/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.m3u8 6C1D0F0B-4E2A-4F7B-9C1D-0A1B2C3D4E5F 127.0.0.1 -1004 "NSURLErrorDomain" "Could not connect to the server." en0
            2026/11/21 10:00:03.003 http://localhost:80/request.mp4?url=https%3A%2F%2Fcdn.example.com%2Fb.mp4%3Fauth_key%3DSECRETD4 6C1D0F0B-4E2A-4F7B-9C1D-0A1B2C3D4E5F 127.0.0.1 -1005 "NSURLErrorDomain" "The network connection was lost." en0
            2026/11/21 10:00:04.004 http://localhost:80/request.mp4?requestType=content&originalURL=https%3A%2F%2Fcdn.example.com%2Fc.mp4%3Fks%3DSECRETE5 6C1D0F0B-4E2A-4F7B-9C1D-0A1B2C3D4E5F 127.0.0.1 -1004 "NSURLErrorDomain" "Could not connect to the server." en0

            """
        try Data(errorLog.utf8).write(to: dir.appendingPathComponent("error.log"))
        // A playlist saved under its signed URL.
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n".utf8).write(
            to: dir.appendingPathComponent("index.m3u8?token=SECRETF6"))
        return dir
    }

    @Test func noPlantedSecretInAnyOutput() throws {
        let dir = try plantedBundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let commands: [[String]] = [
            ["analyze", dir.path], ["analyze", dir.path, "--report", "json"],
            ["analyze", dir.path, "--report", "html"], ["timeline", dir.path],
            ["timeline", dir.path, "--json"], ["parse", dir.path], ["parse", dir.path, "--json"],
        ]
        for command in commands {
            let r = try CLIRunner.run(command)
            #expect(r.status == 0 || r.status == 2, "\(command) exited \(r.status): \(r.stderr.prefix(300))")
            let output = r.stdout + r.stderr
            #expect(output.contains("REDACTED"), "\(command)")
            for secret in Self.secrets {
                #expect(!output.contains(secret), "\(command) printed \(secret)")
            }
        }
        // Turned off on request, everything is there (the test can fail).
        let raw = try CLIRunner.run(["parse", dir.path, "--no-redact"])
        #expect(raw.stdout.contains("SECRETF6"))
    }
}
