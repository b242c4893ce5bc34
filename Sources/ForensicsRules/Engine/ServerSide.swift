import ForensicsCore

/// What the CDN's own rows, joined to a client's failed requests, say about whose fault the
/// failure is (`../shared/spec/cdn-logs.md`, "What the join proves"): a negative response the
/// edge served from its cache, the origin really lacking the object, a broken path to the origin,
/// or the client closing the connection itself.
package enum ServerSide {
    package enum Owner: String, Sendable, CaseIterable {
        /// The edge answered from its cache, without asking the origin (negative caching).
        case cachedError = "cached-error"
        /// The CDN asked the origin, and the origin answered the error.
        case originMissing = "origin-missing"
        /// The CDN could not get an answer from the origin (DNS, connect, 5xx, origin errors).
        case originPathBroken = "origin-path-broken"
        /// The client closed the connection before the response ended (`000`, a client comm error).
        case clientAborted = "client-aborted"
    }

    /// A quick first byte, for "answered from the cache without asking the origin".
    static let cacheAnswerSeconds = 0.05

    /// The owner one row shows, or nil when it shows none of these.
    package static func owner(_ r: ServerRequest) -> Owner? {
        if r.clientAborted { return .clientAborted }
        let detail = (r.detail ?? "").lowercased()
        if detail.hasPrefix("origin") && detail.contains("error") { return .originPathBroken }
        guard let status = r.status, status >= 400 else { return nil }
        if status >= 500 || (r.originStatus ?? 0) >= 500 { return .originPathBroken }
        let askedOrigin =
            r.originFirstByte != nil || (r.originStatus ?? 0) > 0 || r.cacheResult == .miss
            || r.cacheResult == .refresh
        if askedOrigin { return .originMissing }
        if r.cacheResult == .hit || r.cacheResult == .error, (r.firstByte ?? .infinity) <= cacheAnswerSeconds {
            return .cachedError
        }
        return nil
    }

    /// One sentence for the rows joined to failed requests, the owners found, and the rows.
    package static func verdict(
        _ entries: [TimelineEntry], in session: Session
    ) -> (sentence: String, owners: [Owner], rows: [JoinedServerRow])? {
        var byOwner: [Owner: [JoinedServerRow]] = [:]
        for e in entries {
            for row in session.serverViews(of: e) where row.confidence != .ambiguous {
                guard let s = row.serverRequest, let o = owner(s) else { continue }
                byOwner[o, default: []].append(row)
            }
        }
        guard !byOwner.isEmpty else { return nil }
        var parts: [String] = []
        for o in Owner.allCases {
            guard let rows = byOwner[o], let first = rows.first?.serverRequest else { continue }
            let n = rows.count
            let ids = rows.compactMap { $0.serverRequest?.requestID }.prefix(3).joined(separator: ", ")
            let cdn = "the CDN\(first.pop.map { " (\($0))" } ?? "")"
            switch o {
            case .cachedError:
                parts.append(
                    "\(cdn) served \(n == 1 ? "the error" : "\(n) errors") from its cache in \(NumberFormat.seconds(first.firstByte ?? 0)) without asking the origin — a cached negative response (request ids \(ids))"
                )
            case .originMissing:
                parts.append(
                    "\(cdn) asked the origin, which answered \(first.originStatus ?? first.status ?? 0) — the origin lacks the object (request ids \(ids))"
                )
            case .originPathBroken:
                parts.append(
                    "\(cdn) could not get an answer from the origin (\(first.detail ?? "HTTP \(first.status ?? 0)")) — the path to the origin is broken (request ids \(ids))"
                )
            case .clientAborted:
                parts.append(
                    "the client closed \(n == 1 ? "the connection" : "\(n) connections") before the response ended — not a CDN fault (request ids \(ids))"
                )
            }
        }
        let owners = Owner.allCases.filter { byOwner[$0] != nil }
        return ("server side: " + parts.joined(separator: "; "), owners, owners.flatMap { byOwner[$0] ?? [] })
    }

    /// Where a slow key request's time went, by its joined server row: the key server itself
    /// (its own time is most of the client's wait), or the way to it (DNS, TLS, connection setup:
    /// the server answered in a fraction of it).
    package enum KeyWait: String, Sendable {
        case keyServer = "key-server"
        case network
        case split
    }

    /// The key wait a joined row shows, with one sentence and the row; nil without a timed row.
    package static func keyWait(
        _ rows: [JoinedServerRow], clientSeconds: Double
    ) -> (wait: KeyWait, sentence: String, row: JoinedServerRow)? {
        guard clientSeconds > 0,
            let row = rows.first(where: { $0.confidence != .ambiguous && serverSeconds($0.serverRequest) != nil }),
            let server = serverSeconds(row.serverRequest)
        else { return nil }
        let share = server / clientSeconds
        let said =
            "the server's row (\(row.confidence.rawValue) join) shows \(NumberFormat.seconds(server)) of the client's \(NumberFormat.seconds(clientSeconds))"
        if share >= 0.6 {
            return (.keyServer, said + ": the key server itself was slow", row)
        }
        if share <= 0.2 {
            return (
                .network,
                said + ": the time went to reaching the server (DNS, TLS, connection setup), not to the key server", row
            )
        }
        return (.split, said + ": the wait was split between the key server and the way to it", row)
    }

    /// How long the server took for a request: its logged total, else its own start to end.
    static func serverSeconds(_ r: ServerRequest?) -> Double? {
        guard let r else { return nil }
        if let t = r.lastByte { return t }
        guard r.anchorKnown, let s = r.start, let e = r.end, e >= s else { return nil }
        return e - s
    }
}
