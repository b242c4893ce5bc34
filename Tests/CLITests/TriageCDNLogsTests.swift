import Foundation
import Testing

/// `triage --cdn-logs`: a day of CDN logs read once into the output's store, each bundle's rows
/// looked up by its keys, problems split by POP and cache result — and a second run reads
/// nothing again.
@Suite(.serialized) struct TriageCDNLogsTests {
    static func setUp() throws -> (root: URL, fleet: URL, logs: URL, output: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-cdn-\(UUID().uuidString)")
        let fleet = root.appendingPathComponent("fleet")
        let logs = root.appendingPathComponent("cdn")
        let fm = FileManager.default
        let sample = CLIRunner.repository.appendingPathComponent("SampleLogs/cdn-slow-origin")
        for name in ["b1", "b2"] {
            let bundle = fleet.appendingPathComponent(name)
            try fm.createDirectory(at: bundle, withIntermediateDirectories: true)
            try fm.copyItem(
                at: sample.appendingPathComponent("metrics.jsonl"), to: bundle.appendingPathComponent("metrics.jsonl"))
        }
        // A bundle of another story, whose requests the CDN logs do not hold.
        try fm.copyItem(
            at: CLIRunner.repository.appendingPathComponent("SampleLogs/slow-key-startup"),
            to: fleet.appendingPathComponent("b3"))
        try fm.createDirectory(at: logs, withIntermediateDirectories: true)
        for file in try fm.contentsOfDirectory(atPath: sample.appendingPathComponent("cloudfront").path) {
            try fm.copyItem(
                at: sample.appendingPathComponent("cloudfront/" + file), to: logs.appendingPathComponent(file))
        }
        // Not a server log: listed with why, never taken for the bundle's.
        try Data("# notes\nnothing here\n".utf8).write(to: logs.appendingPathComponent("README.md"))
        return (root, fleet, logs, root.appendingPathComponent("out"))
    }

    @Test func theDayIsReadOnceAndEachBundleJoinedByItsKeys() throws {
        let s = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: s.root) }
        let r = try CLIRunner.run(["triage", s.fleet.path, "--output", s.output.path, "--cdn-logs", s.logs.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("cdn-logs: 2 files read (20 rows), 0 unchanged"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: s.output.appendingPathComponent("cdn-rows.sqlite").path))
        let b1 = try String(contentsOf: s.output.appendingPathComponent("bundles/b1.md"), encoding: .utf8)
        #expect(b1.contains("requests joined: 15 exact"), "\(b1.prefix(3000))")
        #expect(b1.contains("cause: slow-origin"))
        // Each bundle's report as a page too, and the overview page links to the pages.
        let page = try String(contentsOf: s.output.appendingPathComponent("bundles/b1.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("slow-origin"))
        let index = try String(contentsOf: s.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("href=\"bundles/b1.html\"") && !index.contains("bundles/b1.md"), "\(index.prefix(2000))")
        let b3 = try String(contentsOf: s.output.appendingPathComponent("bundles/b3.md"), encoding: .utf8)
        #expect(!b3.contains("exact join"), "no other bundle's row is cited")
        // The problem is split by the POP and cache result of the rows behind it.
        let triage =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: s.output.appendingPathComponent("triage.json"))) as? [String: Any]
        let problems = triage?["problems"] as? [[String: Any]] ?? []
        let stall = problems.first {
            ($0["rule_id"] as? String) == "stall" && ($0["cause"] as? String) == "slow-origin"
        }
        #expect(stall?["pop"] as? String == "FRA56-P3" && stall?["cache"] as? String == "miss", "\(problems)")
        #expect(stall?["sessions"] as? Int == 2)

        // Again, brought up to date: nothing of the day is read again.
        let again = try CLIRunner.run([
            "triage", s.fleet.path, "--output", s.output.path, "--since-index", "--cdn-logs", s.logs.path,
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("cdn-logs: 0 files read (0 rows), 2 unchanged"), "\(again.stderr)")
        #expect(again.stderr.contains("0 analysed"), "\(again.stderr)")
    }
}
