import Foundation
import Testing

/// `analyze PATH [--report FORMAT] [--output FILE] [--no-redact]` is read without ArgumentParser
/// (a lean start, see `Analyze.plain`); it must do exactly what the long way does. The long way
/// is forced by giving an option at its default value, which `Analyze.plain` does not take.
@Suite struct PlainAnalyzeTests {
    static let forms: [[String]] = [
        ["SampleLogs/cdn-404-stall"],
        ["SampleLogs/cdn-404-stall", "--report", "json"],
        ["--report", "html", "SampleLogs/slow-key-startup", "--no-redact"],
        ["SampleLogs/access-error-logs-only", "--output", "-", "--report", "markdown"],
        ["README.md"],
        ["does-not-exist.log"],
        ["SampleLogs/cdn-404-stall", "--report", "yaml"],
        ["SampleLogs/cdn-404-stall", "--report"],
    ]

    @Test(arguments: forms)
    func thePlainFormMatchesTheLongWay(arguments: [String]) throws {
        let plain = try CLIRunner.run(["analyze"] + arguments)
        let long = try CLIRunner.run(["analyze", "--max-records", "500000"] + arguments)
        #expect(plain.status == long.status)
        #expect(plain.stdout == long.stdout)
        #expect(plain.stderr == long.stderr)
    }

    @Test func aReportWrittenToAFileMatchesTheLongWay() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("plain.json").path
        let b = dir.appendingPathComponent("long.json").path
        let plain = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--output", a, "--report", "json"])
        let long = try CLIRunner.run([
            "analyze", "SampleLogs/cdn-404-stall", "--output", b, "--report", "json", "--max-records", "500000",
        ])
        #expect(plain.status == long.status && plain.stdout == long.stdout)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
    }

    @Test func otherFormsStillReachArgumentParser() throws {
        let twoPaths = try CLIRunner.run(["analyze", "a.log", "b.log"])
        #expect(twoPaths.status == 64)
        #expect(twoPaths.stderr.contains("Unexpected argument"))
        let repeated = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--no-redact", "--no-redact"])
        let once = try CLIRunner.run([
            "analyze", "--max-records", "500000", "SampleLogs/cdn-404-stall", "--no-redact", "--no-redact",
        ])
        #expect(repeated.status == once.status && repeated.stdout == once.stdout && repeated.stderr == once.stderr)
    }
}
