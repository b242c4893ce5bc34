import ArgumentParser
import Foundation
import PlaybackForensics

@main
struct PlaybackForensicsCommand: ParsableCommand {
    // Every command names itself: ArgumentParser otherwise derives the name from the type's name
    // through reflection, a quarter of the start-up instructions (Benchmarks/README.md).
    static let configuration = CommandConfiguration(
        commandName: "playback-forensics",
        abstract: "Forensics on media-playback logs: why did the video start slowly, stall, or fail?",
        discussion: """
            EXIT STATUS
              0   the report was written; no finding at or above --fail-on
              1   a runtime error (a failed write, an unreadable bundle), or nothing playback-related was read
              2   a finding at or above --fail-on
              3   with --fail-on: no finding at or above it, but part of the evidence could not be judged
              64  a usage error (a bad option, a refused --config file)
            """,
        version: ToolInfo.version,
        subcommands: [
            Analyze.self, Triage.self, Timeline.self, Parse.self, Check.self, Explain.self, Formats.self, Rules.self,
        ],
        defaultSubcommand: Analyze.self)

    /// A first argument that is no subcommand, no option and no existing path, but close to a
    /// subcommand's name, is a typo: say so instead of reading it as the bundle to analyze.
    static func main() {
        Output.ignoreBrokenPipes()
        Output.removeTemporaryFilesOnSignals()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if let first = arguments.first, !first.hasPrefix("-"), first != "-", !names.contains(first),
            !FileManager.default.fileExists(atPath: first),
            let suggestion = Suggestion.closest(to: first, in: names)
        {
            Output.stderr(
                "Error: unknown command '\(first)'. Did you mean '\(suggestion)'?\n  See 'playback-forensics --help'.\n"
            )
            Foundation.exit(64)
        }
        // The commonest one-shot forms skip ArgumentParser's reflection (see `Parse.plain`).
        if arguments == ["--version"] {
            Output.stdout(ToolInfo.version + "\n")
            Foundation.exit(0)
        }
        if let plain = Parse.plain(arguments) {
            do {
                try Parse.run(
                    path: plain.path, options: InputOptions.defaults(redact: !plain.noRedact),
                    noRedact: plain.noRedact, format: plain.format)
            } catch {
                exitWriting(error)
            }
            Foundation.exit(0)
        }
        if let plain = Analyze.plain(arguments) {
            do {
                try Analyze.run(
                    path: plain.path, report: plain.report, output: plain.output, cdnLogs: [], config: nil,
                    failOn: nil, noRedact: plain.noRedact, options: InputOptions.defaults(redact: !plain.noRedact),
                    narrowing: ReportNarrowing(), session: nil)
            } catch {
                exitWriting(error)
            }
            Foundation.exit(0)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exitWriting(error)
        }
        Foundation.exit(0)
    }

    /// ArgumentParser's own exit, with its text written through `Output`: help or a completion
    /// script that cannot be written (a full disk, a closed pipe) is a failed write, exit 1 —
    /// `exit(withError:)` printed it unchecked and exited 0 (probe F).
    static func exitWriting(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if !message.isEmpty {
            if code == .success {
                Output.stdout(message + "\n")
            } else {
                Output.stderr(message + "\n")
            }
        }
        Foundation.exit(code.rawValue)
    }
}
