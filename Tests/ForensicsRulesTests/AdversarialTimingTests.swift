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

    @Test func thousandsOfStallsAtOneInstantMakeABoundedReport() throws {
        let dump = (0..<8000).map { Self.stall($0) }.joined(separator: "\n") + "\n"
        let report = Analyzer().analyze(files: [("stalls.jsonl", Array(dump.utf8))])
        let session = try #require(report.sessions.first)
        #expect(session.session.kpis.stallCount == 8000)
        let stalls = session.findings.filter { $0.ruleID == "stall" }
        #expect(stalls.count == StallRuleLimits.maxStallFindings + 1)
        let rest = try #require(stalls.first { $0.title.hasPrefix("7900 more stalls") }, "\(stalls.map(\.title).suffix(3))")
        #expect(rest.details["stall_count"] == .integer(7900))
    }

    @Test func manyRequestsInFlightBeforeAStallAreReadBoundedly() throws {
        var lines = (0..<20_000).map { i in
            #"{"type":"AVMetricMediaResourceRequestEvent","date":"2026-11-21T10:10:00.000Z","sessionID":"S","url":"https://cdn.example.com/s\#(i).ts","requestStartTime":"2026-11-21T10:00:00.000Z","responseEndTime":"2026-11-21T10:10:00.000Z"}"#
        }
        lines.append(#"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:05:00.000Z","sessionID":"S","rate":0,"previousRate":1}"#)
        let report = Analyzer().analyze(files: [("inflight.jsonl", Array((lines.joined(separator: "\n") + "\n").utf8))])
        let stall = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(stall.evidence.count <= 3 + 2 * StallRuleLimits.maxWindowEntries)
    }
}
