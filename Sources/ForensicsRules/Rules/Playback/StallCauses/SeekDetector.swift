import ForensicsCore

/// `seek`: a seek shortly before the stall explains it (expected; info severity).
struct SeekDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        guard let seek = c.window.last(where: { $0.record.playerEvent?.kind == .seek }), let t = seek.time,
            c.stall.start - t <= c.options.seekSeconds
        else { return nil }
        return StallCauseEvidence(
            cause: .seek, first: t, entries: [seek],
            why: "a seek \(NumberFormat.seconds(c.stall.start - t)) before the stall")
    }
}
