import ForensicsCore

/// Groups records into playback sessions.
///
/// Evidence, strongest first: the metric events' `sessionID`, the access/error log `cs-guid`,
/// the `X-Playback-Session-Id` request header (all the same identifier: AVPlayer's
/// playbackSessionID); then URL overlap with records already placed; then the neighbouring
/// records of the same file; then time proximity. What fits nothing is returned with a reason.
struct Sessionizer {
    /// How far (seconds) outside a session's span a record may be and still join it by time.
    var timeSlack: Double = 120

    struct Assignment {
        var sessionOf: [[Int?]]  // per file, per record: session index
        var sessionIDs: [String]
        var idFromLogs: [Bool]
        var reasons: [[String?]]
    }

    func assign(_ files: [SourceFile]) -> Assignment {
        var ids: [String] = []
        var index: [String: Int] = [:]
        var sessionOf = files.map { [Int?](repeating: nil, count: $0.records.count) }
        var reasons = files.map { [String?](repeating: nil, count: $0.records.count) }
        // 1. Explicit identifiers.
        for (f, file) in files.enumerated() {
            for (r, record) in file.records.enumerated() {
                guard let raw = record.sessionID?.trimmingCharacters(in: " "), !raw.isEmpty else { continue }
                let id = raw.uppercased()
                let s: Int
                if let existing = index[id] {
                    s = existing
                } else {
                    s = ids.count
                    ids.append(id)
                    index[id] = s
                }
                sessionOf[f][r] = s
            }
        }
        var fromLogs = [Bool](repeating: true, count: ids.count)
        let allRecords = files.reduce(0) { $0 + $1.records.count }
        // A bundle of consoles alone: each playback they tell of is a session of its own.
        if ids.isEmpty, allRecords > 0,
            files.allSatisfy({ $0.records.isEmpty || $0.semantics.role == .console }),
            files.allSatisfy({ $0.records.allSatisfy { $0.time != nil } })
        {
            consoleSessions(files, &sessionOf, &reasons, &ids, &fromLogs)
            if !ids.isEmpty {
                return Assignment(sessionOf: sessionOf, sessionIDs: ids, idFromLogs: fromLogs, reasons: reasons)
            }
        }
        if ids.isEmpty, allRecords > 0 {
            ids.append("")  // derived later from the content
            fromLogs.append(false)
        }
        // Files that name no session and lie days away from the sessions (and from each other)
        // are other playbacks: an old proxy log beside today's dump, two apps' logs from
        // different years (probe P: one session ran from 2018 to 2026). Each such group of files
        // is a session of its own; the rest is the sessions', as below (probe Q: beside two
        // sessions such a log was dropped as fitting none).
        let sessionsNamed = ids.count
        if sessionsNamed >= 1 { Self.splitDistantFiles(files, &sessionOf, &ids, &fromLogs, gap: distantFileGap) }
        if sessionsNamed == 1 {
            // One session: everything is its own — except a console's lines far from it in time.
            // A console names no session and holds whatever the device logged that day; on the
            // same clock as the session's UTC sources, a line hours away is another playback.
            let span = Self.utcSpan(files, sessionOf)
            for f in sessionOf.indices {
                let distant = files[f].semantics.role == .console && files[f].clock == .utc
                for r in sessionOf[f].indices where sessionOf[f][r] == nil {
                    if distant, let span, let t = files[f].records[r].time?.secondsSince1970,
                        t < span.0 - consoleSlack || t > span.1 + consoleSlack
                    {
                        reasons[f][r] = "a console line outside the session's time (by more than an hour)"
                        continue
                    }
                    sessionOf[f][r] = 0
                }
            }
            consoleSessions(files, &sessionOf, &reasons, &ids, &fromLogs)
            return Assignment(sessionOf: sessionOf, sessionIDs: ids, idFromLogs: fromLogs, reasons: reasons)
        }
        // 2. URL overlap: URLs requested in exactly one session identify it.
        var urlSessions: [String: Set<Int>] = [:]
        for (f, file) in files.enumerated() {
            for (r, record) in file.records.enumerated() {
                guard let s = sessionOf[f][r] else { continue }
                for u in Self.urls(of: record) { urlSessions[u, default: []].insert(s) }
            }
        }
        for (f, file) in files.enumerated() {
            for (r, record) in file.records.enumerated() where sessionOf[f][r] == nil {
                var candidates: Set<Int> = []
                for u in Self.urls(of: record) { candidates.formUnion(urlSessions[u] ?? []) }
                if candidates.count == 1 { sessionOf[f][r] = candidates.first }
            }
        }
        // 2b. Playlist captures saved without their URL: their relative URIs (variants, segments)
        // are matched against the ends of the URLs each session requested.
        var byLastComponent: [String: [(session: Int, url: String)]] = [:]
        for (u, sessions) in urlSessions {
            let last = String(u.split(separator: "/").last ?? "")
            for s in sessions { byLastComponent[last, default: []].append((s, u)) }
        }
        for (f, file) in files.enumerated() {
            for (r, record) in file.records.enumerated() where sessionOf[f][r] == nil {
                guard case .playlist(let p) = record.payload, p.url == nil else { continue }
                var candidates: Set<Int> = []
                for uri in p.variants.compactMap(\.url) + p.segmentURIs.prefix(50) {
                    let path = URLCanonicalizer.withoutQuery(uri)
                    let last = String(path.split(separator: "/").last ?? "")
                    for hit in byLastComponent[last] ?? [] where hit.url.hasSuffix("/" + path) || hit.url == path {
                        candidates.insert(hit.session)
                    }
                }
                if candidates.isEmpty {
                    // Relative variant directories (`v20/index.m3u8` → `/v20/`) seen in requested URLs.
                    let dirs = Set(
                        p.variants.compactMap(\.url).compactMap { uri -> String? in
                            guard !uri.contains("://"), let slash = uri.lastIndex(of: "/") else { return nil }
                            return "/" + uri[..<slash].trimmingCharacters(in: "/") + "/"
                        })
                    for (u, sessions) in urlSessions where dirs.contains(where: { u.contains($0) }) {
                        candidates.formUnion(sessions)
                    }
                }
                if candidates.count == 1 { sessionOf[f][r] = candidates.first }
            }
        }
        // 3. Neighbours in the same file (entries of one request path are logged together).
        // The nearest assigned record before and after each one, from two linear passes (a walk
        // per record was quadratic in a file where few records are assigned).
        for f in files.indices {
            let assigned = sessionOf[f]
            var nearestBefore = [Int?](repeating: nil, count: assigned.count)
            var last: Int?
            for r in assigned.indices {
                nearestBefore[r] = last
                if let s = assigned[r] { last = s }
            }
            var next: Int?
            for r in assigned.indices.reversed() {
                if assigned[r] == nil {
                    let before = nearestBefore[r]
                    let after = next
                    if let b = before, after == nil || after == b {
                        sessionOf[f][r] = b
                    } else if before == nil, let a = after {
                        sessionOf[f][r] = a
                    }
                } else {
                    next = assigned[r]
                }
            }
        }
        // 4. Time proximity: the one session whose span (with slack) contains the record.
        var spans: [(Double, Double)?] = Array(repeating: nil, count: ids.count)
        for (f, file) in files.enumerated() {
            for (r, record) in file.records.enumerated() {
                guard let s = sessionOf[f][r], let t = record.time?.secondsSince1970 else { continue }
                if let span = spans[s] { spans[s] = (min(span.0, t), max(span.1, t)) } else { spans[s] = (t, t) }
            }
        }
        for (f, file) in files.enumerated() {
            for (r, record) in file.records.enumerated() where sessionOf[f][r] == nil {
                guard let t = record.time?.secondsSince1970 else {
                    reasons[f][r] = "no session identifier, URL or time ties it to one of \(ids.count) sessions"
                    continue
                }
                let fits = spans.indices.filter { s in
                    guard let span = spans[s] else { return false }
                    return t >= span.0 - timeSlack && t <= span.1 + timeSlack
                }
                if fits.count == 1 {
                    sessionOf[f][r] = fits[0]
                } else {
                    reasons[f][r] =
                        fits.isEmpty
                        ? "outside the time span of every session"
                        : "fits the time span of \(fits.count) sessions and nothing else decides"
                }
            }
        }
        consoleSessions(files, &sessionOf, &reasons, &ids, &fromLogs)
        return Assignment(sessionOf: sessionOf, sessionIDs: ids, idFromLogs: fromLogs, reasons: reasons)
    }

    /// Console lines more than this apart (seconds) tell of different playbacks. Long: a quiet
    /// stretch of one playback logs nothing, and splitting it parts failures that belong
    /// together (probe H: a 6-minute pause split three 404s into two and one).
    var consoleGap: Double = 1800

    /// 5. A console's playback that no other source shows: its own session (probe G: a failed
    /// playback an hour after the dumps' sessions was dropped as "outside every session", and a
    /// critical failure with it). A console's lines not yet placed (outside every session, never
    /// one that fits several) are grouped by process (the system's media processes join the app
    /// they overlap) and by time: a gap of `consoleGap`, or the first player line after one that
    /// ended playback (a failed item does not fail again), starts another playback. A group with
    /// no line about playback makes no session. Linear in the lines.
    func consoleSessions(
        _ files: [SourceFile], _ sessionOf: inout [[Int?]], _ reasons: inout [[String?]], _ ids: inout [String],
        _ fromLogs: inout [Bool]
    ) {
        struct Item {
            var f: Int
            var r: Int
            var t: Double
            var process: String
            var playback: Bool
            var ends: Bool
            var player: Bool
        }
        var items: [Item] = []
        let consolesOnly = ids.isEmpty
        for (f, file) in files.enumerated() where file.semantics.role == .console {
            // Beside other sources, only a console whose times are UTC (a stated zone) can tell a
            // line outside every session: a local time of an unknown zone may be hours off.
            guard consolesOnly || file.clock == .utc else { continue }
            for (r, record) in file.records.enumerated() where sessionOf[f][r] == nil {
                // A line that fits several sessions stays out: nothing says which, nor that it is
                // another playback.
                if let why = reasons[f][r], why.hasPrefix("fits the time span") { continue }
                guard let t = record.time?.secondsSince1970 else { continue }
                let line = record.consoleLine
                let process = line?.process.flatMap { ConsoleLine.mediaProcesses.contains($0) ? nil : $0 } ?? "*"
                items.append(
                    Item(
                        f: f, r: r, t: t, process: process, playback: line?.isAboutPlayback ?? true,
                        ends: line?.endsPlayback ?? false, player: line?.component == .player || line == nil))
            }
        }
        guard !items.isEmpty else { return }
        items.sort { ($0.t, $0.f, $0.r) < ($1.t, $1.f, $1.r) }
        // Groups per process, in time order; each remembers when a line of it last ended
        // playback (one look per line, not a scan of the group).
        var groups: [(process: String, items: [Item], lastEnd: Double?)] = []
        var open: [String: Int] = [:]
        for item in items {
            if let g = open[item.process], let last = groups[g].items.last {
                let ended = groups[g].lastEnd.map { item.player && item.t > $0 && item.t - last.t > 5 } ?? false
                if item.t - last.t <= consoleGap, !ended {
                    groups[g].items.append(item)
                    if item.ends { groups[g].lastEnd = item.t }
                    continue
                }
            }
            open[item.process] = groups.count
            groups.append((item.process, [item], item.ends ? item.t : nil))
        }
        // The media processes' groups join the app group nearest in time among those they
        // overlap (a media daemon's line plays for one of them: splitting it off would part a
        // failure from its app), or stand alone when they overlap none.
        var merged: [[Item]] = []
        var spans: [(Double, Double)] = []
        for g in groups where g.process != "*" {
            merged.append(g.items)
            spans.append((g.items.first?.t ?? 0, g.items.last?.t ?? 0))
        }
        let apps = merged.count
        for g in groups where g.process == "*" {
            guard let first = g.items.first?.t, let last = g.items.last?.t else { continue }
            var best: (index: Int, distance: Double)?
            for i in 0..<apps where first <= spans[i].1 + 60 && last >= spans[i].0 - 60 {
                let d = max(0, max(spans[i].0 - last, first - spans[i].1))
                if d < (best?.distance ?? .infinity) { best = (i, d) }
            }
            if let i = best?.index {
                merged[i].append(contentsOf: g.items)
            } else {
                merged.append(g.items)
            }
        }
        for group in merged where group.contains(where: \.playback) {
            let s = ids.count
            ids.append("")
            fromLogs.append(false)
            for item in group {
                sessionOf[item.f][item.r] = s
                reasons[item.f][item.r] = nil
            }
        }
    }

    /// How far (seconds) a console line may lie outside the one session's span and still be its:
    /// wide, for device clocks that drift and players that log before and after.
    var consoleSlack: Double = 3600

    /// The span of the records that name a session, in files whose times are UTC (not a device's
    /// local time in an unknown zone, which can be hours off before alignment).
    /// How far apart (a day) two groups of files must lie to be two playbacks.
    var distantFileGap: Double = 86_400

    /// Groups the files that hold no session's record yet by their UTC time ranges (ranges less
    /// than `gap` apart join); the group with the session's own records (or, with none, the
    /// earliest) stays with session 0, every other group gets a session of its own. Files of
    /// another clock, or without times, stay with session 0.
    static func splitDistantFiles(
        _ files: [SourceFile], _ sessionOf: inout [[Int?]], _ ids: inout [String], _ fromLogs: inout [Bool],
        gap: Double
    ) {
        var ranges: [(start: Double, end: Double, files: [Int], keyed: Bool)] = []
        if let span = utcSpan(files, sessionOf) {
            ranges.append((span.0, span.1, [], true))
        } else if sessionOf.contains(where: { $0.contains { $0 != nil } }) {
            // The sessions are named only in local-time logs: their time cannot be compared with
            // the files', so which group is theirs is not known (probe Q) — nothing is split.
            return
        }
        for (f, file) in files.enumerated()
        where file.clock == .utc && file.semantics.role != .console && !sessionOf[f].contains(where: { $0 != nil }) {
            var range: (Double, Double)?
            for record in file.records {
                guard let t = record.time?.secondsSince1970 else { continue }
                range = range.map { (min($0.0, t), max($0.1, t)) } ?? (t, t)
            }
            if let range { ranges.append((range.0, range.1, [f], false)) }
        }
        guard ranges.count > 1 else { return }
        ranges.sort { $0.start < $1.start }
        var groups: [(end: Double, files: [Int], keyed: Bool)] = []
        for r in ranges {
            if let last = groups.last, r.start - last.end <= gap {
                groups[groups.count - 1].end = max(last.end, r.end)
                groups[groups.count - 1].files += r.files
                groups[groups.count - 1].keyed = last.keyed || r.keyed
            } else {
                groups.append((r.end, r.files, r.keyed))
            }
        }
        guard groups.count > 1 else { return }
        let home = groups.firstIndex(where: \.keyed) ?? 0
        for (g, group) in groups.enumerated() where g != home {
            ids.append("")  // derived later from the content
            fromLogs.append(false)
            let s = ids.count - 1
            for f in group.files {
                for r in sessionOf[f].indices { sessionOf[f][r] = s }
            }
        }
    }

    static func utcSpan(_ files: [SourceFile], _ sessionOf: [[Int?]]) -> (Double, Double)? {
        var span: (Double, Double)?
        for (f, file) in files.enumerated() where file.clock == .utc && file.semantics.role != .console {
            for (r, record) in file.records.enumerated() where sessionOf[f][r] != nil {
                guard let t = record.time?.secondsSince1970 else { continue }
                span = span.map { (min($0.0, t), max($0.1, t)) } ?? (t, t)
            }
        }
        return span
    }

    /// The canonical URLs a record is about (request, playlist, proxy request).
    static func urls(of record: Record) -> [String] {
        switch record.payload {
        case .request(let r):
            var out = [URLCanonicalizer.withoutQuery(r.url)]
            if let p = r.playlistURL { out.append(URLCanonicalizer.withoutQuery(p)) }
            return out
        case .proxy(let p):
            return p.url.map { [URLCanonicalizer.withoutQuery($0)] } ?? []
        case .playlist(let p):
            return p.url.map { [URLCanonicalizer.withoutQuery($0)] } ?? []
        case .accessLog(let a):
            return a.uri.map { [URLCanonicalizer.withoutQuery($0)] } ?? []
        case .errorLog(_, let uri):
            return uri.map { [URLCanonicalizer.withoutQuery($0)] } ?? []
        default:
            return []
        }
    }
}
