/// Derived playback intervals of a session's timeline, computed once per session into
/// `SessionAnalysis` (which the KPIs, the rules and the reports read).
extension Session {
    /// The start of startup: the first request (or the first rate change to playing, or the
    /// player's first request reaching a local proxy) on the timeline.
    var computedStartupBegin: (index: Int, time: Timestamp)? {
        for (i, e) in entries.enumerated() {
            guard let t = e.time else { continue }
            if e.record.request != nil { return (i, t) }
            if let p = e.record.proxyEvent, p.kind == .connectionRequest || p.kind == .acceptRequest,
                p.requestPath != nil
            {
                return (i, t)
            }
            if let p = e.record.playerEvent, p.kind == .rateChange, (p.rate ?? 0) > 0 { return (i, t) }
        }
        return nil
    }

    /// Where each player item of the session became ready: its initial likely-to-keep-up, by
    /// timeline index. One within a second of the last is the same event logged again, not a
    /// new item. More than one: the session holds several items (one upload per app session).
    public var playerItemStarts: [Int] {
        var out: [Int] = []
        var last: Double?
        for (i, e) in entries.enumerated() where e.record.playerEvent?.kind == .initialLikelyToKeepUp {
            let t = e.time?.secondsSince1970
            if let t, let l = last, abs(t - l) <= 1 { continue }
            out.append(i)
            last = t ?? last
        }
        return out
    }

    /// The first likely-to-keep-up: playback could start.
    var computedStartupEnd: (index: Int, time: Timestamp)? {
        for (i, e) in entries.enumerated() {
            guard let t = e.time, let p = e.record.playerEvent else { continue }
            if p.kind == .initialLikelyToKeepUp || p.kind == .likelyToKeepUp { return (i, t) }
        }
        return nil
    }

    /// Every stall with its end. From the player's stall events when a source records them (metric
    /// events, or ijkplayer's buffering lines in a console capture); otherwise from access-log rows
    /// whose `c-stalls` is above 0 — one stall record per row, its count as the row says, its
    /// duration and recovery unknown.
    ///
    /// An access log's counts stand even beside a source that records player events, when that
    /// source holds no stall event: an app keeps the metric events it chooses, and Apple's own
    /// counter saying 2 is not outweighed by a dump that kept no stall events.
    var computedStalls: [Stall] {
        let fromPlayer = playerStalls
        return fromPlayer.isEmpty ? accessLogStalls : fromPlayer
    }

    var playerStalls: [Stall] {
        var out: [Stall] = []
        // A player cannot stall again before it resumed: a stall event while one is open (the
        // same event logged twice, a second report of the same wait) is part of it (probe Q: two
        // stall events at one instant made "2 stalls, at least 3 s" of a 2 s session).
        var openUntil = -1
        for (i, e) in entries.enumerated() {
            guard let p = e.record.playerEvent, p.kind == .stall, let t = e.time, i > openUntil else { continue }
            var end: (Int, Timestamp)?
            var j = i + 1
            while j < entries.count {
                if let q = entries[j].record.playerEvent, let tj = entries[j].time {
                    if q.kind == .likelyToKeepUp || q.kind == .initialLikelyToKeepUp
                        || (q.kind == .rateChange && (q.rate ?? 0) > 0)
                    {
                        end = (j, tj)
                        break
                    }
                }
                j += 1
            }
            openUntil = end?.0 ?? entries.count
            // An event written without a date sits at the time of the one before it: a stall
            // that starts or ends on one has no duration to measure.
            let dated = e.record.time != nil && end.map { entries[$0.0].record.time != nil } ?? true
            out.append(
                Stall(index: i, start: t, endIndex: end?.0, end: dated ? end?.1 : nil, recovered: end != nil))
        }
        return out
    }

    /// Access-log rows name how many stalls happened while they were current, not when: the stall
    /// is placed at the row's start, and the row's period (start → start + watched, or the next
    /// row) is where its cause is looked for.
    var accessLogStalls: [Stall] {
        var out: [Stall] = []
        let rows = entries.indices.filter {
            if case .accessLog = entries[$0].record.payload { return true } else { return false }
        }
        for (n, i) in rows.enumerated() {
            guard case .accessLog(let a) = entries[i].record.payload, let count = a.stalls, count > 0 else { continue }
            // A row written without a date (`- -`) before any dated one (undated entries end
            // the timeline): its stalls still happened, placed at the nearest dated entry.
            // With no dated entry at all, the count still stands (unplaced: no time is shown).
            let t =
                entries[i].time ?? entries[(i + 1)...].lazy.compactMap(\.time).first
                ?? entries[..<i].lazy.compactMap(\.time).last ?? Timestamp(0)
            var periodEnd: Timestamp? = a.durationWatched.map { t + $0 }
            if n + 1 < rows.count, let next = entries[rows[n + 1]].time, periodEnd.map({ next > $0 }) ?? true {
                periodEnd = next
            }
            var stall = Stall(
                index: i, start: t, endIndex: nil, end: nil, recovered: nil, reportedCount: count,
                periodEnd: periodEnd)
            stall.placed = entries[i].time != nil
            out.append(stall)
        }
        return out
    }

    /// A stall on the timeline.
    public struct Stall: Sendable, Hashable {
        public var index: Int
        public var start: Timestamp
        public var endIndex: Int?
        public var end: Timestamp?
        /// True when playback resumed, false when it never did, nil when no source can tell
        /// (an access-log row counts stalls without saying how they ended).
        public var recovered: Bool?
        /// How many stalls this record stands for (an access-log row may count several).
        public var reportedCount: Int = 1
        /// For access-log stalls: the end of the row's period, within which the stall happened.
        public var periodEnd: Timestamp?
        /// False when its row has no time on the session's clock (device local time nothing
        /// aligned, or no date): `start` is then a neighbour's, for ordering only — no report
        /// draws it on a time axis or looks back from it.
        public var placed = true

        public var duration: Double? { end.map { $0 - start } }
        /// True when only the count is known: the time within the period and the duration are not.
        public var fromAccessLog: Bool { recovered == nil }
    }

    /// A request failure, counted once however many sources saw it: a failed request (any view),
    /// an error-log row no request explains, or a player error event no failed request explains.
    public struct Failure: Sendable {
        public var index: Int
        public var time: Timestamp?
        public var url: String?
        public var kind: MediaRequest.Kind?
        public var status: Int?
        public var error: ErrorInfo?

        /// `HTTP 404`, or the error's domain and code for a transport error.
        public var statusText: String {
            if let status { return "HTTP \(status)" }
            if let error {
                // Code 0 says only that there was no response (a HAR's status 0).
                let code = error.code.flatMap { $0 == 0 ? nil : String($0) } ?? ""
                return "\(error.domain ?? "error") \(code)".trimmingCharacters(in: " ")
            }
            return "error"
        }

        public var isMedia: Bool { kind == .segment || kind == .map }
    }

    /// Whether anything in the session shows a playback or an attempt at one: a request, the
    /// player's events, an access- or error-log row, the proxy's traffic, a console line of the
    /// player's, about the content key or a playlist, or one that ends playback. A session made
    /// only of playlist files, server rows or other processes' errors held no playback: the
    /// fleet's shares leave it out of their count.
    public var isPlaybackAttempt: Bool {
        entries.contains { e in
            switch e.record.payload {
            case .request, .player, .accessLog, .errorLog, .error, .summary: return true
            case .proxy(let p): return p.requestPath != nil || p.kind == .connectionRequest
            case .console(let c): return c.component == .player || c.endsPlayback || c.topic != nil
            default: return false
            }
        }
    }

    /// Every distinct failure of the session, in timeline order. KPIs, `segment-errors`, `stall`
    /// and `segment-404-downswitch` all count from this one list, so their numbers agree.
    var computedFailures: [Failure] {
        var out: [Failure] = []
        var failedTimes: [Double] = []
        // When each URL (without its query) failed so far, and when a console line said so: a
        // restatement is looked up, not searched for (an error log holds up to the record limit).
        var failedAt: [String: [Double]] = [:]
        var consoleFailedAt: [String: [Double]] = [:]
        func within(_ times: [Double]?, _ t: Double) -> Bool { times?.contains { abs($0 - t) <= 2 } ?? false }
        for (i, e) in entries.enumerated() {
            guard let r = mergedRequest(e), r.failed else { continue }
            out.append(
                Failure(index: i, time: e.time, url: r.url, kind: r.kind, status: r.effectiveStatus, error: r.error))
            failedTimes.append(e.time?.secondsSince1970 ?? 0)
            if let t = e.time?.secondsSince1970 {
                failedAt[URLCanonicalizer.withoutQuery(r.url), default: []].append(t)
            }
        }
        for (i, e) in entries.enumerated() {
            let t = e.time?.secondsSince1970 ?? 0
            switch e.record.payload {
            case .error(let err):
                // The player's error event for a request failure already counted.
                if err.httpStatus != nil, failedTimes.contains(where: { abs($0 - t) <= 1.5 }) { continue }
                out.append(Failure(index: i, time: e.time, url: nil, kind: nil, status: err.httpStatus, error: err))
            case .console(let line):
                // A console error naming the media URL it failed on (`NSErrorFailingURLStringKey`)
                // is a failed request — unless a source that saw the request already counted it.
                guard let err = line.error, !err.isCancellation, let url = line.failingURL else { continue }
                let kind = MediaRequest.guessKind(url: url)
                guard kind != .other else { continue }
                let key = URLCanonicalizer.withoutQuery(url)
                if within(failedAt[key], t) { continue }
                out.append(Failure(index: i, time: e.time, url: url, kind: kind, status: err.httpStatus, error: err))
                if e.time != nil {
                    failedAt[key, default: []].append(t)
                    consoleFailedAt[key, default: []].append(t)
                }
            case .errorLog(let err, let uri):
                // A live playlist that stopped advancing is a playlist event, no failed request;
                // a request the client cancelled (-999) or a segment above its variant's declared
                // bandwidth (-12318, downloaded) is none either (probe K).
                if err.isStaleLivePlaylist || err.isCancellation || err.isBandwidthAdvisory { continue }
                // The app's print of an error-log event the media stack also logged with its
                // failing URL (probe H: one 404 counted twice in a console).
                let key = uri.map(URLCanonicalizer.withoutQuery)
                if let key, !consoleFailedAt.isEmpty, within(consoleFailedAt[key], t) { continue }
                // Rows matching a failed request were folded into it by the correlator.
                out.append(
                    Failure(
                        index: i, time: e.time, url: uri, kind: uri.map { MediaRequest.guessKind(url: $0) },
                        status: err.httpStatus, error: err))
                if let key, e.time != nil { failedAt[key, default: []].append(t) }
            default:
                break
            }
        }
        // The local proxy's failed origin requests: one per incident (the response, the network
        // source's and the source manager's callbacks all report the same failure).
        for f in proxyOriginFailures {
            guard let i = f.indices.first else { continue }
            out.append(
                Failure(
                    index: i, time: entries[i].time, url: f.url, kind: f.url.map { MediaRequest.guessKind(url: $0) },
                    status: f.status, error: f.error))
        }
        return out.sorted { $0.index < $1.index }
    }

    /// The request as the best source saw it, with what only other sources saw folded in
    /// (a failure, the status, sizes, headers).
    public func mergedRequest(_ entry: TimelineEntry) -> MediaRequest? {
        guard var r = entry.record.request else { return nil }
        for other in entry.otherViews {
            guard let o = other.request else { continue }
            if r.status == nil { r.status = o.status }
            if r.error == nil { r.error = o.error }
            if r.bytes == nil { r.bytes = o.bytes }
            if r.contentEncoding == nil { r.contentEncoding = o.contentEncoding }
            if r.contentType == nil { r.contentType = o.contentType }
            if r.segmentDuration == nil { r.segmentDuration = o.segmentDuration }
            if r.responseHeaders.isEmpty { r.responseHeaders = o.responseHeaders }
        }
        return r
    }

    /// A change of variant, from whichever source shows it.
    public struct VariantSwitch: Sendable {
        public var index: Int
        public var time: Timestamp
        public var from: Double
        public var to: Double
        public var basis: Basis

        /// Where a switch was read.
        public enum Basis: String, Sendable {
            /// The player's own switch event (metric events).
            case player
            /// A new access-log row at another indicated bitrate.
            case accessLog = "access-log"
            /// Media requests moving to another variant of the captured multivariant playlist.
            case requests

            /// The KPI's source (`timeline` for the player's events, as for other KPIs).
            public var provenance: KPIs.Source {
                switch self {
                case .player: .timeline
                case .accessLog: .accessLog
                case .requests: .requests
                }
            }
        }

        public var isDown: Bool { to < from }
    }

    /// Successful variant switches with both bandwidths known, or nil when no source present can
    /// tell (unknown, not none). From the player's switch events when a source records them; else
    /// from access-log rows (a new row at another indicated bitrate); else from the requests (a
    /// HAR or proxy capture: the variant of each media playlist and segment requested, by the
    /// captured multivariant playlist).
    var computedVariantSwitches: [VariantSwitch]? {
        if capabilities.contains(.playerEvents) {
            return entries.indices.compactMap { i in
                guard let p = entries[i].record.playerEvent, p.kind == .variantSwitch, p.didSucceed != false,
                    let t = entries[i].time, let from = p.fromVariant?.bandwidth, let to = p.toVariant?.bandwidth
                else { return nil }
                return VariantSwitch(index: i, time: t, from: from, to: to, basis: .player)
            }
        }
        // A sequence of bandwidths in timeline order becomes the switches between them.
        func switches(
            _ points: [(index: Int, time: Timestamp, bandwidth: Double)], _ basis: VariantSwitch.Basis
        ) -> [VariantSwitch] {
            zip(points, points.dropFirst()).compactMap { a, b in
                a.bandwidth == b.bandwidth
                    ? nil
                    : VariantSwitch(index: b.index, time: b.time, from: a.bandwidth, to: b.bandwidth, basis: basis)
            }
        }
        var rows: [(index: Int, time: Timestamp, bandwidth: Double)] = []
        var hasAccessLog = false
        for (i, e) in entries.enumerated() {
            guard case .accessLog(let a) = e.record.payload else { continue }
            hasAccessLog = true
            if let b = a.indicatedBitrate, b > 0, let t = e.time { rows.append((i, t, b)) }
        }
        // Rows that do not tell their variant (`sc-indicated-bitrate` missing or out of range)
        // leave the switches to the requests, or unknown: never "no switch".
        if hasAccessLog, !rows.isEmpty { return switches(rows, .accessLog) }
        let ladder = VariantLadder(self)
        guard !ladder.isEmpty else { return nil }
        var requested: [(index: Int, time: Timestamp, bandwidth: Double)] = []
        for (i, e) in entries.enumerated() {
            guard let r = e.record.request, r.kind == .mediaPlaylist || r.kind == .segment, !r.failed,
                let b = ladder.bandwidth(of: r.url), let t = e.time
            else { continue }
            requested.append((i, t, b))
        }
        return switches(requested, .requests)
    }

    /// The variant of the first media request, by the captured multivariant playlist.
    public var firstRequestedVariant: (index: Int, bandwidth: Double)? {
        let ladder = VariantLadder(self)
        guard !ladder.isEmpty else { return nil }
        for (i, e) in entries.enumerated() {
            guard let r = e.record.request, r.kind == .mediaPlaylist || r.kind == .segment,
                let b = ladder.bandwidth(of: r.url)
            else { continue }
            return (i, b)
        }
        return nil
    }

    /// The variant playing just before each entry (by timeline index): the last successful switch
    /// or likely-to-keep-up that names one. One pass for the whole session — a walk back per
    /// entry asked for was quadratic with thousands of stalls.
    public func variantsBefore() -> [Variant?] {
        var out: [Variant?] = []
        out.reserveCapacity(entries.count)
        var current: Variant?
        for e in entries {
            out.append(current)
            guard let p = e.record.playerEvent else { continue }
            if p.kind == .variantSwitch, p.didSucceed != false, let v = p.toVariant { current = v }
            if p.kind == .likelyToKeepUp || p.kind == .initialLikelyToKeepUp, let v = p.variant { current = v }
        }
        return out
    }
}

/// Which variant a URL belongs to, from the playlists captured in the session: a media playlist
/// by its URL in the multivariant playlist, a segment by the captured media playlist listing it,
/// else by sharing its directory with exactly one variant's media playlist.
/// How long each captured segment plays, from the media playlists captured in the session (their
/// `EXTINF`): what a HAR capture alone knows of segment durations.
public struct SegmentDurations: Sendable {
    var byURL: [String: Double] = [:]

    public init(_ session: Session) {
        for e in session.entries {
            guard case .playlist(let p) = e.record.payload, !p.isMultivariant,
                p.segmentDurations.count == p.segmentURIs.count
            else { continue }
            for (uri, d) in zip(p.segmentURIs, p.segmentDurations) where d > 0 && d.isFinite {
                byURL[URLCanonicalizer.withoutQuery(uri)] = d
            }
        }
    }

    public var isEmpty: Bool { byURL.isEmpty }

    public func duration(of url: String) -> Double? { byURL[URLCanonicalizer.withoutQuery(url)] }
}

public struct VariantLadder: Sendable {
    var byPlaylist: [String: Double] = [:]
    var bySegment: [String: Double] = [:]
    var byDirectory: [String: Double] = [:]

    public init(_ session: Session) {
        var multivariant: [PlaylistSnapshot] = []
        var media: [PlaylistSnapshot] = []
        for e in session.entries {
            guard case .playlist(let p) = e.record.payload else { continue }
            if p.isMultivariant { multivariant.append(p) } else { media.append(p) }
        }
        var ambiguous: Set<String> = []
        for m in multivariant {
            for v in m.variants {
                guard let url = v.url, let b = v.bandwidth else { continue }
                let key = URLCanonicalizer.withoutQuery(url)
                byPlaylist[key] = b
                let dir = Self.directory(key)
                if let old = byDirectory[dir], old != b { ambiguous.insert(dir) }
                byDirectory[dir] = b
            }
        }
        for dir in ambiguous { byDirectory[dir] = nil }
        for p in media {
            guard let url = p.url, let b = byPlaylist[URLCanonicalizer.withoutQuery(url)] else { continue }
            for s in p.segmentURIs { bySegment[URLCanonicalizer.withoutQuery(s)] = b }
        }
    }

    public var isEmpty: Bool { byPlaylist.isEmpty }

    public func bandwidth(of url: String) -> Double? {
        let key = URLCanonicalizer.withoutQuery(url)
        return byPlaylist[key] ?? bySegment[key] ?? byDirectory[Self.directory(key)]
    }

    static func directory(_ url: String) -> String {
        guard let slash = url.lastIndex(of: "/") else { return url }
        return String(url[..<slash])
    }
}
