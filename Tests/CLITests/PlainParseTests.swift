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
}
