import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `check`: exit codes by severity, `--ignore`, JSON and JUnit output a CI system reads, the
/// series checks over a HAR's captures of one live playlist, and nothing judged said so.
@Suite struct CheckCommandTests {
    static func write(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    static let over =
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:7.1,\ns1.ts\n#EXTINF:8.1,\ns2.ts\n#EXT-X-ENDLIST\n"
    static let valid = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXTINF:7.1,\ns1.ts\n#EXT-X-ENDLIST\n"

    @Test func exitCodesFollowTheSeverityAndIgnore() throws {
        let dir = try Self.write(["bad.m3u8": Self.over, "good.m3u8": Self.valid])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLIRunner.run(["check", dir.path])
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("bad.m3u8:5: warning: [extinf-exceeds-target-duration]"), "\(r.stdout)")
        #expect(r.stdout.contains("2 playlists checked in 2 files"))
        let ignored = try CLIRunner.run(["check", dir.path, "--ignore", "extinf-exceeds-target-duration"])
        #expect(ignored.status == 0, "\(ignored.stdout)")
        let lenient = try CLIRunner.run(["check", dir.path, "--fail-on", "error"])
        #expect(lenient.status == 0)
        let typo = try CLIRunner.run(["check", dir.path, "--ignore", "extinf-exceeds-target-duraton"])
        #expect(
            typo.status == 64 && typo.stderr.contains("Did you mean 'extinf-exceeds-target-duration'"), "\(typo.stderr)"
        )
        let nothing = try Self.write(["notes.txt": "hello\n"])
        defer { try? FileManager.default.removeItem(at: nothing) }
        let none = try CLIRunner.run(["check", nothing.path])
        #expect(none.status == 1 && none.stderr.contains("no playlist found"), "\(none.stderr)")
    }

    @Test func jsonAndJUnitAreWellFormed() throws {
        let dir = try Self.write(["bad.m3u8": Self.over, "good.m3u8": Self.valid])
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = try CLIRunner.run(["check", dir.path, "--report", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let defects = object?["defects"] as? [[String: Any]] ?? []
        #expect(
            defects.contains { $0["check"] as? String == "extinf-exceeds-target-duration" && $0["line"] as? Int == 5 })
        let junit = try CLIRunner.run(["check", dir.path, "--report", "junit"])
        let parser = XMLParser(data: Data(junit.stdout.utf8))
        #expect(parser.parse(), "JUnit XML parses: \(junit.stdout)")
        #expect(
            junit.stdout.contains("<testsuite name=\"stream-checks\" tests=\"2\" failures=\"1\">"), "\(junit.stdout)")
    }

    /// A HAR holding three responses of one live playlist: it stopped advancing.
    @Test func theSeriesOfAHARsCapturesIsJudged() throws {
        func entry(_ at: Double, _ msn: Int) -> String {
            var body = "#EXTM3U\\n#EXT-X-VERSION:3\\n#EXT-X-TARGETDURATION:4\\n#EXT-X-MEDIA-SEQUENCE:\(msn)\\n"
            for i in msn..<(msn + 4) { body += "#EXTINF:4.0,\\ns\(i).ts\\n" }
            let time = String(format: "2026-11-21T10:00:%06.3fZ", at)
            return
                #"{"startedDateTime":"\#(time)","time":50,"request":{"method":"GET","url":"https://cdn.example/live/v1/index.m3u8","headers":[]},"response":{"status":200,"headers":[],"content":{"size":300,"mimeType":"application/vnd.apple.mpegurl","text":"\#(body)"}},"timings":{"wait":40,"receive":10}}"#
        }
        let har =
            #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":["#
            + [entry(0, 10), entry(4, 11), entry(14, 11)].joined(separator: ",") + "]}}"
        let dir = try Self.write(["capture.har": har])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLIRunner.run(["check", dir.appendingPathComponent("capture.har").path])
        #expect(r.stdout.contains("[live-playlist-not-advancing]"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("3 playlists checked"), "\(r.stdout)")
        #expect(r.status == 2)
    }
    /// A HAR whose variant playlists every request failed for (404) is no pass: the capture's
    /// multivariant playlist checks clean, and `check` lists each playlist it could not check,
    /// fails at error level, and puts them in JSON and JUnit (probe E, har1). Near miss: a
    /// variant that failed once and then loaded is checked, not listed.
    @Test func playlistsNoRequestLoadedAreNotChecked() throws {
        func entry(_ url: String, _ second: Int, _ status: Int, _ body: String?) -> String {
            let content =
                body.map {
                    #"{"size":\#($0.utf8.count),"mimeType":"application/vnd.apple.mpegurl","text":"\#($0.replacingOccurrences(of: "\n", with: "\\n"))"}"#
                }
                ?? #"{"size":0,"mimeType":"text/html"}"#
            return
                #"{"startedDateTime":"2026-11-21T10:00:0\#(second).000Z","time":40,"request":{"method":"GET","url":"\#(url)","headers":[]},"response":{"status":\#(status),"headers":[],"content":\#(content)},"timings":{"wait":40,"receive":0}}"#
        }
        let master =
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000\nv2/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv1/index.m3u8\n"
        func har(_ entries: [String]) -> String {
            #"{"log":{"version":"1.2","creator":{"name":"Charles Proxy","version":"4.6"},"entries":["#
                + entries.joined(separator: ",") + "]}}"
        }
        let broken = har([
            entry("https://cdn.example.com/a/master.m3u8", 0, 200, master),
            entry("https://cdn.example.com/a/v2/index.m3u8", 1, 404, nil),
            entry("https://cdn.example.com/a/v1/index.m3u8", 2, 404, nil),
            entry("https://cdn.example.com/a/v1/index.m3u8?retry=1", 3, 404, nil),
        ])
        let dir = try Self.write(["capture.har": broken])
        let r = try CLIRunner.run(["check", dir.path])
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("not checked: https://cdn.example.com/a/v1/index.m3u8"), "\(r.stdout)")
        #expect(r.stdout.contains("HTTP 404 ×2"))
        #expect(r.stdout.contains("2 playlists not checked"))
        let json = try CLIRunner.run(["check", dir.path, "--report", "json"])
        #expect(json.stdout.contains("\"not_checked\""))
        let junit = try CLIRunner.run(["check", dir.path, "--report", "junit"])
        #expect(junit.stdout.contains("type=\"not-checked\""))
        let media = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\ns1.ts\n#EXT-X-ENDLIST\n"
        let recovered = har([
            entry("https://cdn.example.com/a/master.m3u8", 0, 200, master),
            entry("https://cdn.example.com/a/v2/index.m3u8", 1, 503, nil),
            entry("https://cdn.example.com/a/v2/index.m3u8", 2, 200, media),
        ])
        let fine = try CLIRunner.run(["check", try Self.write(["capture.har": recovered]).path, "--fail-on", "error"])
        #expect(!fine.stdout.contains("not checked"), "\(fine.stdout)")
        #expect(fine.status == 0, "\(fine.stdout)\(fine.stderr)")
    }
}
