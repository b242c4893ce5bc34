import ArgumentParser
import Foundation
import PlaybackForensics

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Print the records and diagnostics of one file (or of every file of a bundle).")

    @Argument(help: "The file (or bundle) to parse.", completion: .file())
    var path: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Print JSON Lines: one record per line, with its file.")
    var jsonLines = false

    @Flag(name: .long, help: "Do not redact tokens, signatures, keys and credentials.")
    var noRedact = false

    @OptionGroup var input: InputOptions

    func run() throws {
        try Self.run(
            path: path, options: try input.options(redact: !noRedact), noRedact: noRedact,
            format: jsonLines ? .jsonLines : json ? .json : .text)
    }

    static func run(path: String, options: AnalysisOptions, noRedact: Bool, format: ReportRenderer.ListingFormat) throws
    {
        let bundle: ParsedBundle
        do {
            bundle = try Analyzer(options: options).read(path: path)
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        Output.stdout(ReportRenderer(redact: !noRedact).parsed(bundle, as: format))
    }

    /// `parse PATH` with no option but `--json`, `--json-lines` and `--no-redact` (each at most
    /// once), read without ArgumentParser; nil for anything else, which then takes the long way.
    ///
    /// Why: ArgumentParser reads a command's options by reflection, and each property wrapper's
    /// first dynamic cast scans every protocol conformance of the static binary — 21.8 M of the
    /// 68 M instructions of `parse` on a 43,200-segment playlist, more than the playlist's
    /// parse itself (Benchmarks/README.md, "A lean start"). The result is the same command with
    /// every `InputOptions` left at its default; `CLITests` compares both ways' output.
    static func plain(_ arguments: [String]) -> (path: String, noRedact: Bool, format: ReportRenderer.ListingFormat)? {
        guard arguments.first == "parse" else { return nil }
        var path: String?
        var json = false
        var jsonLines = false
        var noRedact = false
        for argument in arguments.dropFirst() {
            switch argument {
            case "--json" where !json: json = true
            case "--json-lines" where !jsonLines: jsonLines = true
            case "--no-redact" where !noRedact: noRedact = true
            default:
                // Options, `-` (standard input) and `--` go the long way, as does a second path.
                guard path == nil, !argument.hasPrefix("-"), !argument.isEmpty else { return nil }
                path = argument
            }
        }
        guard let path else { return nil }
        return (path, noRedact, jsonLines ? .jsonLines : json ? .json : .text)
    }
}
