import Foundation
import Testing

/// `analyze` on a terminal with no format asked for: a short summary (verdict, key figures,
/// findings, how to get the full report), coloured unless NO_COLOR; piped, the Markdown report.
@Suite struct TerminalSummaryTests {
    /// Runs `analyze` under `script`, which gives it a terminal.
    static func onTerminal(_ arguments: String, noColor: Bool) throws -> String {
        let command = (noColor ? "env NO_COLOR=1 " : "env -u NO_COLOR ") + CLIRunner.binary.path + " " + arguments
        let r = try CLIRunner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        return r.stdout
    }

    @Test func aTerminalGetsTheSummaryAndAPipeTheReport() throws {
        let plain = try Self.onTerminal("analyze SampleLogs/cdn-404-stall", noColor: true)
        #expect(plain.contains("Problems found · 1 session · 4 input files"), "\(plain)")
        #expect(plain.contains("segment-404-downswitch: HTTP 404 on media segments"))
        #expect(plain.contains("startup 0.9 s"))
        #expect(
            plain.contains(
                "Full report with evidence: playback-forensics analyze SampleLogs/cdn-404-stall --report markdown"))
        #expect(!plain.contains("\u{1B}["), "NO_COLOR is honoured")
        #expect(!plain.contains("```mermaid"))
        let colored = try Self.onTerminal("analyze SampleLogs/cdn-404-stall", noColor: false)
        #expect(colored.contains("\u{1B}[31m"), "errors in red on a colour terminal")
        // Asked for a format, or piped: the report itself.
        let asked = try Self.onTerminal("analyze SampleLogs/cdn-404-stall --report markdown", noColor: true)
        #expect(asked.contains("# Playback forensics report"))
        let piped = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall"])
        #expect(piped.stdout.hasPrefix("# Playback forensics report"))
    }
}
