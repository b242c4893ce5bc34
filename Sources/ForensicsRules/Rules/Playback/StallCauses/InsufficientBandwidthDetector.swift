import ForensicsCore

/// `insufficient-bandwidth`: segments took longer to download than they play, or the access log
/// observed less throughput than the variant needs. With CDN rows joined to those segments it is
/// a claim about the last mile, and says so only where the server agrees: the edge answered from
/// cache with a quick first byte while the client's transfer crawled (`rules.md`).
struct InsufficientBandwidthDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        let slow = c.window.filter { e in
            guard let r = c.session.mergedRequest(e), r.kind == .segment, !r.failed, let d = r.duration,
                let sd = r.segmentDuration, sd > 0
            else { return false }
            return d > sd
        }
        if let s = slow.first, let t = s.time {
            let rows = slow.flatMap(c.serverRows)
            var why = "\(slow.count) segment\(slow.count == 1 ? "" : "s") downloaded slower than real time"
            // The last mile, proven: every joined row a quick cache hit.
            let quick = rows.filter { row in
                guard let s = row.serverRequest, s.cacheResult == .hit, let fb = s.firstByte else { return false }
                return fb < c.options.slowServerSeconds / 4
            }
            if !rows.isEmpty, quick.count == rows.count {
                why +=
                    "; the CDN answered \(rows.count == 1 ? "it" : "them") from cache with a first byte in \(NumberFormat.seconds(quick.compactMap { $0.serverRequest?.firstByte }.max() ?? 0)) (server rows joined): the time was spent on the last mile, not at the CDN"
            }
            return StallCauseEvidence(
                cause: .insufficientBandwidth, first: t, entries: slow, serverRows: rows, why: why)
        }
        let own = c.stall.fromAccessLog ? [c.session.entries[c.stall.index]] : []
        guard
            let low = (own + c.window).first(where: { e in
                if case .accessLog(let a) = e.record.payload, let o = a.observedBitrate, let i = a.indicatedBitrate {
                    return o < i
                }
                return false
            }), let t = low.time
        else { return nil }
        return StallCauseEvidence(
            cause: .insufficientBandwidth, first: t, entries: [low],
            why: "observed throughput below the playing variant's bitrate")
    }
}
