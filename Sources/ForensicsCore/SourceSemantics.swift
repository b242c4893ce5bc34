/// What a source *is*, declared once with its format: who wrote it, whose clock its times are
/// on, what a row's time means, how it ranks as a view of a request, and what it can measure.
///
/// Everything that used to be a hard-coded list of formats derives from this: which file is a
/// session's reference clock (`clockPrecedence`), which source's view of a request is the
/// primary one (`viewPrecedence` — the two differ for a CDN log, whose clock is the truth but
/// whose view is not the client's), whether a source's silence about stalls or failures means
/// there were none (`capabilities`), and whether its rows make sessions or are joined to them
/// (`role`).
public struct SourceSemantics: Sendable, Hashable {
    /// Who wrote the source.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        /// The player on the device (AVMetrics events, AVPlayer access and error logs).
        case player
        /// A capture of the device's traffic taken elsewhere (HAR from a proxy or browser).
        case capture
        /// A proxy inside the app (KTVHTTPCache).
        case proxy
        /// A stream's own files (captured playlists).
        case stream
        /// The server side of the wire (CDN and origin access logs): every viewer's rows, so its
        /// rows are joined to sessions and never make one.
        case server
        /// The device's console (Xcode, Console.app, `log show`): messages of the player, the
        /// system and the app, read for the errors and events they state; silence proves nothing.
        case console

        /// Whether the source's records belong to the bundle's own playback sessions.
        public var makesSessions: Bool { self != .server }
    }

    /// Whose clock the source writes in.
    public enum Clock: String, Sendable, Hashable {
        /// The device's own clock, written in UTC (its skew against the world is unknown, but every
        /// device-side source shares it).
        case deviceUTC = "device-utc"
        /// Another machine's clock in UTC (a capturing proxy or browser).
        case captureUTC = "capture-utc"
        /// The device's local time, without a zone unless the user states one.
        case deviceLocal = "device-local"
        /// A server's clock in UTC: the reference for joining server rows to a session.
        case serverUTC = "server-utc"
        /// The source carries no time of its own (a playlist file).
        case none
    }

    /// What the time on a row means.
    public enum Anchor: String, Sendable, Hashable {
        /// When the request was sent or accepted.
        case requestStart = "request-start"
        /// When the response was finished (CloudFront, nginx): the start is the end minus the
        /// duration, when one is logged.
        case requestEnd = "request-end"
        /// When a period of playing one URI began (an AVPlayer access-log row).
        case periodStart = "period-start"
        /// When an event happened (a player event, an error).
        case event
        /// No time (a playlist file).
        case none
        /// A request's start or its end, the vendor does not say: a server row then covers both
        /// readings (its time minus and plus its duration), and says its anchor is not known.
        case unknown
    }

    /// What a source can measure. A rule or KPI concludes "none" from a source's silence only
    /// when the source has the capability: otherwise the answer is unknown.
    public struct Capabilities: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Every player event (stalls with their times, switches, startup): no stall event means
        /// no stall.
        public static let playerEvents = Capabilities(rawValue: 1 << 0)
        /// Stalls counted per period, not timed (AVPlayer access log `c-stalls`).
        public static let stallCounts = Capabilities(rawValue: 1 << 1)
        /// Failed requests and errors are reported: no failure reported means none.
        public static let failures = Capabilities(rawValue: 1 << 2)
        /// Whether an error ended playback.
        public static let fatalErrors = Capabilities(rawValue: 1 << 3)
        /// Request start and end times.
        public static let requestTimings = Capabilities(rawValue: 1 << 4)
        /// Request headers as sent.
        public static let requestHeaders = Capabilities(rawValue: 1 << 5)
        /// Response headers as received (the CDN's request id among them).
        public static let responseHeaders = Capabilities(rawValue: 1 << 6)
        /// Whether a response came from a cache.
        public static let cacheResult = Capabilities(rawValue: 1 << 7)
        /// Periods of playing one variant, with the indicated bitrate (switches without events).
        public static let variantPeriods = Capabilities(rawValue: 1 << 8)
        /// Playlist bodies.
        public static let playlists = Capabilities(rawValue: 1 << 9)
        /// The server's own first-byte and last-byte times (CDN logs).
        public static let serverTimings = Capabilities(rawValue: 1 << 10)
        /// The origin's share of a response's time (an origin hop's latency).
        public static let originTimings = Capabilities(rawValue: 1 << 11)

        /// The names used in `formats` and the JSON report, in declaration order.
        public static let names: [(Capabilities, String)] = [
            (.playerEvents, "player-events"), (.stallCounts, "stall-counts"), (.failures, "failures"),
            (.fatalErrors, "fatal-errors"), (.requestTimings, "request-timings"),
            (.requestHeaders, "request-headers"), (.responseHeaders, "response-headers"),
            (.cacheResult, "cache-result"), (.variantPeriods, "variant-periods"), (.playlists, "playlists"),
            (.serverTimings, "server-timings"), (.originTimings, "origin-timings"),
        ]

        public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }
    }

    public var role: Role
    public var clock: Clock
    public var anchor: Anchor
    /// The smallest step of the source's times, in seconds (1 for whole-second logs).
    public var resolution: Double
    /// Rank as a session's reference clock, lower first; nil for a source that never is one.
    public var clockPrecedence: Int?
    /// Rank as the view of a request that a timeline entry shows, lower first; the others are
    /// kept as other views.
    public var viewPrecedence: Int
    public var capabilities: Capabilities

    public init(
        role: Role, clock: Clock, anchor: Anchor, resolution: Double, clockPrecedence: Int?, viewPrecedence: Int,
        capabilities: Capabilities
    ) {
        self.role = role
        self.clock = clock
        self.anchor = anchor
        self.resolution = resolution
        self.clockPrecedence = clockPrecedence
        self.viewPrecedence = viewPrecedence
        self.capabilities = capabilities
    }

    /// For a format nothing declares (a record built by hand): last as a clock and as a view,
    /// able to measure nothing, so it never makes a "none" out of silence.
    public static let undeclared = SourceSemantics(
        role: .player, clock: .deviceUTC, anchor: .event, resolution: 0.001, clockPrecedence: nil,
        viewPrecedence: .max, capabilities: [])
}

/// A format's identifier, the name a person reads, and what the source is: what the correlator,
/// the KPIs and the reports know of a format without depending on its reader.
public struct SourceDescriptor: Sendable, Hashable {
    public var format: InputFormat
    public var displayName: String
    public var semantics: SourceSemantics

    public init(format: InputFormat, displayName: String, semantics: SourceSemantics) {
        self.format = format
        self.displayName = displayName
        self.semantics = semantics
    }
}
