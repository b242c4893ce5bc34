import ForensicsCore

/// `slow-origin`: the CDN's own rows for media requests before the stall show cache misses whose
/// wait on the origin took most of the client's download time (`rules.md`). The origin's wait is
/// the row's origin first-byte time where the vendor logs it, else the edge's first byte on a miss.
struct SlowOriginDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        // Only server rows can show it: without a server log joined there is nothing to look at.
        guard c.session.serverJoin != nil else { return nil }
        var entries: [TimelineEntry] = []
        var rows: [JoinedServerRow] = []
        var worst: (wait: Double, share: Double)?
        for e in c.inFlight + c.window {
            guard let r = e.record.request, r.kind == .segment || r.kind == .map || r.kind == .mediaPlaylist,
                let client = Self.clientDuration(e), client > 0
            else { continue }
            for row in c.serverRows(e) {
                guard let s = row.serverRequest, s.cacheResult == .miss || s.cacheResult == .refresh,
                    let wait = s.originFirstByte ?? s.firstByte, wait >= c.options.slowServerSeconds,
                    wait / client >= c.options.serverShare
                else { continue }
                entries.append(e)
                rows.append(row)
                if wait > (worst?.wait ?? 0) { worst = (wait, wait / client) }
            }
        }
        guard let first = entries.first, let t = first.time, let worst else { return nil }
        return StallCauseEvidence(
            cause: .slowOrigin, first: t, entries: entries, serverRows: rows,
            why:
                "the CDN missed its cache for \(entries.count) request\(entries.count == 1 ? "" : "s") before the stall and waited \(NumberFormat.seconds(worst.wait)) on the origin, \(NumberFormat.trimmed(min(worst.share, 1) * 100, decimals: 0)) % of the client's download time (server rows joined)"
        )
    }

    /// Seconds the client took for the request, from its own view.
    static func clientDuration(_ e: TimelineEntry) -> Double? {
        if let d = e.record.request?.duration { return d }
        guard let s = e.time, let end = e.endTime else { return nil }
        return end - s
    }
}
