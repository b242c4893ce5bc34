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
    /// The same for a session whose every file wrote UTC (`onNetworkTime`): device and server
    /// both keep network time, so a row naming the session hours away is another playback's
    /// (or another device's) request with the same id (probe M: rows 3 h off were joined as
    /// "strong", the offset −3 h).
    package var maxUTCPairDistance: Double = 900
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
        /// Rows that name a session, by session id (upper-cased) and path.
        var bySessionAndPath: [String: [Int]] = [:]
        var earliest = Double.infinity
        var latest = -Double.infinity

        init(_ files: [SourceFile]) {
            // The same log given twice (`.log` and `.gz`, or in the bundle and with --cdn-logs):
            // the n-th copy of a row in one file is the n-th in another, read once (probe M:
            // doubled rows turned every probable join ambiguous). Rows alike within one file are
            // distinct requests.
            var earlierCopies: [String: Int] = [:]
            for file in files {
                var copies: [String: Int] = [:]
                for record in file.records {
                    guard case .serverRequest(let r) = record.payload,
                        var start = (r.start ?? r.end ?? record.time)?.secondsSince1970
                    else { continue }
                    if files.count > 1 {
                        let n = copies[r.raw, default: 0] + 1
                        copies[r.raw] = n
                        if n <= earlierCopies[r.raw, default: 0] {
                            repeated += 1
                            continue
                        }
                    }
                    var end = (r.end ?? r.start ?? record.time)?.secondsSince1970 ?? start
                    // A log that writes whole seconds cuts the time down: the true instant is
                    // somewhere in the next second, its middle the unbiased guess (otherwise
                    // every pair is half a second off, and so is the offset).
                    if r.resolution >= 1 {
                        start += r.resolution / 2
                        end += r.resolution / 2
                    }
                    byPath[r.path, default: []].append(rows.count)
                    if let sid = r.sessionHeader, !sid.isEmpty {
                        bySessionAndPath[Self.sessionKey(sid, r.path), default: []].append(rows.count)
                    }
                    if let id = r.requestID, !id.isEmpty { byRequestID[id, default: []].append(rows.count) }
                    earliest = min(earliest, start)
                    latest = max(latest, end)
                    rows.append(Row(record: record, request: r, start: start, end: max(start, end)))
                }
                earlierCopies.merge(copies, uniquingKeysWith: max)
            }
            for key in byPath.keys {
                byPath[key]?.sort { rows[$0].start < rows[$1].start || (rows[$0].start == rows[$1].start && $0 < $1) }
            }
            for key in bySessionAndPath.keys {
                bySessionAndPath[key]?.sort {
                    rows[$0].start < rows[$1].start || (rows[$0].start == rows[$1].start && $0 < $1)
                }
            }
            starts = rows.map(\.start).sorted()
            coarsestResolution = rows.map(\.request.resolution).max() ?? 0
            unanchoredSpan = rows.lazy.filter { !$0.request.anchorKnown }.map { ($0.end - $0.start) / 2 }.max() ?? 0
            longestRow = min(rows.lazy.map { $0.end - $0.start }.max() ?? 0, 3600)
            totalRows = rows.count
            // Logs read through the bundle's filter held more rows than were kept: what they
            // cover, and how many rows fall in a session's time, come from their coverage.
            let filtered = files.filter { $0.coverage != nil }
            if !filtered.isEmpty {
                var all = ServerLogCoverage()
                for file in files {
                    if let c = file.coverage {
                        all.merge(c)
                    } else {
                        for record in file.records {
                            guard case .serverRequest(let r) = record.payload,
                                let s = (r.start ?? r.end ?? record.time)?.secondsSince1970
                            else { continue }
                            all.add(start: s, end: (r.end ?? r.start)?.secondsSince1970 ?? s)
                        }
                    }
                }
                coverage = all
                totalRows = max(0, all.rows - repeated)
                earliest = min(earliest, all.earliest)
                latest = max(latest, all.latest)
            }
        }

        /// Every row read, kept or not (a row read twice, once).
        var totalRows = 0
        /// Rows that repeat a row of an earlier file, read once.
        var repeated = 0
        /// The longest duration of a row whose one time may be its start or its end (Google
        /// Cloud CDN): such a row is indexed by the earlier reading, the other that much later.
        var unanchoredSpan = 0.0
        /// The longest row (capped at an hour): how far before a request's end its row may start.
        var longestRow = 0.0
        /// Set when a file's rows were filtered: counts and gaps come from it, to the minute.
        var coverage: ServerLogCoverage?

        static func sessionKey(_ sid: String, _ path: String) -> String { sid.uppercased() + "\u{0}" + path }

        /// Every row's start, in order: a session's share of the logs by binary search, not by
        /// reading every row once per session.
        var starts: [Double] = []
        var coarsestResolution = 0.0

        /// The first place in `starts` at or after `t`.
        func position(_ t: Double) -> Int {
            var lo = 0
            var hi = starts.count
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if starts[mid] < t { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        /// How many rows start between `from` and `to`.
        func count(startingIn from: Double, _ to: Double) -> Int {
            if let coverage { return coverage.count(startingIn: from, to) }
            guard from <= to else { return 0 }
            return max(0, position(to.nextUp) - position(from))
        }

        /// Stretches of `from`…`to` with no row starting, longer than `minimum` seconds.
        func gaps(in from: Double, _ to: Double, longerThan minimum: Double) -> [(from: Double, to: Double)] {
            if let coverage { return coverage.gaps(in: from, to, longerThan: minimum) }
            guard from < to, !starts.isEmpty else { return [] }
            var out: [(from: Double, to: Double)] = []
            var previous = from
            var i = position(from)
            while i < starts.count, starts[i] <= to, out.count < 3 {
                if starts[i] - previous > minimum { out.append((previous, starts[i])) }
                previous = starts[i]
                i += 1
            }
            if out.count < 3, to - previous > minimum, previous >= (starts.first ?? to) { out.append((previous, to)) }
            return out
        }
    }

    /// A client request the join looks at: its timeline entry and every view's facts.
    struct ClientRequest {
        var entry: Int
        var path: String
        /// The host, lower-cased.
        var host: String?
        var query: String?
        var rangeStart: Int64
        var start: Double
        var end: Double
        var kind: MediaRequest.Kind
        /// Response header values (lower-cased names) from every view of the request.
        var headers: [String: [String]]
        /// Only the end is known (an error-log row is written when the request failed): its pair
        /// for the clock offset is taken from the ends.
        var endOnly = false
        /// The HTTP status the client saw, when it saw one.
        var status: Int?
    }

    /// Whether a row's status can be the client's view of the same request: the same status,
    /// or both a success (2xx, 304: a range or a revalidation reads differently on each side),
    /// or either side without one, or a row of a client that went away (`000`, 499). Probe M: a
    /// row of 200 joined a client's 404 by path and time, and a 503 joined a 404 by session id.
    static func statusAgrees(_ row: ServerRequest, _ request: ClientRequest) -> Bool {
        guard let client = request.status, let server = row.status, !row.clientAborted else { return true }
        func success(_ s: Int) -> Bool { (200...299).contains(s) || s == 304 }
        return client == server || (success(client) && success(server))
    }

    /// Joins the rows of `serverFiles` to `sessions` (their `serverViews` by timeline entry,
    /// each session a `serverJoin`), and returns how many rows joined no session.
    ///
    /// In phases across all sessions: every session's exact and strong joins first, then the
    /// offsets, then every session's probable ones — so that no session takes by path and time a
    /// row another session's request id or session id names.
    package func join(_ sessions: inout [Session], serverFiles: [SourceFile]) -> Int {
        guard !serverFiles.isEmpty else { return 0 }
        let index = RowIndex(serverFiles)
        var used = Set<Int>()
        var states = sessions.map { SessionState(requests: Self.clientRequests($0)) }
        // Exact joins of every request of every session before any strong one: a session id
        // names a session's rows, a request id names one row, and the one row must not have been
        // taken by a request it is not.
        for s in sessions.indices {
            keyed(&states[s], session: sessions[s], index, used: &used, exact: true)
        }
        for s in sessions.indices {
            keyed(&states[s], session: sessions[s], index, used: &used, exact: false)
        }
        for s in sessions.indices {
            probable(&states[s], index, used: &used)
        }
        for s in sessions.indices {
            finish(&sessions[s], states[s], index)
        }
        return index.totalRows - used.count
    }

    /// What the join knows of one session between its phases.
    struct SessionState {
        var requests: [ClientRequest]
        var joins: [Int: [(row: Int, confidence: JoinConfidence, key: JoinKey)]] = [:]
        var pairs: [Double] = []
        var pairRows: [Int] = []
        var offset: Double?
        var spread: Double?

        init(requests: [ClientRequest]) { self.requests = requests }
    }

    /// Phase 1 (`exact`) or 2: request ids, or the session's id; after phase 2, the session's
    /// offset from the pairs of both.
    func keyed(_ st: inout SessionState, session: Session, _ index: RowIndex, used: inout Set<Int>, exact: Bool) {
        for (q, request) in st.requests.enumerated() where st.joins[q] == nil {
            let row: Int
            if exact, let r = exactMatch(request, index, used: used) {
                row = r
                st.joins[q] = [(row, .exact, .requestID)]
            } else if !exact, session.idIsFromLogs,
                let r = strongMatch(
                    request, session.id, index, used: used,
                    maxDistance: Self.onNetworkTime(session) ? maxUTCPairDistance : maxPairDistance)
            {
                row = r
                st.joins[q] = [(row, .strong, .sessionID)]
            } else {
                continue
            }
            used.insert(row)
            st.pairs.append(
                request.endOnly ? request.end - index.rows[row].end : request.start - index.rows[row].start)
            st.pairRows.append(row)
        }
        // The offset, client minus server. A whole-second log cannot place a pair better than
        // half its resolution, however well the pairs agree: the spread says so.
        guard !exact, !st.pairs.isEmpty else { return }
        let offset = Self.median(st.pairs)
        let coarsest = st.pairRows.map { index.rows[$0].request.resolution }.max() ?? 0
        st.offset = offset
        st.spread = max(Self.median(st.pairs.map { abs($0 - offset) }), coarsest / 2)
    }

    /// Phase 3: path, query and range in the window. Several rows fit: the nearest in time is
    /// still the request's when the two are each other's nearest (no other request of the path is
    /// nearer to that row) by more than the row's resolution; otherwise the nearest are listed as
    /// ambiguous and none is chosen.
    func probable(_ st: inout SessionState, _ index: RowIndex, used: inout Set<Int>) {
        var requestsByPath: [String: [Int]] = [:]
        for (q, request) in st.requests.enumerated() { requestsByPath[request.path, default: []].append(q) }
        let o = st.offset ?? 0
        for (q, request) in st.requests.enumerated() where st.joins[q] == nil {
            let candidates = probableCandidates(request, index, used: used, offset: o, spread: st.spread)
            guard !candidates.isEmpty else { continue }
            if candidates.count == 1 {
                used.insert(candidates[0])
                st.joins[q] = [(candidates[0], .probable, .pathAndTime)]
            } else if let row = Self.mutualNearest(q, candidates, st.requests, requestsByPath, index, offset: o) {
                used.insert(row)
                st.joins[q] = [(row, .probable, .pathAndTime)]
            } else {
                // None chosen: every candidate stays free for another request's better claim.
                // The nearest `maxAmbiguous` are listed (a popular segment has hundreds of
                // viewers' rows in any window; listing them all is no evidence and no use).
                let nearest = candidates.sorted {
                    abs(index.rows[$0].start - (request.start - o)) < abs(index.rows[$1].start - (request.start - o))
                }
                st.joins[q] = nearest.prefix(maxAmbiguous).map { ($0, .ambiguous, .pathAndTime) }
            }
        }
    }

    /// The session's joined rows, each on the session's clock, and what the join found.
    func finish(_ session: inout Session, _ st: SessionState, _ index: RowIndex) {
        var counts: [JoinConfidence: Int] = [:]
        let shift = -(st.offset ?? 0)
        for (q, list) in st.joins.sorted(by: { $0.key < $1.key }) {
            let entry = st.requests[q].entry
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
        let window = Self.window(st.requests)
        var inWindow = 0
        var caveats: [String] = []
        if let window {
            // Server time = client time − offset; a row's time is known to its resolution.
            let from = window.start - (st.offset ?? 0) - 60
            let to = window.end - (st.offset ?? 0) + 60
            inWindow = index.count(startingIn: from, to)
            if index.totalRows == 0 {
                caveats.append("the server logs hold no readable row")
            } else {
                let slack = 1 + index.coarsestResolution
                if index.earliest > from + 60 + slack || index.latest < to - 60 - slack {
                    caveats.append(
                        "the server logs cover \(Timestamp(index.earliest).iso8601) to \(Timestamp(index.latest).iso8601), not all of the session's \(Timestamp(window.start).iso8601) to \(Timestamp(window.end).iso8601)"
                    )
                }
                // A gap inside the session's time: an hourly file missing, a log cut short.
                for gap in index.gaps(in: from + 60, to - 60, longerThan: 600).prefix(3) {
                    caveats.append(
                        "no server row from \(Timestamp(gap.from).iso8601) to \(Timestamp(gap.to).iso8601): a log file of that time may be missing"
                    )
                }
            }
        }
        if index.repeated > 0 {
            caveats.append(
                "\(index.repeated) server row\(index.repeated == 1 ? "" : "s") repeated a row of another server log file (the same log given twice?): read once"
            )
        }
        if st.offset == nil, !st.joins.isEmpty {
            caveats.append(
                "no request id or session id joined a row: device and server clocks assumed to agree within \(NumberFormat.trimmed(unalignedSlack, decimals: 1)) s"
            )
        }
        session.serverJoin = ServerJoin(
            offset: st.offset, spread: st.spread, pairs: st.pairs.count, joined: counts,
            unmatchedRequests: st.requests.count - st.joins.count, serverRows: index.totalRows,
            rowsInWindow: inWindow, caveats: caveats)
        if st.joins.isEmpty {
            session.serverJoin?.noMatch = Self.noMatch(st.requests, index, window: window, inWindow: inWindow)
        }
    }

    /// Why nothing joined (reports put "no match" before it): no request to join to, no row in the
    /// session's time, or no key in common.
    static func noMatch(
        _ requests: [ClientRequest], _ index: RowIndex, window: (start: Double, end: Double)?, inWindow: Int
    ) -> String {
        guard let window else {
            return
                "the session's sources record no individual request (an AVPlayer access log has a row per period of playing, not per request), so there is nothing to join server rows to"
        }
        let covered =
            index.totalRows == 0
            ? "the server logs hold no readable row"
            : "the server logs cover \(Timestamp(index.earliest).iso8601) to \(Timestamp(index.latest).iso8601)"
        if inWindow == 0 {
            return
                "no server row falls within the session's \(Timestamp(window.start).iso8601) to \(Timestamp(window.end).iso8601) (\(covered))"
        }
        let paths = Set(requests.map(\.path))
        if !paths.contains(where: { index.byPath[$0] != nil }) {
            return
                "\(inWindow) server rows fall within the session's time, but none is for a path the session requested (other viewers, or another host's log)"
        }
        return
            "rows for the session's paths exist, but none within its requests' times once clocks are aligned, and none carries a request id the client recorded or the session's id"
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
                        // Only the header the vendor declares carries its request id.
                        if r.path == request.path, let header = r.requestIDHeader, header.lowercased() == name {
                            return row
                        }
                    }
                }
            }
        }
        return nil
    }

    /// The nearest row naming this session, with the request's path and range.
    func strongMatch(
        _ request: ClientRequest, _ sessionID: String, _ index: RowIndex, used: Set<Int>, maxDistance: Double
    ) -> Int? {
        // The rows naming this session for this path, in start order: few for a segment, one per
        // reload for a live playlist, whatever other viewers fetched. Outward from the nearest in
        // time; on each side the first free row of the same range is that side's best.
        guard let list = index.bySessionAndPath[RowIndex.sessionKey(sessionID, request.path)] else { return nil }
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if index.rows[list[mid]].start < request.start { lo = mid + 1 } else { hi = mid }
        }
        func first(_ indices: some Sequence<Int>) -> (row: Int, distance: Double)? {
            var looked = 0
            for k in indices {
                looked += 1
                if looked > maxCandidates { return nil }
                let row = list[k]
                guard !used.contains(row), Self.sameRange(index.rows[row].request, request),
                    Self.statusAgrees(index.rows[row].request, request)
                else { continue }
                // A request known by its end (an error-log row) is nearest by the row's end: the
                // row starting nearest it is more likely the retry's.
                let d =
                    request.endOnly
                    ? abs(index.rows[row].end - request.end) : abs(index.rows[row].start - request.start)
                return d < maxDistance ? (row, d) : nil
            }
            return nil
        }
        let after = first(lo..<list.count)
        let before = first((0..<lo).reversed())
        switch (before, after) {
        case (let b?, let a?): return b.distance <= a.distance ? b.row : a.row
        case (let b?, nil): return b.row
        case (nil, let a?): return a.row
        case (nil, nil): return nil
        }
    }

    /// Rows with the request's path, query and range whose time overlaps the request's window.
    func probableCandidates(
        _ request: ClientRequest, _ index: RowIndex, used: Set<Int>, offset: Double, spread: Double?
    ) -> [Int] {
        guard let list = index.byPath[request.path] else { return [] }
        // Server time = client time − offset; the window is widened by what is not known. The
        // server sees a request after the client sent it and before the client saw its end:
        // a row of the same request starts inside that window.
        let slack = spread.map { max($0 * 3, 0.25) } ?? unalignedSlack
        let widest = slack + index.coarsestResolution
        let live = request.kind == .mediaPlaylist && !(request.query ?? "").contains("_HLS_msn")
        var out: [Int] = []
        // The first row starting in the window (rows are in start order).
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            let earliest = request.endOnly ? index.longestRow : index.unanchoredSpan
            if index.rows[list[mid]].start < request.start - offset - widest - earliest {
                lo = mid + 1
            } else {
                hi = mid
            }
        }
        var looked = 0
        for row in list[lo...] {
            let r = index.rows[row]
            if r.start > request.end - offset + widest { break }
            // Rows already joined are not candidates and do not count against the bound.
            if used.contains(row) { continue }
            looked += 1
            if looked > maxCandidates { break }
            let resolution = r.request.resolution
            let from = request.start - offset - slack - resolution
            let to = request.end - offset + slack + resolution
            // A row whose time may be its start or its end (anchor unknown): either reading.
            // A request known by its end (an error-log row) matches the row's end.
            let later = r.request.anchorKnown ? r.start : (r.start + r.end) / 2
            let fits =
                request.endOnly
                ? r.end >= from && r.end <= to
                : (r.start >= from && r.start <= to) || (later >= from && later <= to)
            guard fits, Self.sameRange(r.request, request), Self.statusAgrees(r.request, request) else { continue }
            // Another host's row for the same path is another distribution's request.
            if let h = r.request.host, let ch = request.host, h.lowercased() != ch { continue }
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
            // An error-log row is a request too: the one that failed, with its URI and the time
            // the player logged the failure (about its end). Probe E: an access and an error log
            // with session-tagged server rows joined nothing, the 503s' rows left out.
            if case .errorLog(_, let uri?) = entry.record.payload, let time = entry.time?.secondsSince1970 {
                let canonical = URLCanonicalizer.canonical(uri)
                let query = canonical.firstIndex(of: "?").map { String(canonical[canonical.index(after: $0)...]) }
                out.append(
                    ClientRequest(
                        entry: i, path: URLCanonicalizer.path(uri),
                        host: URLCanonicalizer.host(canonical)?.lowercased(),
                        query: query, rangeStart: 0, start: time, end: time, kind: MediaRequest.guessKind(url: uri),
                        headers: [:], endOnly: true, status: Self.errorLogStatus(entry.record)))
                continue
            }
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
                    entry: i, path: URLCanonicalizer.path(r.url),
                    host: URLCanonicalizer.host(canonical)?.lowercased(), query: query,
                    rangeStart: max(0, r.byteRange?.offset ?? 0), start: start,
                    end: max(start, entry.endTime?.secondsSince1970 ?? start), kind: r.kind, headers: headers,
                    status: r.effectiveStatus))
        }
        return out
    }

    /// Whether every file of the session wrote UTC itself (metric events, HAR, proxy): then
    /// device and server clocks both follow network time. A zone stated with `--timezone` (or
    /// read through a daylight-saving change) may be an hour or more off, so such a session
    /// keeps the wide bound (review).
    static func onNetworkTime(_ session: Session) -> Bool {
        session.timeBasis == .utc && !session.clockOffsets.isEmpty
            && session.clockOffsets.allSatisfy { $0.clock == .utc }
    }

    /// An error-log row's HTTP status, from its error (`HTTP 404` in the comment).
    static func errorLogStatus(_ record: Record) -> Int? {
        guard case .errorLog(let e, _) = record.payload else { return nil }
        return e.httpStatus
    }

    static func window(_ requests: [ClientRequest]) -> (start: Double, end: Double)? {
        guard let first = requests.map(\.start).min(), let last = requests.map(\.end).max() else { return nil }
        return (first, last)
    }

    static func median(_ values: [Double]) -> Double { ClockAligner.median(values) }
}
