import Foundation
import ForensicsCore
import ForensicsParsers
import ForensicsReports
import ForensicsRules

/// Batch triage of a directory of user bundles, in parallel, with memory that does not grow with
/// the number of bundles: each bundle's reports go to the caller's sink as soon as it is done (the
/// CLI writes them to disk) and only a small summary is kept.
///
/// What counts as one bundle: every entry directly inside the directory — a subdirectory, an
/// archive (`.zip`, `.tar`, `.tar.gz`/`.tgz`) or a single log file. Hidden entries are skipped.
public struct TriageRunner: Sendable {
    public var analyzer: Analyzer
    public var jobs: Int
    public var redactor: Redactor
    /// What each bundle's report is narrowed to (sessions, time window, minimum severity).
    public var narrowing = ReportNarrowing()

    public init(analyzer: Analyzer, jobs: Int, redactor: Redactor = Redactor()) {
        self.analyzer = analyzer
        self.jobs = max(1, jobs)
        self.redactor = redactor
    }

    /// Why triage cannot start, in words (never Foundation's error dump).
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The bundles under `directory`, sorted by name.
    public static func bundles(in directory: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw SetupError(description: "\(directory) does not exist")
        }
        guard isDirectory.boolValue else {
            throw SetupError(
                description:
                    "\(directory) is a file, not a directory of bundles (to analyze one bundle: playback-forensics analyze \(directory))"
            )
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw SetupError(description: "cannot list \(directory): \(String(cString: strerror(EACCES)))")
        }
        return names.filter { !$0.hasPrefix(".") && !BundleReader.isPlatformClutter($0) }.sorted()
    }

    /// Whether a directory of bundles looks like one bundle given by mistake: log files directly
    /// inside, and no subdirectory or archive.
    public static func looksLikeOneBundle(_ directory: String, names: [String]) -> Bool {
        guard names.count >= 2 else { return false }
        for name in names {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
            let lower = name.lowercased()
            if isDirectory.boolValue || [".zip", ".tar", ".tgz", ".tar.gz"].contains(where: lower.hasSuffix) {
                return false
            }
        }
        return true
    }

    /// One bundle's reports, handed to the sink: `file` is a name unique in the run, safe on any
    /// file system, for the caller to store them under.
    public struct BundleReports: Sendable {
        public var file: String
        public var markdown: String
        public var json: String
    }

    /// Analyzes every bundle; `sink` receives each analyzed bundle's reports (on the worker that
    /// made them, so it must be safe to call concurrently). A sink that throws marks that bundle
    /// unreadable, with the error.
    public func run(
        directory: String, sink: @Sendable (BundleReports) throws -> Void,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws -> TriageSummary {
        let names = try Self.bundles(in: directory)
        let files = Self.uniqueFileNames(names.map(redactor.clean))
        let results = ResultBox(count: names.count)
        let markdown = MarkdownReporter(redactor: redactor, toolVersion: ToolInfo.version)
        let json = JSONReporter(redactor: redactor, toolVersion: ToolInfo.version)
        let analyzer = self.analyzer
        let narrowing = self.narrowing
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, names.count))) { _ in
            while let i = results.next() {
                // Shown cleaned: a bundle's name is log-derived text too (a signed query, an override).
                let name = redactor.clean(names[i])
                let path = directory + "/" + names[i]
                let safe = files[i]
                var summary: BundleSummary
                do {
                    let report = narrowing.apply(try analyzer.analyze(path: path))
                    if report.inputs.allSatisfy({ $0.records == 0 }) {
                        // Nothing playback-related: a stray file beside the bundles (a README) is
                        // skipped; a folder or archive without a log is unreadable, and named.
                        var isDirectory: ObjCBool = false
                        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                        let isArchive = report.inputs.count > 1 || report.inputs.contains { $0.path.contains("/") }
                        let why =
                            report.inputs.isEmpty
                            ? "no files in it"
                            : "no playback record in \(report.inputs.count) file\(report.inputs.count == 1 ? "" : "s")"
                        summary = BundleSummary(name: name, file: safe, error: why)
                        summary.skipped =
                            !isDirectory.boolValue && !isArchive
                            && report.diagnostics.allSatisfy { $0.severity < .error }
                    } else {
                        try sink(
                            BundleReports(file: safe, markdown: markdown.render(report), json: json.render(report)))
                        summary = BundleSummary(name: name, file: safe, report: report, redactor: redactor)
                    }
                } catch {
                    summary = BundleSummary(name: name, file: safe, error: "\(error)")
                }
                results.store(summary, at: i)
                progress?(results.doneCount, names.count)
            }
        }
        return TriageSummary(bundles: results.all())
    }

    static func safeFileName(_ name: String) -> String {
        let mapped = name.map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "_"
        }
        // Short enough for any file system with `.json` added (a 252-character name made the
        // bundle "unreadable"); a leading dot would hide the report.
        var safe = String(String(mapped).prefix(120))
        if safe.hasPrefix(".") || safe.isEmpty { safe = "_" + safe }
        return safe
    }

    /// One report file name per bundle: names that map to the same safe name (`a b`, `a_b`,
    /// `a?b`) get `-2`, `-3`, … in name order, so no report replaces another.
    static func uniqueFileNames(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            let base = safeFileName(name)
            var candidate = base
            var n = 2
            while !used.insert(candidate.lowercased()).inserted {
                candidate = "\(base)-\(n)"
                n += 1
            }
            return candidate
        }
    }

    /// Hands out bundle indices to workers and collects their summaries.
    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var nextIndex = 0
        private var done = 0
        private var results: [BundleSummary?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func next() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard nextIndex < results.count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }

        func store(_ s: BundleSummary, at i: Int) {
            lock.lock()
            results[i] = s
            done += 1
            lock.unlock()
        }

        var doneCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return done
        }

        func all() -> [BundleSummary] {
            lock.lock()
            defer { lock.unlock() }
            return results.compactMap { $0 }
        }
    }
}

/// What triage keeps of one bundle: small, whatever the bundle's size.
public struct BundleSummary: Sendable {
    public struct SessionLine: Sendable {
        public var id: String
        public var kpis: KPIs
        public var worst: Severity?
        public var topFinding: String?
        public var topRule: String?
        public var findingCounts: [String: [Severity: Int]]
        public var failures: [String: Int]  // "host|status" → count
        public var seriousCount: Int
    }

    public var name: String
    public var file: String
    public var error: String?
    /// A stray file beside the bundles with no playback record in it (a README): not a bundle.
    public var skipped = false
    public var sessions: [SessionLine] = []
    public var inputProblems = 0
    /// Why the bundle was not read to the end (its time limit, a bundle limit), or nil.
    public var incomplete: String?

    init(name: String, file: String, error: String) {
        self.name = name
        self.file = file
        self.error = error
    }

    init(name: String, file: String, report: AnalysisReport, redactor: Redactor) {
        self.name = name
        self.file = file
        inputProblems = report.diagnostics.filter { $0.severity >= .error }.count
        incomplete = report.incomplete
        sessions = report.sessions.map { r in
            let ordered = r.findings.sorted {
                $0.severity != $1.severity ? $0.severity > $1.severity : Finding.reportOrder($0, $1)
            }
            var counts: [String: [Severity: Int]] = [:]
            for f in r.findings { counts[f.ruleID, default: [:]][f.severity, default: 0] += 1 }
            var failures: [String: Int] = [:]
            for e in r.session.entries {
                guard let req = e.record.request, req.failed else { continue }
                let host = URLCanonicalizer.host(URLCanonicalizer.canonical(req.url)) ?? "unknown"
                let status =
                    req.effectiveStatus.map { "HTTP \($0)" }
                    ?? "\(req.error?.domain ?? "error") \(req.error?.code.map(String.init) ?? "")"
                failures["\(host)|\(status)", default: 0] += 1
            }
            return SessionLine(
                id: r.session.id, kpis: r.session.kpis, worst: ordered.first?.severity,
                topFinding: ordered.first.map { redactor.redact($0.title) }, topRule: ordered.first?.ruleID,
                findingCounts: counts, failures: failures,
                seriousCount: r.findings.filter { $0.severity >= .warning }.count)
        }
    }
}

/// All bundles' summaries.
public struct TriageSummary: Sendable {
    public var bundles: [BundleSummary]
}
