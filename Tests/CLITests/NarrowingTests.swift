import Foundation
import Testing

/// `--session PREFIX`, `--since`/`--until`, `--min-severity`, and `rules ID --config`.
@Suite struct NarrowingTests {
    @Test func aSessionPrefixSelectsOneSession() throws {
        let all = try CLIRunner.run(["analyze", "SampleLogs/three-sessions.tar.gz", "--report", "json"])
        #expect(all.stdout.components(separatedBy: "\"session_id\"").count - 1 == 3)
        let one = try CLIRunner.run([
            "analyze", "SampleLogs/three-sessions.tar.gz", "--report", "json", "--session", "2222",
        ])
        #expect(one.stdout.components(separatedBy: "\"session_id\"").count - 1 == 1)
        #expect(one.stdout.contains("22222222-BBBB"))
        let timeline = try CLIRunner.run(["timeline", "SampleLogs/three-sessions.tar.gz", "--session", "33333333-cccc"])
        #expect(timeline.stdout.hasPrefix("Session 33333333-CCCC"))
        let none = try CLIRunner.run(["analyze", "SampleLogs/three-sessions.tar.gz", "--session", "FFFF"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no session starts with 'FFFF'"))
    }

    /// A window past the data: the report says no session is in it (with the bundle's span),
    /// never "no session could be built", and the verdict is could-not-judge (exit 3), not an all-clear.
    @Test func aWindowPastTheDataSaysSo() throws {
        let r = try CLIRunner.run([
            "analyze", "SampleLogs/cdn-404-stall", "--since", "2030-01-01T00:00:00Z", "--fail-on", "warning",
        ])
        #expect(r.status == 3, "\(r.stderr)")
        #expect(
            r.stdout.contains("No session to report: none of the bundle's 1 session (from 2026-11-21T10:00:00.000Z"))
        #expect(!r.stdout.contains("No playback session could be built"))
        let json = try CLIRunner.run([
            "analyze", "SampleLogs/cdn-404-stall", "--since", "2030-01-01T00:00:00Z", "--report", "json",
        ])
        #expect(json.stdout.contains("\"could-not-judge\""), "\(json.stdout.prefix(600))")
    }

    @Test func aMinimumSeverityDropsLesserFindings() throws {
        let all = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--report", "json"])
        let errors = try CLIRunner.run([
            "analyze", "SampleLogs/cdn-404-stall", "--report", "json", "--min-severity", "error",
        ])
        let count = { (s: String) in s.components(separatedBy: "\"rule_id\"").count - 1 }
        #expect(count(errors.stdout) < count(all.stdout))
        #expect(!errors.stdout.contains("\"severity\": \"warning\""))
    }

    @Test func aTimeWindowKeepsItsEntriesAndFindings() throws {
        let r = try CLIRunner.run([
            "timeline", "SampleLogs/cdn-404-stall", "--since", "2026-11-21T10:07:20Z", "--until",
            "2026-11-21T10:07:30Z",
        ])
        let rows = r.stdout.split(separator: "\n").filter { $0.hasPrefix("  +") }
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0.contains("10:07:2") || $0.contains("10:07:30") })
        let bad = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--since", "yesterday"])
        #expect(bad.status == 64)
    }

    @Test func rulesShowsTheEffectiveOptionsOfAConfig() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("pf-cfg-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data("rules:\n  slow-key-fetch:\n    severity: error\n    slow-seconds: 0.8\n".utf8).write(to: config)
        let r = try CLIRunner.run(["rules", "slow-key-fetch", "--config", config.path])
        #expect(r.stdout.contains("* severity: error"))
        #expect(r.stdout.contains("\"slow-seconds\":0.8"))
    }

    @Test func triageNarrowsEachBundle() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-narrow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLIRunner.repository.appendingPathComponent("SampleLogs/three-sessions.tar.gz"),
            to: input.appendingPathComponent("three.tar.gz"))
        let out = root.appendingPathComponent("out")
        let r = try CLIRunner.run(["triage", input.path, "--output", out.path, "--session", "2222"])
        #expect(r.status == 0, "\(r.stderr)")
        let index = try String(contentsOf: out.appendingPathComponent("index.md"), encoding: .utf8)
        #expect(index.contains("1 bundle · 1 session · 0 unreadable"))
    }
}

/// Records in JSON are fields, not prose: the 404s are found by `status`.
@Suite struct StructuredRecordTests {
    @Test func timelineJSONLinesCarryTypedRequestFields() throws {
        let r = try CLIRunner.run(["timeline", "SampleLogs/cdn-404-stall", "--json-lines"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count > 10)
        var notFound = 0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["schema_version"] as? Int == 1)
            let record = try #require(object["record"] as? [String: Any])
            if let request = record["request"] as? [String: Any], request["status"] as? Int == 404 { notFound += 1 }
        }
        #expect(notFound >= 2)
    }

    @Test func parseJSONRecordsAreFieldsWithASchemaVersion() throws {
        let r = try CLIRunner.run(["parse", "SampleLogs/access-error-logs-only/errorlog.txt", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["schema_version"] as? Int == 1)
        let files = try #require(object["files"] as? [[String: Any]])
        let record = try #require((files.first?["records"] as? [[String: Any]])?.first)
        #expect(record["kind"] as? String == "error-log-row")
        #expect(
            ((record["error_log_row"] as? [String: Any])?["error"] as? [String: Any])?["http_status"] as? Int == 404)
        let lines = try CLIRunner.run(["parse", "SampleLogs/access-error-logs-only", "--json-lines"]).stdout.split(
            separator: "\n")
        #expect(lines.count >= 4)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"schema_version\":1,\"path\":") })
    }

    @Test func triagePrintsRankedSessionsAsJSONLines() throws {
        let (fleet, out) = try CLIRunner.sampleFleet(["cdn-404-stall", "slow-key-startup"])
        defer {
            try? FileManager.default.removeItem(at: fleet)
            try? FileManager.default.removeItem(at: out)
        }
        let r = try CLIRunner.run(["triage", fleet.path, "--output", out.path, "--json-lines"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(first["schema_version"] as? Int == 1)
        #expect((first["report"] as? String)?.hasPrefix("bundles/") == true)
    }
}

/// Frictions a first user met (issue 34): a negative `--timezone` read as an option, a date alone
/// refused by `--since`, and `--min-severity` changing what `--fail-on` exits with.
@Suite struct NarrowingFrictionTests {
    @Test func aNegativeTimezoneIsAValue() throws {
        let r = try CLIRunner.run(["analyze", "SampleLogs/access-error-logs-only", "--timezone", "-05:00"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("from 2026-11-21T10:00:00.000Z"))
    }

    @Test func aDateAloneNarrowsToThatDay() throws {
        let day = try CLIRunner.run([
            "analyze", "SampleLogs/cdn-404-stall", "--since", "2026-11-21", "--until", "2026-11-21",
        ])
        #expect(day.status == 0, "\(day.stderr)")
        #expect(day.stdout.contains("1 session"))
        let before = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--until", "2026-11-20"])
        #expect(!before.stdout.contains("## Session"))
    }

    @Test func minSeverityDoesNotChangeTheGate() throws {
        let shown = try CLIRunner.run([
            "analyze", "SampleLogs/slow-key-startup", "--min-severity", "error", "--fail-on", "warning",
        ])
        #expect(shown.status == 2)
        #expect(
            try CLIRunner.run(["analyze", "SampleLogs/slow-key-startup", "--min-severity", "error"]).status == 0)
    }
}
