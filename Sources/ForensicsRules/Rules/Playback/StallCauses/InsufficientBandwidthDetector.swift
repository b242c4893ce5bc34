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
            } else if !rows.isEmpty {
                // Joined rows that do not show a quick edge cannot make it a last-mile claim
                // (rules.md): say what they lack, and that the CDN's share is unproven.
                let untimed = rows.filter { $0.serverRequest?.firstByte == nil }.count
                let misses = rows.filter { [.miss, .refresh].contains($0.serverRequest?.cacheResult) }.count
                var lacks: [String] = []
                if untimed > 0 {
                    lacks.append("\(untimed) of \(rows.count) joined server rows record no first-byte time")
                }
                if misses > 0 { lacks.append("\(misses) \(misses == 1 ? "was a cache miss" : "were cache misses")") }
                if lacks.isEmpty { lacks.append("the CDN's first byte was not quick on every joined row") }
                why +=
                    "; unproven whether the last mile or the CDN was slow: \(lacks.joined(separator: ", ")), so the server side cannot show the edge answered fast"
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
