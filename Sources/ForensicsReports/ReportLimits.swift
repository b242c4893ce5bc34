import ForensicsCore

/// What a report shows in full, and how the rest is summarised, so that a bundle of any size gives
/// a report of bounded size, time and memory (README, Limits). A bundle of 100,000 short sessions
/// made a 359 MB HTML page in two minutes and 3.2 GB; nobody reads past the first screens anyway.
///
/// The sessions kept in full are the worst ones (highest finding severity, then most findings,
/// then the report's order), shown in the report's order; the others are listed a row each up to
/// `listedSessions`, then counted by their worst severity. Every count (the bundle's session
/// count, the counts by severity) still covers all sessions.
package enum ReportLimits {
    /// Sessions written in full in Markdown and HTML.
    package static let detailedSessions = 100
    /// Further sessions listed one row each in Markdown and HTML.
    package static let listedSessions = 1_000
    /// Sessions written in full in the JSON report.
    package static let jsonSessions = 10_000
    /// Findings written in full per session (the rest counted by rule).
    package static let findingsPerSession = 200
    /// Input files listed one row each.
    package static let listedInputs = 1_000

    /// The sessions to show in full (at most `keep`, the worst), and the others, both in report order.
    package static func split(
        _ sessions: [AnalysisReport.SessionResult], keep: Int
    ) -> (
        full: [AnalysisReport.SessionResult], rest: [AnalysisReport.SessionResult]
    ) {
        guard sessions.count > keep else { return (sessions, []) }
        let ranked = sessions.indices.sorted { a, b in
            let (x, y) = (sessions[a], sessions[b])
            let (sx, sy) = (worst(x)?.rank ?? -1, worst(y)?.rank ?? -1)
            if sx != sy { return sx > sy }
            if x.findings.count != y.findings.count { return x.findings.count > y.findings.count }
            return a < b
        }
        let chosen = Set(ranked.prefix(keep))
        var full: [AnalysisReport.SessionResult] = []
        var rest: [AnalysisReport.SessionResult] = []
        full.reserveCapacity(keep)
        rest.reserveCapacity(sessions.count - keep)
        for (i, s) in sessions.enumerated() {
            if chosen.contains(i) { full.append(s) } else { rest.append(s) }
        }
        return (full, rest)
    }

    /// The session's most severe finding.
    package static func worst(_ r: AnalysisReport.SessionResult) -> Severity? {
        r.findings.map(\.severity).max()
    }

    /// `12 critical, 40 error, 3 warning, 1,000 without a finding at warning level or above`.
    package static func severityCounts(_ sessions: [AnalysisReport.SessionResult]) -> String {
        var counts: [Severity: Int] = [:]
        var clean = 0
        for s in sessions {
            if let w = worst(s), w >= .warning { counts[w, default: 0] += 1 } else { clean += 1 }
        }
        var parts = Severity.allCases.reversed().compactMap { s in counts[s].map { "\($0) \(s.rawValue)" } }
        if clean > 0 { parts.append("\(clean) without a finding at warning level or above") }
        return parts.joined(separator: ", ")
    }
}
