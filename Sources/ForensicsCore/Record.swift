/// One fact read from one input: when (source clock), where from (file:line), which session it
/// claims (if any), and what it says.
public struct Record: Sendable {
    /// Boxed (`indirect`): a record is copied into the source list, the timeline and each session;
    /// inline, every copy moved the largest payload's bytes (a media request's), boxed it is one
    /// reference. Measured on 200,000 access-log rows: see Documentation/Architecture.md.
    public indirect enum Payload: Sendable {
        case request(MediaRequest)
        case player(PlayerEvent)
        case error(ErrorInfo)
        case summary(PlaybackSummary)
        case accessLog(AVPlayerAccessLogEntry)
        case errorLog(ErrorInfo, uri: String?)
        case proxy(ProxyEvent)
        /// A line of another component in a console capture (player, system, app).
        case console(ConsoleLine)
        case playlist(PlaylistSnapshot)
        /// A request as a server (CDN edge, origin) logged it: joined to sessions, never one itself.
        case serverRequest(ServerRequest)
        /// An event of a kind the tool does not model (kept so nothing is dropped).
        case unknown(String)
    }

    public var time: Timestamp?
    public var location: SourceLocation
    public var format: InputFormat
    /// The playback session this record names itself: metric `sessionID`, access log `cs-guid`,
    /// or the `X-Playback-Session-Id` request header.
    public var sessionID: String?
    public var payload: Payload

    public init(time: Timestamp?, location: SourceLocation, format: InputFormat, sessionID: String?, payload: Payload) {
        self.time = time
        self.location = location
        self.format = format
        self.sessionID = sessionID
        self.payload = payload
    }

    public var request: MediaRequest? {
        if case .request(let r) = payload { return r }
        return nil
    }

    public var playerEvent: PlayerEvent? {
        if case .player(let e) = payload { return e }
        return nil
    }

    public var consoleLine: ConsoleLine? {
        if case .console(let c) = payload { return c }
        return nil
    }

    public var serverRequest: ServerRequest? {
        if case .serverRequest(let r) = payload { return r }
        return nil
    }

    public var proxyEvent: ProxyEvent? {
        if case .proxy(let e) = payload { return e }
        return nil
    }

    /// A one-line human summary, used in timelines and evidence.
    public var summary: String {
        switch payload {
        case .request(let r):
            var s = "\(r.kind.rawValue) request \(r.url)"
            if let st = r.effectiveStatus { s += " → \(st)" }
            if let d = r.duration { s += " in \(NumberFormat.seconds(d))" }
            if r.fromCache == true { s += " (cache)" }
            if let e = r.error, r.status == nil || r.status.map({ $0 < 400 }) == true { s += " error \(e.shortText)" }
            return s
        case .player(let e):
            switch e.kind {
            case .variantSwitch, .variantSwitchStart:
                let from = e.fromVariant?.label ?? "?"
                let to = e.toVariant?.label ?? "?"
                return "\(e.kind.rawValue) \(from) → \(to)" + (e.didSucceed == false ? " (failed)" : "")
            case .rateChange, .stall, .seek, .seekDidComplete:
                var s = e.kind.rawValue
                if let r = e.rate { s += " rate \(NumberFormat.trimmed(r, decimals: 2))" }
                if let m = e.mediaTime { s += " at media time \(NumberFormat.seconds(m))" }
                return s
            case .likelyToKeepUp, .initialLikelyToKeepUp:
                var s = e.kind.rawValue
                if let t = e.timeTaken { s += " after \(NumberFormat.seconds(t))" }
                if let v = e.variant { s += " on \(v.label)" }
                return s
            case .playbackModeSwitch:
                return "playback mode \(e.detail ?? "?")"
            }
        case .error(let e):
            return "error \(e.shortText)"
                + (e.didRecover == true ? " (recovered)" : e.didRecover == false ? " (fatal)" : "")
        case .summary(let s):
            // A count the summary does not give is unknown, never 0 (a download's summary gives none).
            return
                "\(s.isDownloadSummary ? "download summary" : "playback summary"): \(s.stallCount.map { "\($0) stalls" } ?? "stalls unknown"), \(s.variantSwitchCount.map { "\($0) switches" } ?? "switches unknown")"
        case .accessLog(let a):
            return "access log: \(a.uri ?? "-") observed \(a.observedBitrate.map(BitRateFormat.text) ?? "-")"
        case .errorLog(let e, let uri):
            return "error log: \(e.shortText) \(uri ?? "")"
        case .proxy(let p):
            guard p.foldedEntries > 0 else { return "proxy \(p.tag): \(p.message)" }
            let through = p.foldedThroughLine.map { " through line \($0)" } ?? ""
            return "proxy \(p.tag): \(p.message) (and \(p.foldedEntries) more like it\(through))"
        case .console(let c):
            let first =
                c.text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
                ?? ""
            return "console \(c.origin): \(first)"
        case .playlist(let p):
            return p.isMultivariant
                ? "multivariant playlist \(p.url ?? "") with \(p.variants.count) variants"
                : "media playlist \(p.url ?? "") with \(p.segmentCount) segments"
        case .serverRequest(let r):
            var s =
                "server \(r.method ?? "GET") \(r.path) → \(r.status.map(String.init) ?? (r.clientClosed ? "000" : "no status"))"
            if let c = r.cacheResultRaw {
                // A flag (`1`, `true`) reads as what it means.
                s += " " + (["1", "0", "true", "false"].contains(c.lowercased()) ? r.cacheResult.rawValue : c)
            }
            if let p = r.pop { s += " at \(p)" }
            if let id = r.requestID { s += " id \(id)" }
            return s
        case .unknown(let t):
            return "unknown event \(t)"
        }
    }
}
