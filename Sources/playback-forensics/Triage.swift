import ArgumentParser
import Foundation
import PlaybackForensics

/// `triage DIR --output OUT` (the default), `triage merge OUT… --output OUT`.
struct Triage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "triage",
        abstract: "Triage a directory of bundles (each subdirectory, archive or file is one user bundle) in parallel.",
        usage: """
            playback-forensics triage <directory> --output <output> [--since-index] [--shard K/N] [options]
            playback-forensics triage merge <shard-output> ... --output <output>
            """,
        discussion: "Every option of a run: 'playback-forensics triage run --help'.",
        subcommands: [TriageRun.self, TriageMerge.self], defaultSubcommand: TriageRun.self)
}

struct TriageRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Triage a directory of bundles (each subdirectory, archive or file is one user bundle) in parallel.",
        discussion: """
            Writes OUTPUT/index.md and OUTPUT/index.html (problems grouped across sessions, sessions worst first), \
            OUTPUT/triage.json, OUTPUT/triage.sqlite (the triage index: bundles, sessions, findings, \
            evidence, problems; see Documentation/TriageIndex.md) and OUTPUT/bundles/ (each bundle's reports).
            """)

    @Argument(help: "The directory of bundles.", completion: .directory)
    var directory: String

    @Option(
        name: .long, help: "Where to write index.md, triage.json, triage.sqlite and bundles/.", completion: .directory)
    var output: String

    @Option(
        name: .long,
        help:
            "Triage only shard K of N (K/N, 1 ≤ K ≤ N): a deterministic share of the bundles, for one task of a distributed run; merge the shards' outputs with 'triage merge'."
    )
    var shard: String?

    @Flag(
        name: .long,
        help:
            "Update an earlier triage in --output: bundles whose content, name and analyzer settings are unchanged are not analysed again; bundles gone from the directory are removed."
    )
    var sinceIndex = false

    @Option(name: .long, help: "Bundles analyzed in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(
        name: .long, help: "Rule configuration (YAML or JSON).", completion: .file(extensions: ["yml", "yaml", "json"]))
    var config: String?

    @Option(
        name: .long,
        help:
            "Exit with status 2 when a finding at or above this severity exists; 3 when none does but a bundle could not be judged.",
        completion: .list(Severity.allCases.map(\.rawValue)))
    var failOn: Severity?

    @Flag(name: .long, help: "Do not redact secrets.")
    var noRedact = false

    @Flag(name: .long, help: "Also print the ranked sessions to stdout as JSON Lines, worst first.")
    var jsonLines = false

    @Flag(
        name: .long,
        help: "Replace an earlier triage's output in --output (a non-empty output directory is refused otherwise).")
    var force = false

    @Option(
        name: .long,
        help:
            "Seconds one bundle may spend being read; a slower bundle is analyzed with what was read by then and listed as read in part. Default: 120."
    )
    var bundleTimeLimit: Double = 120

    @Option(
        name: .customLong("cdn-logs"), parsing: .upToNextOption,
        help:
            "A day of CDN or web-server access logs (files, folders or archives), read once into OUTPUT/cdn-rows.sqlite and joined to every bundle's sessions by its keys (never read again per bundle; kept by --since-index).",
        completion: .file())
    var cdnLogs: [String] = []

    @OptionGroup var input: InputOptions

    @OptionGroup var narrow: NarrowingOptions

    func run() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        let shard = try shard.map { text in
            guard let s = TriageShard(text) else {
                throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N ≤ 10000, as in 2/8 (got '\(text)')")
            }
            return s
        }
        let rules = try ruleSet(config: config)
        guard bundleTimeLimit > 0, bundleTimeLimit <= 86_400 else {
            throw ValidationError("--bundle-time-limit must be between 0 and 86400 seconds")
        }
        var options = try input.options(redact: !noRedact)
        options.limits.timeLimit = .milliseconds(Int(bundleTimeLimit * 1000))
        let analyzer = Analyzer(options: options, rules: rules)
        var runner = TriageRunner(
            analyzer: analyzer, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            redactor: Redactor(enabled: !noRedact))
        runner.narrowing = try narrow.narrowing()
        runner.shard = shard
        runner.excluding = output
        let showProgress = Output.stderrIsTerminal
        let index: TriageIndex
        let statistics: TriageRunner.RunStatistics
        do {
            let names = try TriageRunner.bundles(in: directory, excluding: output)
            let lock = try TriageOutput.lock(output)
            let carryOver: Bool
            do {
                carryOver = try TriageOutput.prepare(output, force: force, update: sinceIndex)
            } catch {
                // Refused before anything was written: leave no lock file (or new directory) behind.
                lock.undo()
                throw error
            }
            if TriageRunner.looksLikeOneBundle(directory, names: names) {
                Output.stderr(
                    "triage: \(directory) holds log files directly, which looks like one bundle; each file is triaged as its own bundle (for one bundle: playback-forensics analyze \(directory))\n"
                )
            }
            if !cdnLogs.isEmpty {
                let store = try ServerRowStore(path: output + "/" + TriageOutput.serverRowsName)
                let stored = try analyzer.storeServerLogs(cdnLogs, in: store)
                let files = try store.files()
                runner.serverStore = store
                runner.serverLogsDescription = files.map { "\($0.name) \($0.size) \($0.modified) \($0.coverage.rows)" }
                    .joined(separator: ";")
                let problems = stored.diagnostics.filter { $0.severity >= .warning }
                Output.stderr(
                    "cdn-logs: \(stored.read) file\(stored.read == 1 ? "" : "s") read (\(stored.rows) rows), \(stored.reused) unchanged since the last run; \(problems.count) problem\(problems.count == 1 ? "" : "s")\n"
                )
                for d in problems.prefix(10) {
                    Output.stderr("  \(d.location.file):\(d.location.line): \(d.message)\n")
                }
            }
            index = try TriageOutput.openNewIndex(output, carryOver: carryOver)
            statistics = try runner.run(
                directory: directory, index: index, store: TriageOutput.reportStore(output), incremental: sinceIndex,
                progress: { done, total in
                    if showProgress { Output.stderr("\r\(done)/\(total) bundles") }
                })
        } catch {
            if Output.stderrIsTerminal { Output.stderr("\n") }
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        if showProgress { Output.stderr("\n") }
        try TriageOutput.updateOverview(
            index, to: output, redactor: runner.redactor, jsonLines: jsonLines,
            indexChanged: !sinceIndex || statistics.analyzed > 0 || statistics.removed > 0,
            settings: runner.analyzerFingerprint)
        let counts: TriageIndex.Counts
        var unreadable: [String] = []
        do {
            counts = try index.counts()
            try index.forEachBundle(.unreadable) { b in
                if unreadable.count < 5 { unreadable.append(runner.redactor.redact(b.name)) }
            }
            try TriageOutput.commit(index, to: output)
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        var line =
            "triage: \(counts.bundles) bundles, \(counts.sessions) sessions, \(counts.problems) problem\(counts.problems == 1 ? "" : "s"), \(counts.unreadable) unreadable"
        if counts.unreadable > 0 {
            line += " (\(unreadable.joined(separator: ", "))\(counts.unreadable > 5 ? ", …" : ""))"
        }
        if counts.couldNotJudge > 0 { line += ", \(counts.couldNotJudge) could not be judged" }
        if counts.nothingRead > 0 { line += ", \(counts.nothingRead) with nothing playback-related read" }
        if counts.skipped > 0 { line += ", \(counts.skipped) other file\(counts.skipped == 1 ? "" : "s") skipped" }
        if sinceIndex {
            line +=
                "; \(statistics.analyzed) analysed, \(statistics.reused) unchanged since the index, \(statistics.removed) removed"
        }
        if let shard { line += "; shard \(shard) (\(statistics.otherShards) bundles in other shards)" }
        Output.stderr(line + "; wrote \(output)/index.md\n")
        if let failOn {
            if let worst = counts.worst, worst >= failOn { throw ExitCode(2) }
            // A gate never passes a fleet part of which could not be judged.
            if counts.notFullyJudged > 0 { throw ExitCode(3) }
        }
    }
}
