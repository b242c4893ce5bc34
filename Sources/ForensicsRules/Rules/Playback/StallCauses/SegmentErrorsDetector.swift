import ForensicsCore

/// `segment-errors`: media requests failed before the buffer ran out (one per request, however
/// many sources saw it; error-log rows about media too).
struct SegmentErrorsDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        let failed = c.mediaFailures.map { c.session.entries[$0.index] }
        guard let f = failed.first, let t = f.time else { return nil }
        let statuses = c.mediaFailures.compactMap(\.status).map(String.init)
        return StallCauseEvidence(
            cause: .segmentErrors, first: t, entries: failed,
            serverRows: failed.flatMap(c.serverRows),
            why: "\(failed.count) media request\(failed.count == 1 ? "" : "s") failed before the stall"
                + (statuses.isEmpty ? "" : " (HTTP \(Array(Set(statuses)).sorted().joined(separator: ", ")))"))
    }
}
