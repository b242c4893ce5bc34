import ForensicsTestSupport
import Foundation
import Testing

/// `parse PATH [--json|--json-lines|--no-redact]` is read without ArgumentParser (a lean start,
/// see `Parse.plain`); it must do exactly what the long way does. The long way is forced by
/// giving an option at its default value, which `Parse.plain` does not take.
@Suite struct PlainParseTests {
    static let forms: [[String]] = [
        ["SampleLogs/cdn-404-stall"],
        ["SampleLogs/cdn-404-stall/errorlog.txt", "--json"],
        ["--json-lines", "SampleLogs/cdn-404-stall"],
        ["SampleLogs/cdn-404-stall", "--no-redact", "--json"],
        ["does-not-exist.log"],
    ]

    @Test(arguments: forms)
    func thePlainFormMatchesTheLongWay(arguments: [String]) throws {
        let plain = try CLIRunner.run(["parse"] + arguments)
        let long = try CLIRunner.run(["parse", "--max-records", "500000"] + arguments)
        #expect(plain.status == long.status)
        #expect(plain.stdout == long.stdout)
        #expect(plain.stderr == long.stderr)
    }

    @Test func versionMatchesArgumentParsers() throws {
        let plain = try CLIRunner.run(["--version"])
        let long = try CLIRunner.run(["parse", "--version"])
        #expect(plain.status == 0 && long.status == 0)
        #expect(plain.stdout == long.stdout)
        #expect(!plain.stdout.isEmpty)
    }

    @Test func otherFormsStillReachArgumentParser() throws {
        let twoPaths = try CLIRunner.run(["parse", "a.log", "b.log"])
        #expect(twoPaths.status == 64)
        #expect(twoPaths.stderr.contains("Unexpected argument"))
        let repeated = try CLIRunner.run(["parse", "SampleLogs/cdn-404-stall", "--json", "--json"])
        let once = try CLIRunner.run([
            "parse", "--max-records", "500000", "SampleLogs/cdn-404-stall", "--json", "--json",
        ])
        #expect(repeated.status == once.status && repeated.stdout == once.stdout && repeated.stderr == once.stderr)
    }

    /// `parse` never shows device local times of an unknown zone as UTC (rules.md, "Times"):
    /// an access log's rows are written without a `Z`, and the JSON says the file's time basis.
    /// Near miss: an AVMetrics dump's times are UTC and keep their `Z`.
    @Test func deviceLocalTimesAreNotShownAsUTC() throws {
        let text = try CLIRunner.run(["parse", "SampleLogs/access-error-logs-only/accesslog.txt"])
        let rows = text.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { !$0.split(separator: "\t")[1].hasSuffix("Z") }, "\(text.stdout)")
        let json = try CLIRunner.run(["parse", "SampleLogs/slow-key-startup", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let files = object?["files"] as? [[String: Any]] ?? []
        func file(_ name: String) -> [String: Any]? { files.first { ($0["path"] as? String) == name } }
        #expect(file("access.log")?["time_basis"] as? String == "device-local-zone-unknown")
        let accessTimes = (file("access.log")?["records"] as? [[String: Any]] ?? []).compactMap {
            $0["time"] as? String
        }
        #expect(!accessTimes.isEmpty && accessTimes.allSatisfy { !$0.hasSuffix("Z") })
        #expect(file("metrics.jsonl")?["time_basis"] as? String == "utc")
        let dumpTimes = (file("metrics.jsonl")?["records"] as? [[String: Any]] ?? []).compactMap {
            $0["time"] as? String
        }
        #expect(!dumpTimes.isEmpty && dumpTimes.allSatisfy { $0.hasSuffix("Z") })
    }

    /// `timeline --json-lines` on logs of the device's clock: the embedded record's own time has
    /// no `Z` either, as the entry's (probe K). Near miss: a dump's UTC times keep theirs.
    @Test func timelineRecordsKeepTheirTimeBasis() throws {
        func recordTimes(_ path: String) throws -> [String] {
            let run = try CLIRunner.run(["timeline", "--json-lines", path])
            return try run.stdout.split(separator: "\n").compactMap { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return (object?["record"] as? [String: Any])?["time"] as? String
            }
        }
        let local = try recordTimes("SampleLogs/access-error-logs-only")
        #expect(!local.isEmpty && local.allSatisfy { !$0.hasSuffix("Z") })
        let utc = try recordTimes("SampleLogs/slow-key-startup/metrics.jsonl")
        #expect(!utc.isEmpty && utc.allSatisfy { $0.hasSuffix("Z") })
    }

    /// Another source's view of an entry keeps its own reading: on a UTC timeline, an error-log
    /// row placed by a clock offset was read on the device's clock, so its time has no `Z`
    /// (review, stop 46). Near miss: the UTC timeline's own entries keep theirs.
    @Test func viewsKeepTheirOwnTimeBasis() throws {
        let run = try CLIRunner.run(["timeline", "--json-lines", "SampleLogs/cdn-404-stall"])
        var viewTimes: [String] = []
        var entryTimes: [String] = []
        for line in run.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard object?["time_basis"] as? String == "utc" else { continue }
            if let t = object?["time"] as? String { entryTimes.append(t) }
            for view in object?["views"] as? [[String: Any]] ?? [] where view["source"] as? String == "error-log" {
                if let t = view["time"] as? String { viewTimes.append(t) }
            }
        }
        #expect(!viewTimes.isEmpty && viewTimes.allSatisfy { !$0.hasSuffix("Z") }, "\(viewTimes)")
        #expect(!entryTimes.isEmpty && entryTimes.allSatisfy { $0.hasSuffix("Z") })
    }

    /// Probe N: `timeline` has no place for input problems, so they go to standard error — a
    /// row left out is never silent. Near miss: a clean bundle prints nothing there.
    @Test func timelineSaysWhatItCouldNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-timeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = AccessLogFixtures.twoRows(secondRowTail: " extra")
        try Data(log.utf8).write(to: dir.appendingPathComponent("access.log"))
        let run = try CLIRunner.run(["timeline", dir.path])
        #expect(run.stderr.contains("access.log:6: row has"), "\(run.stderr)")
        let clean = try CLIRunner.run(["timeline", "SampleLogs/slow-key-startup/metrics.jsonl"])
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
    }
}
