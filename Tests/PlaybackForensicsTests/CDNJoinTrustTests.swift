import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsReports
@testable import PlaybackForensics

/// What a server row must agree on before it is called the client's request (probe M), and what
/// a CDN log must be before it is read as one. Each test fires, with its near miss.
@Suite struct CDNJoinTrustTests {
    static let script = """
        0.000 multivariant https://video.example.com/a/master.m3u8 200 0.1
        0.700 initial-ltku variant=8M
        10.00 segment https://video.example.com/a/v8/s2.ts 404 0.030 dur=6
        """

    func views(_ report: AnalysisReport) -> [JoinedServerRow] {
        guard let session = report.sessions.first?.session else { return [] }
        return session.entries.flatMap { session.serverViews(of: $0) }
    }

    /// A row of another status is another request: a 200 from the cache is not the client's 404,
    /// however near in time (path and time alone). Near miss: the 404 row joins.
    @Test func aProbableJoinNeedsTheSameStatus() {
        func report(status: String, result: String) -> AnalysisReport {
            CDNStoryTests().analyze(
                Self.script,
                server: (
                    "E1.2026-11-21-10.a.log",
                    CDNStoryTests.cloudFront([
                        CDNStoryTests.cfRow(
                            end: 10, path: "/a/v8/s2.ts", status: status, result: result, id: "OTHER==", taken: 0.02,
                            ttfb: 0.01, ip: "203.0.113.99")
                    ])
                ))
        }
        #expect(views(report(status: "200", result: "Hit")).isEmpty)
        #expect(views(report(status: "503", result: "Error")).isEmpty)
        let same = views(report(status: "404", result: "Error"))
        #expect(same.count == 1 && same.first?.confidence == .probable)
    }

    /// A Cloudflare row naming the session, hours from the session on a UTC clock, is another
    /// playback with the same id: no "strong" join, no offset of hours. Near miss: the same row
    /// a second after the request joins as strong.
    @Test func aStrongJoinStaysNearASessionOnUTC() {
        func report(after seconds: Double, status: Int = 404) -> AnalysisReport {
            let start = Int64((CDNStoryTests.t0 + 10 + seconds) * 1e9)
            let row =
                "{\"EdgeStartTimestamp\":\(start),\"EdgeEndTimestamp\":\(start + 20_000_000),\"RayID\":\"8e1f2a3b4c5d6e7f\",\"EdgeColoCode\":\"FRA\",\"ClientRequestHost\":\"video.example.com\",\"ClientRequestMethod\":\"GET\",\"ClientRequestURI\":\"/a/v8/s2.ts\",\"EdgeResponseStatus\":\(status),\"CacheCacheStatus\":\"miss\",\"RequestHeaders\":{\"x-playback-session-id\":\"\(CDNStoryTests.sid)\"}}\n"
            return CDNStoryTests().analyze(Self.script, server: ("cloudflare.log", row))
        }
        let far = report(after: 3 * 3600)
        #expect(views(far).allSatisfy { $0.confidence != .strong }, "\(views(far))")
        #expect(far.sessions.first?.session.serverJoin?.offset == nil)
        // The bound: 14 minutes off is still the session's request, 16 are not.
        #expect(views(report(after: 14 * 60)).first?.confidence == .strong)
        #expect(views(report(after: 16 * 60)).allSatisfy { $0.confidence != .strong })
        // A row naming the session with another status is another request (probe M: a 503
        // joined the client's 404 by session id).
        #expect(views(report(after: 0.01, status: 503)).allSatisfy { $0.confidence != .strong })
        let nearReport = report(after: 0.01)
        let near = views(nearReport)
        #expect(near.count == 1 && near.first?.confidence == .strong, "\(near)")
        // The server saw the request 10 ms after the device sent it: its clock reads ahead.
        let text = MarkdownReporter(toolVersion: "test").render(nearReport)
        #expect(text.contains("server clock 0.01 s ahead of the device"), "\(text)")
    }

    /// The same log read twice (`.log` and `.gz`, or given twice) is one log: its rows join as
    /// once, not as "ambiguous" between a row and its copy, and the report says a file repeated
    /// another. Near miss: two alike rows in one file are two requests.
    @Test func aLogReadTwiceIsReadOnce() {
        let log = CDNStoryTests.cloudFront([
            CDNStoryTests.cfRow(
                end: 10, path: "/a/v8/s2.ts", status: "404", result: "Error", id: "N==", taken: 0.02, ttfb: 0.01)
        ])
        let report = Analyzer().analyze(files: [
            ("events.jsonl", Array(TimelineScript.compile(Self.script).utf8)),
            ("E1.2026-11-21-10.a.log", Array(log.utf8)), ("copy/E1.2026-11-21-10.a.log", Array(log.utf8)),
        ])
        let joined = views(report)
        #expect(joined.count == 1 && joined.first?.confidence == .probable, "\(joined)")
        let join = report.sessions.first?.session.serverJoin
        #expect(join?.serverRows == 1)
        #expect(join?.caveats.contains { $0.hasPrefix("1 server row repeated a row of another") } == true)
        let twice = CDNStoryTests().analyze(
            Self.script,
            server: (
                "E1.2026-11-21-10.a.log",
                log + (log.split(separator: "\n").last.map { String($0) + "\n" } ?? "")
            ))
        #expect(views(twice).allSatisfy { $0.confidence == .ambiguous }, "\(views(twice))")
        #expect(twice.sessions.first?.session.serverJoin?.serverRows == 2)
    }

    /// A Markdown page that quotes CloudFront's `#Fields:` line and a row (a ticket's notes) is
    /// no CDN log: listed as not read, and no row of it is cited. Near miss: the same header at
    /// the top of a file, under `#Version:`, is read.
    @Test func aPageQuotingAHeaderIsNoLog() {
        let quoted =
            "# Ticket 4711 notes\n\n```\n"
            + CDNStoryTests.cloudFront([
                CDNStoryTests.cfRow(
                    end: 10, path: "/a/v8/s2.ts", status: "404", result: "Error", id: "README==", taken: 0.02,
                    ttfb: 0.01)
            ]).replacingOccurrences(of: "#Version: 1.0\n", with: "") + "```\n\nThe customer says it stalled.\n"
        let report = CDNStoryTests().analyze(Self.script, server: ("README.md", quoted))
        let input = report.inputs.first { $0.path == "README.md" }
        #expect(input?.format == nil && input?.notRead?.reason == "Markdown text", "\(String(describing: input))")
        #expect(views(report).isEmpty)
        let log = CDNStoryTests().analyze(
            Self.script,
            server: (
                "E1.2026-11-21-10.a.log",
                CDNStoryTests.cloudFront([
                    CDNStoryTests.cfRow(
                        end: 10, path: "/a/v8/s2.ts", status: "404", result: "Error", id: "N==", taken: 0.02,
                        ttfb: 0.01)
                ])
            ))
        #expect(log.inputs.contains { $0.format?.rawValue == "cloudfront-standard" })
    }
}
