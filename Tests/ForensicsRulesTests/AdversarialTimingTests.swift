import Foundation
import ForensicsCore
import ForensicsRules
import PlaybackForensics
import Testing

/// Adversarial timing — thousands of events at one instant, many requests in flight — bounds the
/// work per stall: at most `StallRule.maxStallFindings` stalls are judged one by one (the rest
/// are one finding), and each looks back over at most `maxWindowEntries` entries. The KPIs still
/// count every stall.
@Suite struct AdversarialTimingTests {
    static func stall(_ i: Int, session: String = "S") -> String {
        #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"\#(session)","rate":0,"previousRate":1,"mediaTime":\#(i)}"#
    }

    static func resume(_ i: Int, session: String = "S") -> String {
        #"{"type":"AVMetricPlayerItemLikelyToKeepUpEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"\#(session)","mediaTime":\#(i)}"#
    }

    @Test func thousandsOfStallsAtOneInstantMakeABoundedReport() throws {
        // Each stall resumed before the next (a player cannot stall again while stalled).
        let dump = (0..<8000).map { Self.stall($0) + "\n" + Self.resume($0) }.joined(separator: "\n") + "\n"
        let report = Analyzer().analyze(files: [("stalls.jsonl", Array(dump.utf8))])
        let session = try #require(report.sessions.first)
        #expect(session.session.kpis.stallCount == 8000)
        let stalls = session.findings.filter { $0.ruleID == "stall" }
        #expect(stalls.count == StallRule.maxStallFindings + 1)
        let rest = try #require(
            stalls.first { $0.title.hasPrefix("7900 more stalls") }, "\(stalls.map(\.title).suffix(3))")
        #expect(rest.details["stall_count"] == .integer(7900))
        // Probe Q: stall events with no resume between them are one stall, however many.
        let repeated = (0..<8000).map { Self.stall($0) }.joined(separator: "\n") + "\n"
        let one = Analyzer().analyze(files: [("stalls.jsonl", Array(repeated.utf8))])
        #expect(one.sessions.first?.session.kpis.stallCount == 1)
    }

    @Test func manyRequestsInFlightBeforeAStallAreReadBoundedly() throws {
        var lines = (0..<20_000).map { i in
            #"{"type":"AVMetricMediaResourceRequestEvent","date":"2026-11-21T10:10:00.000Z","sessionID":"S","url":"https://cdn.example.com/s\#(i).ts","requestStartTime":"2026-11-21T10:00:00.000Z","responseEndTime":"2026-11-21T10:10:00.000Z"}"#
        }
        lines.append(
            #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:05:00.000Z","sessionID":"S","rate":0,"previousRate":1}"#
        )
        let report = Analyzer().analyze(files: [("inflight.jsonl", Array((lines.joined(separator: "\n") + "\n").utf8))])
        let stall = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(stall.evidence.count <= 3 + 2 * StallRule.maxWindowEntries)
    }
}

/// Merging one request's views and placing records without a session id stay near-linear on
/// adversarial input (each was quadratic: every request rescanned all earlier ones of its URL;
/// every unplaced record walked the whole file for a placed neighbour).
@Suite struct AdversarialCorrelationTests {
    @Test func manyRequestsForOneURLAtOneInstantStillMergeTheirOtherViews() throws {
        let events =
            (0..<20_000).map { i in
                #"{"type":"AVMetricMediaResourceRequestEvent","date":"2026-11-21T10:00:00.000Z","sessionID":"S","url":"https://cdn.example.com/same.ts","requestStartTime":"2026-11-21T10:00:00.000Z","responseEndTime":"2026-11-21T10:00:00.100Z","n":\#(i)}"#
            }.joined(separator: "\n") + "\n"
        let entry =
            #"{"startedDateTime":"2026-11-21T10:00:00.000Z","time":100,"request":{"method":"GET","url":"https://cdn.example.com/same.ts","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":10,"mimeType":"video/mp2t"},"redirectURL":"","headersSize":-1,"bodySize":10},"cache":{},"timings":{"send":0,"wait":50,"receive":50}}"#
        let har =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":["#
            + Array(repeating: entry, count: 50).joined(separator: ",") + "]}}"
        let report = Analyzer().analyze(files: [("events.jsonl", Array(events.utf8)), ("capture.har", Array(har.utf8))])
        let session = try #require(report.sessions.first)
        let views = session.session.entries.reduce(0) { $0 + $1.otherViews.count }
        #expect(views == 50)
    }

    @Test func recordsWithoutAnIdBesideTwoSessionsArePlacedOrExplainedInLinearTime() throws {
        var rows = [
            "#Version: 1.0", "#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)",
            "#Date: 2026/11/21 10:00:00.000",
            "#Fields: date time uri s-ip c-duration-watched c-stalls",
        ]
        for i in 0..<30_000 {
            let s = i % 60
            rows.append(
                String(
                    format: "2026/11/21 10:%02d:%02d.0%02d https://other.example.com/v%d/index.m3u8 203.0.113.7 10 0",
                    (i / 60) % 60, s, s, i % 7))
        }
        var events: [String] = []
        for id in ["A", "B"] {
            for i in 0..<5 {
                events.append(
                    #"{"type":"AVMetricMediaResourceRequestEvent","date":"2026-11-21T10:00:0\#(i).000Z","sessionID":"\#(id)","url":"https://cdn.example.com/\#(id)/s\#(i).ts","requestStartTime":"2026-11-21T10:00:0\#(i).000Z","responseEndTime":"2026-11-21T10:00:0\#(i).500Z"}"#
                )
            }
        }
        let report = Analyzer().analyze(files: [
            ("access.log", Array((rows.joined(separator: "\n") + "\n").utf8)),
            ("events.jsonl", Array((events.joined(separator: "\n") + "\n").utf8)),
        ])
        #expect(report.sessions.count == 2)
        #expect(report.unassignedRecords == 30_000)
    }
}
