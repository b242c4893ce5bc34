import ForensicsCore

/// Narrows a report to what a reader asked for: sessions whose id starts with a prefix (case
/// folded; a session id is long), sessions overlapping a time window, findings at or above a
/// severity. The inputs and diagnostics stay whole: they describe the bundle, not the selection.
public struct ReportNarrowing: Sendable {
    public var sessionPrefix: String?
    public var since: Timestamp?
    public var until: Timestamp?
    public var minimumSeverity: Severity?

    public init(
        sessionPrefix: String? = nil, since: Timestamp? = nil, until: Timestamp? = nil, minimumSeverity: Severity? = nil
    ) {
        self.sessionPrefix = sessionPrefix
        self.since = since
        self.until = until
        self.minimumSeverity = minimumSeverity
    }

    public var isEmpty: Bool { sessionPrefix == nil && since == nil && until == nil && minimumSeverity == nil }

    /// The sessions a prefix matches (for a "no such session" message naming the candidates).
    public func matchesSession(_ id: String) -> Bool {
        guard let prefix = sessionPrefix?.uppercased(), !prefix.isEmpty else { return true }
        return id.uppercased().hasPrefix(prefix)
    }

    public func apply(_ report: AnalysisReport) -> AnalysisReport {
        var out = report
        out.sessions = report.sessions.compactMap { r in
            guard matchesSession(r.session.id) else { return nil }
            // Device local times of an unknown zone cannot be compared with a UTC window (they
            // may be 14 hours off either way): such a session is kept whole, and says so.
            let placeable = r.session.timeBasis == .utc
            // A session without times cannot be placed in a window: kept only without one.
            if since != nil || until != nil, placeable {
                guard let start = r.session.start, let end = r.session.end else { return nil }
                if let since, end < since { return nil }
                if let until, start > until { return nil }
            }
            var kept = r
            if since != nil || until != nil, !placeable {
                kept.gaps.append(
                    "times are device local in an unknown zone, so --since/--until cannot place them: shown whole (state the zone with --timezone)"
                )
            }
            if let minimumSeverity { kept.findings = r.findings.filter { $0.severity >= minimumSeverity } }
            if since != nil || until != nil, placeable {
                kept.findings = kept.findings.filter { f in
                    guard let t = f.start else { return true }
                    let end = f.end ?? t
                    if let since, end < since { return false }
                    if let until, t > until { return false }
                    return true
                }
            }
            // What the filters left out still counts in the verdict.
            if kept.findings.count < r.findings.count { kept.hiddenWorst = r.worstSeverity }
            return kept
        }
        var asked: [String] = []
        if let p = sessionPrefix { asked.append("session \(p)…") }
        if let since { asked.append("since \(since.iso8601)") }
        if let until { asked.append("until \(until.iso8601)") }
        if let minimumSeverity { asked.append("findings at \(minimumSeverity.rawValue) or above") }
        // Sessions left out are not judged here: the verdict is the selection's, and says so —
        // with what the left-out sessions hold, so that a narrowed all-clear never reads as the
        // bundle's.
        let shown = Set(out.sessions.map(\.session.id))
        let left = report.sessions.filter { !shown.contains($0.session.id) }
        if !out.sessions.isEmpty, !left.isEmpty {
            let troubled = left.filter { ($0.worstSeverity ?? .info) >= .warning || !$0.gaps.isEmpty }
            let n = left.count
            var scope =
                "narrowed to \(out.sessions.count) of the bundle's \(report.sessions.count) sessions (\(asked.joined(separator: ", "))): \(n) left out"
            if troubled.isEmpty {
                scope += ", none of them with a finding at warning level or above or a gap"
            } else {
                let worst = left.compactMap(\.worstSeverity).max().map { ", worst \($0.rawValue)" } ?? ""
                scope +=
                    ", \(troubled.count) of them with findings or gaps\(worst): the verdict above is the selection's, not the bundle's"
            }
            out.narrowedAway = scope
        }
        // Every session kept, but findings left out (a severity floor, a time window): the
        // verdict is still the selection's, and says what it left out.
        if out.narrowedAway == nil, !out.sessions.isEmpty, left.isEmpty {
            // Kept findings are a subsequence of each session's own (filters keep the order).
            let hidden = zip(report.sessions, out.sessions).flatMap { full, kept -> [Finding] in
                var left: [Finding] = []
                var k = kept.findings.startIndex
                for f in full.findings {
                    if k < kept.findings.endIndex, kept.findings[k] == f {
                        k += 1
                    } else {
                        left.append(f)
                    }
                }
                return left
            }
            if !hidden.isEmpty {
                let worst = hidden.map(\.severity).max().map { ", worst \($0.rawValue)" } ?? ""
                let n = hidden.count
                out.narrowedAway =
                    "narrowed (\(asked.joined(separator: ", "))): \(n) finding\(n == 1 ? "" : "s") of the bundle's \(report.sessions.reduce(0) { $0 + $1.findings.count }) left out\(worst); the verdict above is the selection's, not the bundle's"
            }
        }
        if out.sessions.isEmpty, !report.sessions.isEmpty {
            let starts = report.sessions.compactMap { $0.session.start }
            let ends = report.sessions.compactMap { $0.session.end }
            let span =
                starts.min().flatMap { s in ends.max().map { " (from \(s.iso8601) to \($0.iso8601))" } } ?? ""
            let n = report.sessions.count
            let why =
                "none of the bundle's \(n) session\(n == 1 ? "" : "s")\(span) is in what was asked for (\(asked.joined(separator: ", "))): nothing was judged"
            out.narrowedAway = why
            out.caveats.append(why)
        }
        return out
    }
}
