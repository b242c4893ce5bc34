import ArgumentParser
import PlaybackForensics

struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Print each session's aligned timeline: relative and wall time, source file:line, record.")

    @Argument(help: "The bundle.", completion: .file())
    var path: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Print JSON Lines: one entry per line, with its session id.")
    var jsonLines = false

    @Flag(name: .long, help: "Do not redact secrets.")
    var noRedact = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the sessions as a Chrome Trace Event / Perfetto trace to this file ('-' for stdout) instead of the listing: open it in ui.perfetto.dev or chrome://tracing.",
            valueName: "file"))
    var trace: String?

    @OptionGroup var input: InputOptions

    @OptionGroup var narrow: NarrowingOptions

    func validate() throws {
        if trace != nil, json || jsonLines {
            throw ValidationError(
                "--trace writes a trace instead of the listing: give it without --json or --json-lines")
        }
    }

    func run() throws {
        let analysis: AnalysisReport
        do {
            analysis = try Analyzer(options: try input.options(redact: !noRedact)).analyze(path: path)
        } catch let e as ValidationError {
            throw e
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        // Nothing playback-related read: said in one sentence, never an empty timeline and exit 0.
        if analysis.inputs.allSatisfy({ $0.records == 0 }) {
            Output.stderr(
                "playback-forensics: " + Redactor(enabled: !noRedact).redact(Analyze.nothingRecognised(analysis)) + "\n"
            )
            throw ExitCode(1)
        }
        let narrowing = try narrow.narrowing()
        let sessions = narrowing.apply(analysis).sessions
        if let session = narrow.session, sessions.isEmpty {
            Output.stderr(
                "playback-forensics: no session starts with '\(session)'; sessions: \(analysis.sessions.map(\.session.id).joined(separator: ", "))\n"
            )
            throw ExitCode(1)
        }
        let renderer = ReportRenderer(redact: !noRedact)
        // The timeline has no place for them: input problems go to standard error, so that a
        // row left out or a file cut short is never silent (probe N).
        let serious = analysis.diagnostics.filter { $0.severity >= .warning }
        let redactor = Redactor(enabled: !noRedact)
        for d in serious.prefix(5) {
            Output.stderr("playback-forensics: \(d.severity.rawValue): \(redactor.clean(d.location, d.message))\n")
        }
        if serious.count > 5 {
            Output.stderr(
                "playback-forensics: \(serious.count - 5) more input problems at warning level or above (`analyze` lists them)\n"
            )
        }
        if let trace {
            do {
                if trace == "-" {
                    renderer.trace(sessions, since: narrowing.since, until: narrowing.until) { Output.stdout($0) }
                } else {
                    try ReportFile.streaming(to: trace) { write in
                        try renderer.trace(sessions, since: narrowing.since, until: narrowing.until, into: write)
                    }
                }
            } catch {
                Output.stderr("playback-forensics: \(error)\n")
                throw ExitCode(1)
            }
            return
        }
        let format: ReportRenderer.ListingFormat = jsonLines ? .jsonLines : json ? .json : .text
        Output.stdout(
            renderer.timeline(sessions.map(\.session), as: format, since: narrowing.since, until: narrowing.until))
    }
}
