import Foundation
import ForensicsCore
import ForensicsReports
import ForensicsRules

/// Batch triage of a directory of user bundles, in parallel, with memory that does not grow with
/// the number of bundles: each bundle's full report is written to disk as soon as it is done and
/// only a small summary is kept.
///
/// What counts as one bundle: every entry directly inside the directory — a subdirectory, an
/// archive (`.zip`, `.tar`, `.tar.gz`/`.tgz`) or a single log file. Hidden entries are skipped.
public struct TriageRunner: Sendable {
    public var analyzer: Analyzer
    public var jobs: Int
    public var redactor: Redactor

    public init(analyzer: Analyzer, jobs: Int, redactor: Redactor = Redactor()) {
        self.analyzer = analyzer
        self.jobs = max(1, jobs)
        self.redactor = redactor
    }

    /// The bundles under `directory`, sorted by name.
    public static func bundles(in directory: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    public func run(directory: String, output: String, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> TriageSummary {
        let names = try Self.bundles(in: directory)
        let bundleDir = output + "/bundles"
        try FileManager.default.createDirectory(atPath: bundleDir, withIntermediateDirectories: true)
        let results = ResultBox(count: names.count)
        let markdown = MarkdownReporter(redactor: redactor, toolVersion: ToolInfo.version)
        let json = JSONReporter(redactor: redactor, toolVersion: ToolInfo.version)
        let analyzer = self.analyzer
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, names.count))) { _ in
            while let i = results.next() {
                let name = names[i]
                let path = directory + "/" + name
                let safe = TriageRunner.safeFileName(name)
                var summary: BundleSummary
                do {
                    let report = try analyzer.analyze(path: path)
                    try ReportFile.write(markdown.render(report), to: "\(bundleDir)/\(safe).md")
                    try ReportFile.write(json.render(report), to: "\(bundleDir)/\(safe).json")
                    summary = BundleSummary(name: name, file: safe, report: report, redactor: redactor)
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
        let mapped = name.map { c -> Character in c.isLetter || c.isNumber || c == "-" || c == "_" || c == "." ? c : "_" }
        return String(mapped)
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
    public var sessions: [SessionLine] = []
    public var inputProblems = 0

    init(name: String, file: String, error: String) {
        self.name = name
        self.file = file
        self.error = error
    }

    init(name: String, file: String, report: AnalysisReport, redactor: Redactor) {
        self.name = name
        self.file = file
        inputProblems = report.diagnostics.filter { $0.severity >= .error }.count
        sessions = report.sessions.map { r in
            let ordered = r.findings.sorted { $0.severity != $1.severity ? $0.severity > $1.severity : Finding.reportOrder($0, $1) }
            var counts: [String: [Severity: Int]] = [:]
            for f in r.findings { counts[f.ruleID, default: [:]][f.severity, default: 0] += 1 }
            var failures: [String: Int] = [:]
            for e in r.session.entries {
                guard let req = e.record.request, req.failed else { continue }
                let host = URLCanonicalizer.host(URLCanonicalizer.canonical(req.url)) ?? "unknown"
                let status = req.effectiveStatus.map { "HTTP \($0)" } ?? "\(req.error?.domain ?? "error") \(req.error?.code.map(String.init) ?? "")"
                failures["\(host)|\(status)", default: 0] += 1
            }
            return SessionLine(
                id: r.session.id, kpis: r.session.kpis, worst: ordered.first?.severity,
                topFinding: ordered.first.map { redactor.redact($0.title) }, topRule: ordered.first?.ruleID,
                findingCounts: counts, failures: failures, seriousCount: r.findings.filter { $0.severity >= .warning }.count)
        }
    }
}

/// All bundles' summaries.
public struct TriageSummary: Sendable {
    public var bundles: [BundleSummary]
}
