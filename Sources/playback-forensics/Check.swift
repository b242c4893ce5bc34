import ArgumentParser
import PlaybackForensics

/// `check`: the stream checks alone, for a packager's CI.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Judge HLS playlists (files, folders, archives, HAR captures) against RFC 8216bis and Apple's authoring rules.",
        discussion: """
            Every defect with its file and line, its check id, MUST or SHOULD, and the requirement's \
            source; successive captures of one live playlist (a HAR) are judged as a series too. \
            The checks: Documentation/StreamChecks.md.

            EXIT STATUS
              0   no defect at or above --fail-on
              1   nothing could be read, or no playlist was found (nothing judged)
              2   a defect at or above --fail-on
              64  a usage error
            """)

    @Argument(help: "Playlists, folders, archives or HAR captures.", completion: .file())
    var paths: [String]

    @Option(
        name: .long, help: "Output: text (default), json, or junit (JUnit XML for CI).",
        completion: .list(["text", "json", "junit"]))
    var report: String = "text"

    @Option(name: .long, help: "Write the output to this file instead of stdout.", completion: .file())
    var output: String?

    @Option(
        name: .long, help: "Exit with status 2 when a defect at or above this severity exists (default: warning).",
        completion: .list(Severity.allCases.map(\.rawValue)))
    var failOn: Severity = .warning

    @Option(
        name: .long, parsing: .singleValue, help: "A check id not to report (repeatable).",
        completion: .list(StreamCheckRun.checkIDs))
    var ignore: [String] = []

    @Flag(name: .long, help: "Do not redact tokens and signatures in URLs.")
    var noRedact = false

    @OptionGroup var input: InputOptions

    func validate() throws {
        guard ["text", "json", "junit"].contains(report) else {
            throw ValidationError("--report must be text, json or junit")
        }
        for id in ignore where !StreamCheckRun.checkIDs.contains(id) {
            let hint =
                Suggestion.closest(to: id, in: StreamCheckRun.checkIDs, maxDistance: 4).map { " Did you mean '\($0)'?" }
                ?? ""
            throw ValidationError("--ignore: unknown check '\(id)'.\(hint)")
        }
    }

    func run() throws {
        let options = try input.options(redact: !noRedact)
        let result: StreamCheckRun
        do {
            result = try StreamCheckRun.run(paths: paths, options: options, ignore: Set(ignore))
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        let redactor = Redactor(enabled: !noRedact)
        let text =
            switch report {
            case "json": result.json(redactor: redactor)
            case "junit": result.junit(redactor: redactor, failOn: failOn)
            default: result.text(redactor: redactor)
            }
        try Output.emit(text, to: output)
        if result.playlists == 0 {
            Output.stderr("playback-forensics: no playlist found in \(paths.joined(separator: ", ")): nothing judged\n")
            throw ExitCode(1)
        }
        // A playlist no request could load is a broken stream at error level (a player cannot
        // play it), though no check judged its text.
        if result.defects.contains(where: { $0.severity >= failOn }) || (!result.notChecked.isEmpty && failOn <= .error)
        {
            throw ExitCode(2)
        }
    }
}
