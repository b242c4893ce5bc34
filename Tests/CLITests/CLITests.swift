import Foundation
import Testing

@Suite(.serialized) struct CLITests {
    @Test func analyzePrintsTheGoldenMarkdownSummary() throws {
        let r = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let golden = try String(
            contentsOf: CLIRunner.repository.appendingPathComponent(
                "Tests/ForensicsReportsTests/Golden/cdn-404-stall.md"),
            encoding: .utf8)
        #expect(
            r.stdout == golden.replacingOccurrences(of: "playback-forensics golden", with: "playback-forensics 0.1.0"))
    }

    @Test func failOnSetsExitCodeTwo() throws {
        #expect(try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--fail-on", "error"]).status == 2)
        #expect(try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--fail-on", "critical"]).status == 0)
        #expect(try CLIRunner.run(["analyze", "SampleLogs/clean-session.zip", "--fail-on", "warning"]).status == 0)
        // Access and error logs alone are judged too: the 404s, the down-switch and the stall fail the run.
        #expect(
            try CLIRunner.run(["analyze", "SampleLogs/access-error-logs-only", "--fail-on", "warning"]).status == 2)
        #expect(
            try CLIRunner.run(["analyze", "SampleLogs/access-error-logs-only", "--fail-on", "critical"]).status == 0)
    }

    @Test func jsonReportToAFile() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pf-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try CLIRunner.run(["analyze", "SampleLogs/slow-key-startup", "--report", "json", "--output", out.path])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
        #expect(object?["schema_version"] as? Int == 1)
    }

    @Test func errorsAndUsageHaveTheirExitCodes() throws {
        let missing = try CLIRunner.run(["analyze", "SampleLogs/no-such-bundle"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such file or directory"))
        #expect(missing.stdout.isEmpty)
        #expect(try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--report", "pdf"]).status == 64)
        #expect(try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--log-format", "nope"]).status == 64)
        #expect(try CLIRunner.run(["rules", "no-such-rule"]).status == 64)
        let badConfig = FileManager.default.temporaryDirectory.appendingPathComponent("pf-\(UUID().uuidString).yml")
        try Data("rules:\n  stall:\n    bogus: 1\n".utf8).write(to: badConfig)
        defer { try? FileManager.default.removeItem(at: badConfig) }
        let r = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--config", badConfig.path])
        #expect(r.status == 64)
        #expect(r.stderr.contains("rule 'stall': unknown option 'bogus'"))
    }

    @Test func rulesFormatsParseAndTimeline() throws {
        let rules = try CLIRunner.run(["rules"])
        #expect(rules.status == 0)
        #expect(rules.stdout.split(separator: "\n").count == 23)
        let one = try CLIRunner.run(["rules", "slow-key-fetch"])
        #expect(one.stdout.hasPrefix("# Slow Content-Key Fetch (`slow-key-fetch`)"))
        let formats = try CLIRunner.run(["formats"])
        #expect(formats.stdout.contains("cache-log — KTVHTTPCache full-path log"))
        let parse = try CLIRunner.run(["parse", "SampleLogs/cdn-404-stall/errorlog.txt"])
        #expect(parse.status == 0)
        #expect(parse.stdout.contains("== errorlog.txt: error-log, 3 records, 0 diagnostics"))
        let timeline = try CLIRunner.run(["timeline", "SampleLogs/cdn-404-stall"])
        #expect(timeline.stdout.contains("clock offset charles-capture.har.gz: -93.4 s"))
        #expect(timeline.stdout.contains("metrics.jsonl.gz:92"))
    }

    @Test func triageWritesAnIndexAndKeepsGoingPastBadBundles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-triage-\(UUID().uuidString)")
        let input = dir.appendingPathComponent("in")
        let output = dir.appendingPathComponent("out")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for name in ["cdn-404-stall", "clean-session.zip", "slow-key-startup"] {
            try FileManager.default.copyItem(
                at: CLIRunner.repository.appendingPathComponent("SampleLogs/" + name),
                to: input.appendingPathComponent(name))
        }
        try Data([0x50, 0x4B, 0x03, 0x04, 0, 0, 1]).write(to: input.appendingPathComponent("broken.zip"))
        // A HAR capture of a playback alone: no source in it can count stalls.
        try FileManager.default.copyItem(
            at: CLIRunner.repository.appendingPathComponent("SampleLogs/cdn-404-stall/charles-capture.har.gz"),
            to: input.appendingPathComponent("capture.har.gz"))
        // A real browser capture without any media request is no playback bundle (issue 29).
        try FileManager.default.copyItem(
            at: CLIRunner.repository.deletingLastPathComponent().appendingPathComponent(
                "shared/corpus/real-world/har/mitmproxy-safari-nohls.har"),
            to: input.appendingPathComponent("safari.har"))
        let r = try CLIRunner.run(["triage", input.path, "--output", output.path, "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let index = try String(contentsOf: output.appendingPathComponent("index.md"), encoding: .utf8)
        #expect(index.contains("5 bundles · 4 sessions"), "\(index.prefix(300))")
        #expect(index.contains("other file skipped (safari.har)"))
        // A KPI no source measured reads as unknown, never as Swift's "Optional(…)" or as 0.
        #expect(!index.contains("Optional("))
        #expect(index.contains("[capture.har.gz](bundles/capture.har.gz.md)"))
        #expect(index.contains("| — | unknown |"))
        #expect(index.contains("| 1 | [cdn-404-stall](bundles/cdn-404-stall.md)"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("triage.json").path))
        #expect(
            FileManager.default.fileExists(atPath: output.appendingPathComponent("bundles/slow-key-startup.md").path))
    }

    @Test func noColorAndNoProgressWhenNotATerminal() throws {
        let r = try CLIRunner.run(["analyze", "SampleLogs/clean-session.zip"], environment: ["NO_COLOR": "1"])
        #expect(!r.stdout.contains("\u{1B}["))
        #expect(!r.stderr.contains("\u{1B}["))
    }
}
