import ForensicsCore

/// `seek`: a seek shortly before the stall explains it (expected; info severity) — a seek
/// outside the buffered range, where the player must load before it plays. A seek the player
/// completed inside the buffer (`didSeekInBuffer`) had what it needed: a stall after it is not
/// the seek's wait and needs another cause (probe N: a 6.4 s stall hid behind an in-buffer seek).
struct SeekDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        guard let s = c.window.lastIndex(where: { $0.record.playerEvent?.kind == .seek }), let t = c.window[s].time,
            c.stall.start - t <= c.options.seekSeconds
        else { return nil }
        let completedInBuffer = c.window[(s + 1)...].contains {
            $0.record.playerEvent?.kind == .seekDidComplete && $0.record.playerEvent?.didSeekInBuffer == true
        }
        guard !completedInBuffer else { return nil }
        return StallCauseEvidence(
            cause: .seek, first: t, entries: [c.window[s]],
            why: "a seek \(NumberFormat.seconds(c.stall.start - t)) before the stall")
    }
}
