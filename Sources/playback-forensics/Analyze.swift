import ArgumentParser
import PlaybackForensics

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyze one bundle (folder, .zip, .tar.gz, file, or - for stdin) and report per session.")

    @Argument(help: "The bundle to analyze.", completion: .file())
    var path: String

    @Option(
        name: .long, help: "Report format: markdown, json, or html (one self-contained file, timelines as inline SVG).",
        completion: .list(["markdown", "json", "html"]))
    var report: ReportFormat?

    @Option(name: .long, help: "Write the report to this file instead of stdout (- is stdout).", completion: .file())
    var output: String?

    @Option(
        name: .customLong("cdn-logs"), parsing: .upToNextOption,
        help:
            "CDN or web-server access logs (files, folders or archives of a day's logs), kept apart from the bundle: their rows are joined to its sessions.",
        completion: .file())
    var cdnLogs: [String] = []

    @Option(
        name: .long, help: "Rule configuration (YAML or JSON): thresholds, severities, enabled rules.",
        completion: .file(extensions: ["yml", "yaml", "json"]))
    var config: String?

    @Option(
        name: .long,
        help:
            "Exit with status 2 when a finding at or above this severity exists (info, warning, error, critical); 3 when none does but part of the evidence could not be judged.",
        completion: .list(Severity.allCases.map(\.rawValue)))
    var failOn: Severity?

    @Flag(name: .long, help: "Do not redact tokens, signatures, keys and credentials in the report.")
    var noRedact = false

    @OptionGroup var input: InputOptions

    @OptionGroup var narrow: NarrowingOptions

    func run() throws {
        try Self.run(
            path: path, report: report, output: output, cdnLogs: cdnLogs, config: config, failOn: failOn,
            noRedact: noRedact, options: try input.options(redact: !noRedact), narrowing: try narrow.narrowing(),
            session: narrow.session)
    }

    /// `analyze PATH` with no option but `--report FORMAT`, `--output FILE` and `--no-redact` (each
    /// at most once, separate words), read without ArgumentParser; nil for anything else, which
    /// then takes the long way. Why: ArgumentParser reads a command's options by reflection, a
    /// quarter of the instructions of `analyze` on a small bundle (as for `Parse.plain`).
    /// `CLITests` compares both ways' output.
    static func plain(_ arguments: [String]) -> (path: String, report: ReportFormat?, output: String?, noRedact: Bool)?
    {
        guard arguments.first == "analyze" else { return nil }
        var path: String?
        var report: ReportFormat?
        var output: String?
        var noRedact = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--no-redact" where !noRedact: noRedact = true
            case "--report" where report == nil:
                guard let value = rest.popFirst(), let format = ReportFormat(rawValue: value) else { return nil }
                report = format
            case "--output" where output == nil:
                // `-` is standard output; any other value that looks like an option goes the long way.
                guard let value = rest.popFirst(), value == "-" || (!value.hasPrefix("-") && !value.isEmpty) else {
                    return nil
                }
                output = value
            default:
                // Other options, `-` (standard input) and `--` go the long way, as does a second path.
                guard path == nil, !argument.hasPrefix("-"), !argument.isEmpty else { return nil }
                path = argument
            }
        }
        guard let path else { return nil }
        return (path, report, output, noRedact)
    }

    /// The command, from its values (`run()` and the plain form both come here).
    static func run(
        path: String, report: ReportFormat?, output: String?, cdnLogs: [String], config: String?, failOn: Severity?,
        noRedact: Bool, options: AnalysisOptions, narrowing: ReportNarrowing, session: String?
    ) throws {
        let rules = try ruleSet(config: config)
        let whole: AnalysisReport
        do {
            whole = try Analyzer(options: options, rules: rules).analyze(path: path, serverLogs: cdnLogs)
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        let analysis = narrowing.apply(whole)
        if narrowing.sessionPrefix != nil, analysis.sessions.isEmpty, !whole.sessions.isEmpty {
            let ids = whole.sessions.prefix(10).map(\.session.id).joined(separator: ", ")
            Output.stderr("playback-forensics: no session starts with '\(session ?? "")'; sessions: \(ids)\n")
            throw ExitCode(1)
        }
        let redactor = Redactor(enabled: !noRedact)
        // On a terminal, with no format or file asked for: a short summary, not the Markdown source.
        let text =
            report == nil && output == nil && Output.stdoutIsTerminal
            ? TerminalSummary(redactor: redactor, color: Output.stdoutColor).render(
                analysis, command: "playback-forensics analyze \(Output.shellQuoted(path))")
            : ReportRenderer(redact: !noRedact).render(analysis, as: report ?? .markdown)
        try Output.emit(text, to: output)
        let problems = analysis.diagnostics.filter { $0.severity >= .error }.count
        if problems > 0 {
            Output.stderr(
                "playback-forensics: " + Output.paint("\(problems) input problem\(problems == 1 ? "" : "s")", .warning)
                    + " (see Diagnostics in the report)\n")
        }
        // On a terminal, where the report went to a file: what it found, in its colour.
        if Output.stderrIsTerminal, let output, output != "-" {
            let findings = analysis.sessions.flatMap(\.findings)
            if let worst = analysis.worstSeverity {
                // Findings the filters hid still count in the worst (the verdict's story), and
                // the line says so rather than "0 findings, worst error" (review).
                let shown =
                    findings.isEmpty
                    ? "no finding shown (the filters hide them)"
                    : "\(findings.count) finding\(findings.count == 1 ? "" : "s")"
                Output.stderr(
                    "playback-forensics: \(shown), worst "
                        + Output.paint(worst.rawValue, worst) + "; wrote \(output)\n")
            } else {
                Output.stderr("playback-forensics: no findings; wrote \(output)\n")
            }
        }
        // Nothing to analyze is a failure, said in one sentence (after the report, which says
        // what each file was): exit 1, whatever --fail-on says.
        if whole.inputs.allSatisfy({ $0.records == 0 }) {
            Output.stderr("playback-forensics: " + redactor.redact(Self.nothingRecognised(whole)) + "\n")
            throw ExitCode(1)
        }
        // Records read, none of them playback (server logs alone): the same failure.
        let verdict = whole.verdict
        if verdict.status == .nothingRead {
            Output.stderr(
                "playback-forensics: "
                    + redactor.redact(verdict.couldNotJudge.first ?? "nothing playback-related was read") + "\n")
            throw ExitCode(1)
        }
        if let failOn {
            // The gate judges every finding of the sessions shown: `--min-severity` narrows what is
            // printed, not what the exit status says.
            var gateNarrowing = narrowing
            gateNarrowing.minimumSeverity = nil
            let gate = gateNarrowing.apply(whole)
            if let worst = gate.worstSeverity, worst >= failOn { throw ExitCode(2) }
            // A gate never passes on evidence it could not judge (whatever else was found below it).
            if !gate.verdict.couldNotJudge.isEmpty { throw ExitCode(3) }
        }
    }

    /// `read 3 files (a.txt, b.bin, c); none holds a playback record: expected AVMetrics events, …`
    static func nothingRecognised(_ analysis: AnalysisReport) -> String {
        let expected =
            "expected AVMetrics events (JSON), AVPlayer access or error logs, KTVHTTPCache logs, HLS playlists or HAR captures (see `playback-forensics formats`)"
        guard !analysis.inputs.isEmpty else { return "\(analysis.bundle): no files to read; \(expected)" }
        // Each file with why it was not read, where that is known.
        let names =
            analysis.inputs.prefix(3).map { i in i.notRead.map { "\(i.path): \($0.reason)" } ?? i.path }.joined(
                separator: "; ") + (analysis.inputs.count > 3 ? "; …" : "")
        let count = analysis.inputs.count
        return
            "\(analysis.bundle): read \(count) file\(count == 1 ? "" : "s") (\(names)); none holds a playback record: \(expected)"
    }
}
