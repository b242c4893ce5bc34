import Foundation
import ForensicsCore
import ForensicsRules
import PlaybackForensics
import ForensicsTestSupport
import Testing

/// The two stories the product was founded on, end to end from bundle files to findings.
@Suite struct SeedStoryTests {
    func analyze(_ bundle: String) throws -> AnalysisReport {
        try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent(bundle).path)
    }

    @Test func slowKeyDominatingStartupGivesSlowKeyFetchAndSlowStartup() throws {
        let report = try analyze("slow-key-startup")
        #expect(report.sessions.count == 1)
        let findings = try #require(report.sessions.first).findings
        let startup = try #require(findings.first { $0.ruleID == "slow-startup" })
        #expect(startup.details["dominant_phase"] == .string("key"))
        #expect(startup.title.contains("waiting for the content key"))
        let key = try #require(findings.first { $0.ruleID == "slow-key-fetch" })
        // The evidence points at the key request's own line in the dump.
        let dump = try String(
            contentsOf: TestPaths.sampleLogs.appendingPathComponent("slow-key-startup/metrics.jsonl"), encoding: .utf8)
        let keyLine =
            try #require(dump.split(separator: "\n").firstIndex { $0.contains("AVMetricContentKeyRequestEvent") }) + 1
        #expect(key.evidence.contains { $0.location == SourceLocation(file: "metrics.jsonl", line: keyLine) })
        #expect(findings.contains { $0.ruleID == "missing-session-key" })
    }

    @Test func notFoundDownswitchThenStallIsExplainedBySegmentErrors() throws {
        let report = try analyze("cdn-404-stall")
        let session = try #require(report.sessions.first)
        #expect(report.sessions.count == 1)
        let down = try #require(session.findings.first { $0.ruleID == "segment-404-downswitch" })
        #expect(down.title == "HTTP 404 on media segments forced a switch from 20 Mbit/s to 15 Mbit/s")
        let stall = try #require(session.findings.first { $0.ruleID == "stall" })
        #expect(stall.cause == "segment-errors")
        // The 404 records: the 20 Mbit/s and 15 Mbit/s segment requests in the (gzipped) dump.
        let files = Set(stall.evidence.map(\.location.file))
        #expect(files.contains("metrics.jsonl.gz"))
        let notFoundLines = stall.evidence.filter { $0.summary.contains("→ 404") }.map(\.location)
        #expect(notFoundLines.count >= 2)
        #expect(down.evidence.contains { $0.summary.contains("v20/s74.m4s") && $0.summary.contains("404") })
    }

    @Test func cleanSessionHasNoFindingAtWarningOrAbove() throws {
        let report = try analyze("clean-session.zip")
        #expect(report.sessions.count == 1)
        let serious = report.sessions.flatMap(\.findings).filter { $0.severity >= .warning }
        #expect(serious.isEmpty, "\(serious.map(\.title))")
    }

    @Test func proxyBundleNamesTheProxyProblems() throws {
        let ids = Set(try analyze("proxy-octet-stream").sessions.flatMap(\.findings).map(\.ruleID))
        #expect(
            ids.isSuperset(of: [
                "proxy-unplayable-content-type", "proxy-origin-errors", "proxy-unreachable", "playback-failed",
            ]))
    }
}
