import ForensicsCore

/// `slow-content-key`: a content-key request slower than `slow-key-seconds` ended around the stall.
struct SlowContentKeyDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        let slow = (c.inFlight + c.window).filter { e in
            guard let r = e.record.request, r.kind == .contentKey else { return false }
            let end = e.endTime ?? c.stall.start
            let d = r.duration ?? (c.stall.start - (e.time ?? c.stall.start))
            return d > c.options.slowKeySeconds && end >= c.stall.start + -2
        }
        guard let k = slow.first, let t = k.time else { return nil }
        return StallCauseEvidence(
            cause: .slowContentKey, first: t, entries: slow, serverRows: slow.flatMap(c.serverRows),
            why:
                "a content-key request took \(NumberFormat.seconds(k.record.request?.duration ?? 0)) and ended around the stall"
        )
    }
}
