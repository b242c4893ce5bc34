import ForensicsCore
import Foundation

/// One bundle as the triage index holds it: what triage keeps of an analysis (small, whatever
/// the bundle's size), with every text that came from the logs already redacted.
package struct IndexedBundle: Sendable, Hashable {
    /// The bundle's name in the fleet directory, as shown (redacted).
    package var name: String
    /// Its reports' file name under `bundles/` (without extension).
    package var file: String
    /// SHA-256 of the bundle's bytes (`BundleContentHash`): the same bundle is not analysed twice.
    package var contentHash: String
    /// The bundle's files' sizes, times and inodes, hashed (`BundleContentHash.metadataKey`): the
    /// first check of `--since-index` (the same key: not read again, not even hashed); empty when
    /// unknown.
    package var metadataKey = ""
    /// What analysed it (tool version and settings, hashed): a different analyzer analyses again.
    package var analyzer: String
    package var error: String?
    /// A stray file beside the bundles with no playback record in it (a README): not a bundle.
    package var skipped = false
    /// Why the bundle was not read to the end, or nil.
    package var incomplete: String?
    /// The report's verdict (`problems-found`, `no-problem-found`, `could-not-judge`,
    /// `nothing-read`), nil for a bundle that could not be analysed at all.
    package var verdict: BundleVerdict.Status?
    /// Why part of the bundle could not be judged (redacted), one reason a line.
    package var couldNotJudge: [String] = []
    package var inputProblems = 0
    package var sessions: [IndexedSession] = []

    package init(name: String, file: String, contentHash: String, analyzer: String) {
        self.name = name
        self.file = file
        self.contentHash = contentHash
        self.analyzer = analyzer
    }
}

package struct IndexedSession: Sendable, Hashable {
    package var id: String
    /// Position in the bundle's report.
    package var ordinal: Int
    package var start: Timestamp?
    package var end: Timestamp?
    /// Whether the times are UTC (false: device local time in an unknown zone).
    package var utc = true
    package var kpis: KPIs
    package var sources: [String]
    package var client = ClientInfo()
    package var worst: Severity?
    package var topRule: String?
    package var topFinding: String?
    /// Findings at warning or above.
    package var seriousCount = 0
    /// Whether the session shows a playback or an attempt at one (`Session.isPlaybackAttempt`):
    /// the fleet's shares count these.
    package var played = true
    package var findings: [IndexedFinding] = []
    package var failures: [FailedRequests] = []

    package init(id: String, ordinal: Int, kpis: KPIs, sources: [String]) {
        self.id = id
        self.ordinal = ordinal
        self.kpis = kpis
        self.sources = sources
    }
}

package struct IndexedFinding: Sendable, Hashable {
    package var ordinal: Int
    package var ruleID: String
    package var severity: Severity
    package var title: String
    package var start: Timestamp?
    package var end: Timestamp?
    /// The problem the finding counts under: its own, or its cause's when it is a symptom.
    package var problem: ProblemKey
    /// The finding's own key: differs from `problem` for a symptom.
    package var own: ProblemKey
    /// The asset and variant it is about (a host-owned problem's spread).
    package var asset: String?
    package var variant: Int?
    package var evidence: [IndexedEvidence]

    package init(
        ordinal: Int, ruleID: String, severity: Severity, title: String, start: Timestamp?, end: Timestamp?,
        problem: ProblemKey, own: ProblemKey? = nil, asset: String? = nil, variant: Int? = nil,
        evidence: [IndexedEvidence]
    ) {
        self.ordinal = ordinal
        self.ruleID = ruleID
        self.severity = severity
        self.title = title
        self.start = start
        self.end = end
        self.problem = problem
        self.own = own ?? problem
        self.asset = asset
        self.variant = variant
        self.evidence = evidence
    }
}

package struct IndexedEvidence: Sendable, Hashable {
    package var file: String
    package var line: Int
    package var time: Timestamp?
    package var summary: String

    package init(file: String, line: Int, time: Timestamp?, summary: String) {
        self.file = file
        self.line = line
        self.time = time
        self.summary = summary
    }
}

/// Failed requests of one session to one host with one status (`HTTP 404`, `NSURLErrorDomain -1001`).
package struct FailedRequests: Sendable, Hashable {
    package var host: String
    package var status: String
    package var count: Int

    package init(host: String, status: String, count: Int) {
        self.host = host
        self.status = status
        self.count = count
    }
}

extension IndexedBundle {
    /// What triage keeps of `report`: sessions ranked within the bundle by report order, each
    /// finding with its problem key and evidence (file:line), failed requests by host and status.
    package init(
        name: String, file: String, contentHash: String, analyzer: String, report: AnalysisReport,
        redactor: Redactor
    ) {
        self.init(name: name, file: file, contentHash: contentHash, analyzer: analyzer)
        inputProblems = report.diagnostics.filter { $0.severity >= .error }.count
        incomplete = report.incomplete
        let verdict = report.verdict
        self.verdict = verdict.status
        couldNotJudge = verdict.couldNotJudge.map(redactor.redact)
        sessions = report.sessions.enumerated().map { ordinal, result in
            IndexedSession(result, ordinal: ordinal, redactor: redactor)
        }
    }
}

extension IndexedSession {
    init(_ result: AnalysisReport.SessionResult, ordinal: Int, redactor: Redactor) {
        let session = result.session
        self.init(id: session.id, ordinal: ordinal, kpis: session.kpis, sources: session.sources.map(\.rawValue))
        start = session.start
        end = session.end
        utc = session.timeBasis == .utc
        played = session.isPlaybackAttempt
        client = ClientInfo(session, redact: redactor.redact)
        let ordered = result.findings.sorted(by: Finding.severityFirst)
        worst = ordered.first?.severity
        topRule = ordered.first?.ruleID
        topFinding = ordered.first.map { redactor.redact($0.title) }
        seriousCount = result.findings.filter { $0.severity >= .warning }.count
        let keys = result.findings.map { ProblemKey($0, in: session, redact: redactor.redact) }
        let roots = ProblemFolding.roots(result.findings, keys: keys)
        findings = result.findings.enumerated().map { i, f in
            let spread = ProblemKey.spread(f, in: session, redact: redactor.redact)
            return IndexedFinding(
                ordinal: i, ruleID: f.ruleID, severity: f.severity, title: redactor.redact(f.title), start: f.start,
                end: f.end, problem: roots[i].map { keys[$0] } ?? keys[i], own: keys[i], asset: spread.asset,
                variant: spread.variant,
                evidence: f.evidence.map {
                    IndexedEvidence(
                        file: redactor.redact($0.location.file), line: $0.location.line, time: $0.time,
                        summary: redactor.redact($0.summary))
                })
        }
        // The session's one list of distinct failures (what its KPIs and rules count), so the
        // overview's numbers agree with each bundle's report.
        var failed: [String: [String: Int]] = [:]
        for f in session.analysis.failures {
            let host = redactor.redact(
                f.url.flatMap { URLCanonicalizer.host(URLCanonicalizer.canonical($0)) } ?? "unknown")
            failed[host, default: [:]][redactor.redact(f.statusText), default: 0] += 1
        }
        failures = failed.flatMap { host, byStatus in
            byStatus.map { FailedRequests(host: host, status: $0.key, count: $0.value) }
        }.sorted { ($0.host, $0.status) < ($1.host, $1.status) }
    }
}
