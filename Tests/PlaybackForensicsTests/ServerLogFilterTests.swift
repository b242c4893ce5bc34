import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import PlaybackForensics

/// Server logs given apart from the bundle (`--cdn-logs`) are read through the bundle's keys:
/// a day of every viewer's rows is counted, and only the rows that could join one of its
/// requests are held — with the same joins and findings as reading them all.
@Suite struct ServerLogFilterTests {
    /// The SampleLogs pair, its CloudFront file moved out of the bundle and buried among other
    /// viewers' rows: other paths all day, and the bundle's own paths hours away.
    func buriedPair() throws -> (bundle: URL, logs: URL, otherRows: Int) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("filter-\(UUID().uuidString)")
        let bundle = root.appendingPathComponent("bundle")
        let logs = root.appendingPathComponent("cdn")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let sample = TestPaths.sampleLogs.appendingPathComponent("cdn-slow-origin")
        try FileManager.default.copyItem(
            at: sample.appendingPathComponent("metrics.jsonl"), to: bundle.appendingPathComponent("metrics.jsonl"))
        let gz = try FileManager.default.contentsOfDirectory(
            at: sample.appendingPathComponent("cloudfront"), includingPropertiesForKeys: nil
        ).first { $0.pathExtension == "gz" }
        try FileManager.default.copyItem(at: try #require(gz), to: logs.appendingPathComponent("E2.2026-11-21-10.a.gz"))
        var text = CDNStoryTests.cloudFront([])
        var n = 0
        for i in 0..<6000 {
            // Hours more than two away from the bundle's 10:00.
            let hours = [0, 1, 2, 3, 4, 5, 15, 16, 17, 18, 19, 20, 21, 22, 23]
            let hour = hours[i % hours.count]
            let at = String(format: "%02d:%02d:%02d", hour, (i / 20) % 60, i % 60)
            // Another title all day; the bundle's own path, but at another hour.
            let path = i % 3 == 0 ? "/vod/film/v8/s\(1 + i % 12).m4s" : "/other/\(i % 50)/seg\(i).ts"
            let row = CDNStoryTests.cfRow(
                end: 0, path: path, status: "200", result: "Hit", id: "O\(i)==", taken: 0.2, ttfb: 0.002,
                ip: "203.0.113.\(i % 200)")
            text += row.replacingOccurrences(of: "\t10:00:00\t", with: "\t\(at)\t") + "\n"
            n += 1
        }
        try Data(text.utf8).write(to: logs.appendingPathComponent("E2.2026-11-21-others.log"))
        return (bundle, logs, n)
    }

    /// A file given with `--cdn-logs` that names a CDN's fields but that no reader could read
    /// (here a Cloudflare row cut mid-line, as a truncated download leaves it) hides the rows it
    /// held: could not judge, naming it (probe D). Near miss: a README beside the logs stays
    /// neutral.
    @Test func anUnreadableCDNLogGivenAsOneIsNoAllClear() throws {
        let pair = try buriedPair()
        defer { try? FileManager.default.removeItem(at: pair.bundle.deletingLastPathComponent()) }
        let cut =
            #"{"ClientRequestHost":"cdn.example.com","ClientRequestURI":"/vod/film/v8/s1.m4s","EdgeStartTimestamp":17952552"#
        try Data(cut.utf8).write(to: pair.logs.appendingPathComponent("http_requests.json"))
        try Data("# notes\n".utf8).write(to: pair.logs.appendingPathComponent("README.md"))
        let report = try Analyzer().analyze(path: pair.bundle.path, serverLogs: [pair.logs.path])
        #expect(
            report.verdict.couldNotJudge.contains {
                $0.contains("http_requests.json was not read: given with --cdn-logs")
            })
        #expect(!report.verdict.couldNotJudge.contains { $0.contains("README.md") })
    }

    @Test func aDayOfOtherViewersIsCountedNotHeldAndTheJoinIsTheSame() throws {
        let pair = try buriedPair()
        defer { try? FileManager.default.removeItem(at: pair.bundle.deletingLastPathComponent()) }
        let filtered = try Analyzer().analyze(path: pair.bundle.path, serverLogs: [pair.logs.path])
        let whole = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("cdn-slow-origin").path)

        let others = try #require(filtered.inputs.first { $0.path.hasSuffix("others.log") })
        #expect(others.rowsRead == pair.otherRows)
        #expect(others.records == 0, "no other viewer's row is held: \(others.records)")
        let own = try #require(filtered.inputs.first { $0.path.hasSuffix(".a.gz") })
        // Its two rows for another title are not held either.
        #expect(own.rowsRead == 20 && own.records == 18)
        #expect(filtered.serverRows == pair.otherRows + 20)

        let f = try #require(filtered.sessions.first?.findings.first { $0.ruleID == "stall" })
        let g = try #require(whole.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(f.cause == "slow-origin" && f.cause == g.cause)
        let join = try #require(filtered.sessions.first?.session.serverJoin)
        #expect(join.joined == whole.sessions.first?.session.serverJoin?.joined)
        #expect(join.offset == whole.sessions.first?.session.serverJoin?.offset)
        #expect(join.caveats.isEmpty, "\(join.caveats)")
    }

    /// Near miss: the keys decide, not the time — a row naming the bundle's request id hours
    /// away from it is kept (the clock may be off), one with only a path that far is not.
    @Test func aKeyedRowIsKeptWhateverItsTime() {
        var filter = ServerRowFilter()
        filter.paths = ["/v/s1.ts"]
        filter.responseValues = ["ID1=="]
        filter.sessions = ["S-1"]
        filter.earliest = 1000
        filter.latest = 2000
        var r = ServerRequest(path: "/v/s1.ts", raw: "")
        #expect(filter.keeps(r, start: 1500))
        #expect(!filter.keeps(r, start: 2000 + 3 * 3600), "its path only, three hours away")
        r.requestID = "ID1=="
        #expect(filter.keeps(r, start: 2000 + 10 * 3600))
        var s = ServerRequest(path: "/x.ts", raw: "")
        s.sessionHeader = "s-1"
        #expect(filter.keeps(s, start: 0), "session ids compare without case")
        #expect(!filter.keeps(ServerRequest(path: "/x.ts", raw: ""), start: 1500))
    }

    @Test func coverageCountsByTheMinuteAndFindsAHoleInTheDay() {
        var c = ServerLogCoverage()
        for t in stride(from: 0.0, to: 3600, by: 10) where !(1200..<2400).contains(t) { c.add(start: t, end: t + 1) }
        #expect(c.rows == 240)
        #expect(c.count(startingIn: 0, 59) == 6)
        let gaps = c.gaps(in: 0, 3599, longerThan: 600)
        #expect(gaps.count == 1 && gaps.first.map { $0.from >= 1140 && $0.to <= 2400 } == true, "\(gaps)")
    }
}
