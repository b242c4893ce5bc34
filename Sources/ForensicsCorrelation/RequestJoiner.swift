import ForensicsCore

/// Joins server rows (CDN and origin logs) to the requests of the bundle's sessions, beside the
/// sessionizer: a server log holds every viewer, so its rows are matched *to* sessions by the
/// strongest key there is, labelled, and never make a session of their own
/// (`../shared/spec/cdn-logs.md`, "Join keys").
///
/// 1. **exact** — the row's request id equals the response header the client recorded
///    (CloudFront `x-amz-cf-id`; a Cloudflare `CF-Ray` is the ray id and `-COLO`), and the paths agree;
/// 2. **strong** — the row names the session (`X-Playback-Session-Id`, CMCD `sid`), with the same
///    path and range; the nearest in time;
/// 3. the device-to-server clock offset, from the exact and strong pairs (median and spread);
/// 4. **probable** — the same path, query and range, inside the request's time window once the
///    offset is applied, widened by the server's resolution and the offset's spread, and no other
///    row fits; **ambiguous** when several do (all kept, none chosen).
///
/// A row joins one request at most. Only rows of the session's own window are looked at.
package struct RequestJoiner: Sendable {
    /// Slack around a request's interval for a probable match when no exact or strong pair gave
    /// an offset: device and server clocks both follow NTP, but not to the millisecond.
    package var unalignedSlack: Double = 2
    /// A strong pair further apart than this is not the same request (device zones and skew).
    package var maxPairDistance: Double = 15 * 3600
    /// How many rows for one path one request looks at, at most (thousands of viewers fetch the
    /// same segment: the window, not the path, must narrow them).
    package var maxCandidates = 256
    /// How many rows an ambiguous request lists, nearest first.
    package var maxAmbiguous = 4

    package init() {}

    /// One server row, where it is and when.
    struct Row {
        var record: Record
        var request: ServerRequest
        var start: Double
        var end: Double
    }

    /// Rows by path, each list in start order, and by request id.
    struct RowIndex {
        var rows: [Row] = []
        var byPath: [String: [Int]] = [:]
        var byRequestID: [String: [Int]] = [:]
        var earliest = Double.infinity
        var latest = -Double.infinity

        init(_ files: [SourceFile]) {
            for file in files {
                for record in file.records {
                    guard case .serverRequest(let r) = record.payload,
                        var start = (r.start ?? r.end ?? record.time)?.secondsSince1970
                    else { continue }
                    var end = (r.end ?? r.start ?? record.time)?.secondsSince1970 ?? start
                    // A log that writes whole seconds cuts the time down: the true instant is
                    // somewhere in the next second, its middle the unbiased guess (otherwise
                    // every pair is half a second off, and so is the offset).
                    if r.resolution >= 1 {
                        start += r.resolution / 2
                        end += r.resolution / 2
                    }
                    byPath[r.path, default: []].append(rows.count)
                    if let id = r.requestID, !id.isEmpty { byRequestID[id, default: []].append(rows.count) }
                    earliest = min(earliest, start)
                    latest = max(latest, end)
                    rows.append(Row(record: record, request: r, start: start, end: max(start, end)))
                }
            }
            for key in byPath.keys {
                byPath[key]?.sort { rows[$0].start < rows[$1].start || (rows[$0].start == rows[$1].start && $0 < $1) }
            }
        }
    }

    /// A client request the join looks at: its timeline entry and every view's facts.
    struct ClientRequest {
        var entry: Int
        var path: String
        var query: String?
        var rangeStart: Int64
        var start: Double
        var end: Double
        var kind: MediaRequest.Kind
        /// Response header values (lower-cased names) from every view of the request.
        var headers: [String: [String]]
    }

    /// Joins the rows of `serverFiles` to `sessions` (their `serverViews` by timeline entry,
    /// each session a `serverJoin`), and returns how many rows joined no session.
    package func join(_ sessions: inout [Session], serverFiles: [SourceFile]) -> Int {
        let index = RowIndex(serverFiles)
        guard !serverFiles.isEmpty else { return 0 }
        var used = Set<Int>()
        for s in sessions.indices {
            join(&sessions[s], index, used: &used)
        }
        return index.rows.count - used.count
    }

    func join(_ session: inout Session, _ index: RowIndex, used: inout Set<Int>) {
        let requests = Self.clientRequests(session)
        var joins: [Int: [(row: Int, confidence: JoinConfidence, key: JoinKey)]] = [:]
        var pairs: [Double] = []
        var pairRows: [Int] = []
        // 1 and 2: exact and strong keys.
        for (q, request) in requests.enumerated() {
            if let row = exactMatch(request, index, used: used) {
                used.insert(row)
                joins[q] = [(row, .exact, .requestID)]
                pairs.append(request.start - index.rows[row].start)
                pairRows.append(row)
            } else if session.idIsFromLogs, let row = strongMatch(request, session.id, index, used: used) {
                used.insert(row)
                joins[q] = [(row, .strong, .sessionID)]
                pairs.append(request.start - index.rows[row].start)
                pairRows.append(row)
            }
        }
        // 3: the offset, client minus server.
        let offset = pairs.isEmpty ? nil : Self.median(pairs)
        // A whole-second log cannot place a pair better than half its resolution, however well
        // the pairs agree: the spread says so.
        let coarsest = pairRows.map { index.rows[$0].request.resolution }.max() ?? 0
        let spread = offset.map { o in max(Self.median(pairs.map { abs($0 - o) }), coarsest / 2) }
        // 4: path, query and range in the window. Several rows fit: the nearest in time is still
        // the request's when the two are each other's nearest (no other request of the path is
        // nearer to that row) by more than the row's resolution; otherwise all are listed as
        // ambiguous and none is chosen.
        var requestsByPath: [String: [Int]] = [:]
        for (q, request) in requests.enumerated() { requestsByPath[request.path, default: []].append(q) }
        let o = offset ?? 0
        for (q, request) in requests.enumerated() where joins[q] == nil {
            let candidates = probableCandidates(request, index, used: used, offset: o, spread: spread)
            guard !candidates.isEmpty else { continue }
            if candidates.count == 1 {
                used.insert(candidates[0])
                joins[q] = [(candidates[0], .probable, .pathAndTime)]
            } else if let row = Self.mutualNearest(q, candidates, requests, requestsByPath, index, offset: o) {
                used.insert(row)
                joins[q] = [(row, .probable, .pathAndTime)]
            } else {
                // None chosen: every candidate stays free for another request's better claim.
                // The nearest `maxAmbiguous` are listed (a popular segment has hundreds of
                // viewers' rows in any window; listing them all is no evidence and no use).
                let nearest = candidates.sorted {
                    abs(index.rows[$0].start - (request.start - o)) < abs(index.rows[$1].start - (request.start - o))
                }
                joins[q] = nearest.prefix(maxAmbiguous).map { ($0, .ambiguous, .pathAndTime) }
            }
        }
        var counts: [JoinConfidence: Int] = [:]
        let shift = -(offset ?? 0)
        for (q, list) in joins.sorted(by: { $0.key < $1.key }) {
            let entry = requests[q].entry
            for j in list {
                let row = index.rows[j.row]
                session.serverViews[entry, default: []].append(
                    JoinedServerRow(
                        record: row.record, confidence: j.confidence, key: j.key,
                        alignedStart: Timestamp(row.start - shift), alignedEnd: Timestamp(row.end - shift),
                        entryIndex: entry))
            }
            if let c = list.first?.confidence { counts[c, default: 0] += 1 }
        }
        let window = Self.window(requests)
        var inWindow = 0
        var caveats: [String] = []
        if let window {
            for row in index.rows where row.end >= window.start - 60 && row.start <= window.end + 60 { inWindow += 1 }
            // Server time = client time − offset; a row's time is known to its resolution.
            let slack = 1 + (index.rows.map(\.request.resolution).max() ?? 0)
            if index.earliest > window.start - (offset ?? 0) + slack
                || index.latest < window.end - (offset ?? 0) - slack
            {
                caveats.append(
                    "the server logs cover \(Timestamp(index.earliest).iso8601) to \(Timestamp(index.latest).iso8601), not all of the session's \(Timestamp(window.start).iso8601) to \(Timestamp(window.end).iso8601)"
                )
            }
        }
        if offset == nil, !joins.isEmpty {
            caveats.append(
                "no request id or session id joined a row: device and server clocks assumed to agree within \(NumberFormat.trimmed(unalignedSlack, decimals: 1)) s"
            )
        }
        session.serverJoin = ServerJoin(
            offset: offset, spread: spread, pairs: pairs.count, joined: counts,
            unmatchedRequests: requests.count - joins.count, serverRows: index.rows.count, rowsInWindow: inWindow,
            caveats: caveats)
        if joins.isEmpty {
            session.serverJoin?.noMatch = Self.noMatch(requests, index, window: window, inWindow: inWindow)
        }
    }

    /// Why nothing joined: no request to join to, no row in the session's time, or no key in common.
    static func noMatch(
        _ requests: [ClientRequest], _ index: RowIndex, window: (start: Double, end: Double)?, inWindow: Int
    ) -> String {
        guard let window else {
            return
                "no match: the session's sources record no individual request (an AVPlayer access log has a row per period of playing, not per request), so there is nothing to join server rows to"
        }
        let covered =
            index.rows.isEmpty
            ? "the server logs hold no readable row"
            : "the server logs cover \(Timestamp(index.earliest).iso8601) to \(Timestamp(index.latest).iso8601)"
        if inWindow == 0 {
            return
                "no match: no server row falls within the session's \(Timestamp(window.start).iso8601) to \(Timestamp(window.end).iso8601) (\(covered))"
        }
        let paths = Set(requests.map(\.path))
        if !paths.contains(where: { index.byPath[$0] != nil }) {
            return
                "no match: \(inWindow) server rows fall within the session's time, but none is for a path the session requested (other viewers, or another host's log)"
        }
        return
            "no match: rows for the session's paths exist, but none within its requests' times once clocks are aligned, and none carries a request id the client recorded or the session's id"
    }

    /// The row whose request id the client's response headers carry, with the same path.
    func exactMatch(_ request: ClientRequest, _ index: RowIndex, used: Set<Int>) -> Int? {
        for (name, values) in request.headers.sorted(by: { $0.key < $1.key }) {
            for value in values {
                // A Cloudflare `CF-Ray` is `<ray id>-<colo>`; the log's `RayID` is the first part.
                let ids = [value] + (value.split(separator: "-").count == 2 ? [String(value.prefix { $0 != "-" })] : [])
                for id in ids {
                    // A request id is unique in a sane log; a hostile one repeating it is read a bounded way.
                    for row in (index.byRequestID[id] ?? []).prefix(64) where !used.contains(row) {
                        let r = index.rows[row].request
                        if r.path == request.path, r.requestIDHeader?.lowercased() ?? name == name { return row }
                    }
                }
            }
        }
        return nil
    }

    /// The nearest row naming this session, with the request's path and range.
    func strongMatch(_ request: ClientRequest, _ sessionID: String, _ index: RowIndex, used: Set<Int>) -> Int? {
        guard let list = index.byPath[request.path], !list.isEmpty else { return nil }
        // Outward from the row nearest in time (rows are in start order), so thousands of other
        // viewers' rows for a popular segment are not all read: the first row of this session
        // found on each side bounds the search on that side.
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if index.rows[list[mid]].start < request.start { lo = mid + 1 } else { hi = mid }
        }
        var best: (row: Int, distance: Double)?
        var left = lo - 1
        var right = lo
        var looked = 0
        while looked < maxCandidates * 16, left >= 0 || right < list.count {
            // The nearer of the two next rows.
            let takeLeft: Bool
            if left < 0 {
                takeLeft = false
            } else if right >= list.count {
                takeLeft = true
            } else {
                takeLeft =
                    request.start - index.rows[list[left]].start <= index.rows[list[right]].start - request.start
            }
            let row = takeLeft ? list[left] : list[right]
            if takeLeft { left -= 1 } else { right += 1 }
            looked += 1
            let d = abs(index.rows[row].start - request.start)
            if d >= maxPairDistance || d >= (best?.distance ?? .infinity) { break }
            guard !used.contains(row) else { continue }
            let r = index.rows[row].request
            guard let sid = r.sessionHeader, sid.caseInsensitiveCompare(sessionID), Self.sameRange(r, request) else {
                continue
            }
            best = (row, d)
        }
        return best?.row
    }

    /// Rows with the request's path, query and range whose time overlaps the request's window.
    func probableCandidates(
        _ request: ClientRequest, _ index: RowIndex, used: Set<Int>, offset: Double, spread: Double?
    ) -> [Int] {
        guard let list = index.byPath[request.path] else { return [] }
        // Server time = client time − offset; the window is widened by what is not known.
        let slack = spread.map { max($0 * 3, 0.25) } ?? unalignedSlack
        let live = request.kind == .mediaPlaylist && !(request.query ?? "").contains("_HLS_msn")
        var out: [Int] = []
        // First row that may end inside the window: rows are in start order; look back a bounded way.
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if index.rows[list[mid]].start < request.start - offset - 3600 { lo = mid + 1 } else { hi = mid }
        }
        var looked = 0
        for row in list[lo...] {
            let r = index.rows[row]
            let resolution = r.request.resolution
            let from = request.start - offset - slack - resolution
            let to = request.end - offset + slack + resolution
            if r.start > to { break }
            looked += 1
            if looked > maxCandidates { break }
            guard !used.contains(row), r.end >= from, r.start <= to, Self.sameRange(r.request, request) else {
                continue
            }
            // A live playlist is fetched again every target duration: without `_HLS_msn` only
            // a row starting within the resolution of the request is the same fetch.
            if live, abs(r.start - (request.start - offset)) > resolution + (spread ?? unalignedSlack) { continue }
            if let q = request.query, let rq = r.request.query, !q.isEmpty, !rq.isEmpty,
                Self.stableQuery(q) != Self.stableQuery(rq)
            {
                continue
            }
            out.append(row)
        }
        return out
    }

    /// The candidate nearest to request `q` in time, when it is nearer than the next by more than
    /// its resolution and no other request of the same path and range is nearer to it.
    static func mutualNearest(
        _ q: Int, _ candidates: [Int], _ requests: [ClientRequest], _ byPath: [String: [Int]], _ index: RowIndex,
        offset: Double
    ) -> Int? {
        func distance(_ row: Int, _ r: ClientRequest) -> Double { abs(index.rows[row].start - (r.start - offset)) }
        let ranked = candidates.sorted { distance($0, requests[q]) < distance($1, requests[q]) }
        guard let best = ranked.first, ranked.count > 1 else { return ranked.first }
        let margin = distance(ranked[1], requests[q]) - distance(best, requests[q])
        guard margin > index.rows[best].request.resolution else { return nil }
        let mine = distance(best, requests[q])
        // Only requests of the path whose start is within `mine` of the row can be nearer to it:
        // the path's requests are in time order, so they are found by binary search.
        let same = byPath[requests[q].path] ?? []
        let target = index.rows[best].start + offset
        var lo = 0
        var hi = same.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if requests[same[mid]].start < target - mine { lo = mid + 1 } else { hi = mid }
        }
        var looked = 0
        for other in same[lo...] {
            if requests[other].start > target + mine { break }
            looked += 1
            if looked > 64 { return nil }
            guard other != q, requests[other].rangeStart == requests[q].rangeStart else { continue }
            if distance(best, requests[other]) <= mine { return nil }
        }
        return best
    }

    /// Whether the row's range starts where the request's does; a log that cannot say ranges
    /// (Cloudflare) agrees with every range.
    static func sameRange(_ row: ServerRequest, _ request: ClientRequest) -> Bool {
        !row.rangeLogged || max(0, row.byteRange?.offset ?? 0) == request.rangeStart
    }

    /// The query without what changes from request to request or viewer to viewer (CMCD, tokens,
    /// signatures), sorted, so two views of one request compare equal.
    static func stableQuery(_ query: String) -> [Substring] {
        let volatile: Set<Substring> = [
            "cmcd", "token", "hdnts", "hdnea", "expires", "signature", "key-pair-id", "policy", "sig", "st", "e",
            "exp", "hmac", "auth", "_",
        ]
        return query.split(separator: "&").filter { pair in
            let name = pair.prefix { $0 != "=" }.lowercased()
            return !volatile.contains(Substring(name))
        }.sorted()
    }

    static func clientRequests(_ session: Session) -> [ClientRequest] {
        var out: [ClientRequest] = []
        for (i, entry) in session.entries.enumerated() {
            guard let r = entry.record.request, let start = entry.time?.secondsSince1970 else { continue }
            var headers: [String: [String]] = [:]
            for view in [entry.record] + entry.otherViews {
                guard let v = view.request else { continue }
                for (name, value) in v.responseHeaders { headers[name.lowercased(), default: []].append(value) }
            }
            let canonical = URLCanonicalizer.canonical(r.url)
            let query = canonical.firstIndex(of: "?").map { String(canonical[canonical.index(after: $0)...]) }
            out.append(
                ClientRequest(
                    entry: i, path: URLCanonicalizer.path(r.url), query: query,
                    rangeStart: max(0, r.byteRange?.offset ?? 0), start: start,
                    end: max(start, entry.endTime?.secondsSince1970 ?? start), kind: r.kind, headers: headers))
        }
        return out
    }

    static func window(_ requests: [ClientRequest]) -> (start: Double, end: Double)? {
        guard let first = requests.map(\.start).min(), let last = requests.map(\.end).max() else { return nil }
        return (first, last)
    }

    static func median(_ values: [Double]) -> Double { ClockAligner.median(values) }
}

extension String {
    fileprivate func caseInsensitiveCompare(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}
