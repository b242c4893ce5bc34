import ForensicsCore

/// `slow-cdn-edge`: the CDN's rows show the edge itself slow — a long first byte on a cache hit
/// that took most of the client's download time (`rules.md`). (One POP slow for every viewer is
/// the fleet view's to show.)
struct SlowCDNEdgeDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        // Only server rows can show it: without a server log joined there is nothing to look at.
        guard c.session.serverJoin != nil else { return nil }
        var entries: [TimelineEntry] = []
        var rows: [JoinedServerRow] = []
        var worst = 0.0
        for e in c.inFlight + c.window {
            guard let r = e.record.request, r.kind == .segment || r.kind == .map || r.kind == .mediaPlaylist,
                let client = SlowOriginDetector.clientDuration(e), client > 0
            else { continue }
            for row in c.serverRows(e) {
                guard let s = row.serverRequest, s.cacheResult == .hit, let fb = s.firstByte,
                    fb >= c.options.slowServerSeconds, fb / client >= c.options.serverShare
                else { continue }
                entries.append(e)
                rows.append(row)
                worst = max(worst, fb)
            }
        }
        guard let first = entries.first, let t = first.time else { return nil }
        let pops = Set(rows.compactMap { $0.serverRequest?.pop }).sorted()
        return StallCauseEvidence(
            cause: .slowCDNEdge, first: t, entries: entries, serverRows: rows,
            why:
                "the CDN edge\(pops.isEmpty ? "" : " (\(pops.joined(separator: ", ")))") answered \(entries.count) request\(entries.count == 1 ? "" : "s") before the stall from its cache but took up to \(NumberFormat.seconds(worst)) to a first byte (server rows joined)"
        )
    }
}
