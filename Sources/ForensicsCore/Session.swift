/// One playback session: its identity, the records assigned to it in one aligned order, and what
/// the correlator derived (clock offsets, KPIs, intervals).
public struct Session: Sendable {
    public var id: String
    /// True when `id` came from the logs (metric `sessionID`, `cs-guid`, header) rather than derived.
    public var idIsFromLogs: Bool
    public var assetURL: String?
    /// The timeline: records in aligned time order, each entry's `time` its record's time plus its
    /// source's clock offset.
    public var entries: [TimelineEntry]
    public var sources: [InputFormat]
    public var clockOffsets: [ClockOffset]
    public var kpis: KPIs
    /// How the timeline's times are to be read (UTC, or device local time in an unknown zone).
    public var timeBasis: TimeBasis = .utc
    /// Startup, stalls, failures and switches, derived once by the correlator.
    public var analysis = SessionAnalysis()
    /// What the present sources can measure, together (their declared capabilities).
    public var capabilities: SourceSemantics.Capabilities = []
    /// False when the source of every player event kept none that starts or ends a stall (a
    /// stall, a likely-to-keep-up after the first, a rate change, a summary's count): an app
    /// that measures startup keeps only the initial likely-to-keep-up, and its silence about
    /// stalls then proves nothing. Switches and startup are judged as before.
    public var stallEventsRecorded = true
    /// Session-making formats the tool reads that this session has no file of, in catalog order
    /// (the report's "missing").
    public var absentSources: [InputFormat] = []
    /// What joining server logs found, when the bundle came with any.
    public var serverJoin: ServerJoin?
    /// Server rows (CDN, origin) joined to the timeline's requests, by entry index, each with its
    /// label and its own time. Kept beside the timeline, not in its entries: few sessions have
    /// any, and every entry is copied many times.
    public var serverViews: [Int: [JoinedServerRow]] = [:]

    /// The server rows joined to `entry`.
    public func serverViews(of entry: TimelineEntry) -> [JoinedServerRow] {
        entry.index.flatMap { serverViews[$0] } ?? []
    }

    public init(
        id: String, idIsFromLogs: Bool, assetURL: String?, entries: [TimelineEntry], sources: [InputFormat],
        clockOffsets: [ClockOffset], kpis: KPIs
    ) {
        self.id = id
        self.idIsFromLogs = idIsFromLogs
        self.assetURL = assetURL
        self.entries = entries
        self.sources = sources
        self.clockOffsets = clockOffsets
        self.kpis = kpis
    }

    public var start: Timestamp? { entries.lazy.compactMap(\.time).min() }
    public var end: Timestamp? { entries.lazy.compactMap(\.endTime).max() }
}

/// A record placed on a session's timeline, with its time on the session's reference clock.
///
/// Every stage copies timeline entries, and a long dump has hundreds of thousands: the entry is
/// kept small (issue 36). Its two times are stored as plain numbers with presence bits instead of
/// optionals (16 bytes each, padded), and its place in 32 bits.
public struct TimelineEntry: Sendable {
    public var record: Record
    /// Other sources' views of the same request (same URL and range, close in time).
    public var otherViews: [Record]
    private var timeValue = 0.0
    private var endTimeValue = 0.0
    private var storedIndex: Int32 = -1
    private var hasTime = false
    private var hasEndTime = false

    /// The record's time corrected by its source's clock offset (nil when the record has no time).
    public var time: Timestamp? {
        get { hasTime ? Timestamp(timeValue) : nil }
        set {
            hasTime = newValue != nil
            timeValue = newValue?.secondsSince1970 ?? 0
        }
    }

    /// For requests: the corrected end of the response.
    public var endTime: Timestamp? {
        get { hasEndTime ? Timestamp(endTimeValue) : nil }
        set {
            hasEndTime = newValue != nil
            endTimeValue = newValue?.secondsSince1970 ?? 0
        }
    }

    /// Where the entry sits on its session's timeline, set once the timeline is final: evidence
    /// taken from an entry remembers it, so no report searches for a record again (bundle limits
    /// keep a timeline far below 2³¹ entries).
    public var index: Int? {
        get { storedIndex >= 0 ? Int(storedIndex) : nil }
        set { storedIndex = newValue.flatMap { Int32(exactly: $0) } ?? -1 }
    }

    public init(record: Record, time: Timestamp?, endTime: Timestamp?, otherViews: [Record] = []) {
        self.record = record
        self.otherViews = otherViews
        self.time = time
        self.endTime = endTime
    }

    public var location: SourceLocation { record.location }
}

/// How far a source's clock was from the session's reference clock, and how sure we are.
public struct ClockOffset: Sendable, Hashable, Codable {
    public var file: String
    public var format: InputFormat
    /// Seconds to add to this source's times to put them on the reference clock.
    public var offset: Double
    /// How many matched requests support the estimate (0 = none: offset assumed 0).
    public var matches: Int
    /// Median absolute deviation of the pairwise differences, seconds.
    public var spread: Double?
    /// The clock the source writes in.
    public var clock: SourceClock
    /// For a device-local source aligned against the device's own UTC clock: the device's zone,
    /// seconds east of UTC (the offset snapped to a whole quarter hour).
    public var inferredZone: Int?
    /// True when this file is on the reference clock by construction (the reference itself, or a
    /// device-local log beside a device-local reference: one device, one clock).
    public var sameClockAsReference: Bool
    /// True for the files whose clock every other file is aligned to.
    public var isReference: Bool = false
    /// True when the user's stated zone (`--timezone`) was kept although some requests matched:
    /// too few to overrule what the user said.
    public var statedZoneKept: Bool = false
    /// True when the file writes device-local time in an unknown zone, the session's reference
    /// is UTC, and no request of the file matched one of the reference's: its times cannot be
    /// placed, so its records are kept off the session's timeline (never shown as UTC).
    public var unaligned: Bool = false
    /// True when the zone came from another file's own time stamps (an NSLog console prefix),
    /// not from matched requests.
    public var zoneFromConsole: Bool = false

    public init(
        file: String, format: InputFormat, offset: Double, matches: Int, spread: Double?, clock: SourceClock = .utc,
        inferredZone: Int? = nil, sameClockAsReference: Bool = false
    ) {
        self.file = file
        self.format = format
        self.offset = offset
        self.matches = matches
        self.spread = spread
        self.clock = clock
        self.inferredZone = inferredZone
        self.sameClockAsReference = sameClockAsReference
    }

    public var confidence: String {
        if isReference { return "reference" }
        if matches == 0 { return sameClockAsReference ? "same device clock" : "none" }
        if matches >= 3, (spread ?? 1) < 0.25 { return "high" }
        return matches >= 2 ? "medium" : "low"
    }
}

/// The session's key performance indicators (CTA-2066 style definitions, see Documentation/KPIs.md).
public struct KPIs: Sendable, Hashable, Codable {
    /// Every KPI is nil when no source present can measure it: unknown is not zero.
    public var startupTime: Double?
    public var stallCount: Int?
    /// Nil when stalls are known only by count (access log) or not at all.
    public var stallDuration: Double?
    /// True when a stall never ended before the records did: `stallDuration` (and the
    /// rebuffering ratio) then count it to the last record — at least that long.
    public var stallDurationIsLowerBound = false
    /// Waits after a seek outside the buffer, taken out of the stall count, duration and
    /// rebuffering (a wait the viewer asked for is not rebuffering): how many, and how long in
    /// all (nil when one of them has no known length).
    public var seekWaitCount = 0
    public var seekWaitDuration: Double?
    public var rebufferRatio: Double?
    public var variantSwitchCount: Int?
    public var downswitchCount: Int?
    public var errorCount: Int?
    /// True when `errorCount` counts only the errors a source happened to state (a console):
    /// there were at least that many.
    public var errorCountIsLowerBound = false
    public var fatalError: Bool?
    public var timeWeightedAverageBitrate: Double?
    public var playingTime: Double?
    /// Where each KPI came from, by KPI.
    public var provenance: [Measure: Source]

    public init() {
        provenance = [:]
    }

    /// A KPI that records where it came from; the raw value is the JSON report's key.
    public enum Measure: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
        case startupTime = "startup_time"
        case stallCount = "stall_count"
        case playingTime = "playing_time"
        case variantSwitchCount = "variant_switch_count"
        case errorCount = "error_count"
        case timeWeightedAverageBitrate = "time_weighted_average_bitrate"

        public static func < (a: Measure, b: Measure) -> Bool { a.rawValue < b.rawValue }
    }

    /// Where a KPI's value came from; the raw value is what reports print.
    public enum Source: String, Sendable, Hashable, Codable {
        /// Derived from the session's timeline (the player's events, requests).
        case timeline
        /// The player's own playback summary event.
        case summaryEvent = "summary-event"
        /// AVPlayer's access log.
        case accessLog = "access-log"
        /// A metric event that states it (`timeTaken` of the initial likely-to-keep-up).
        case metricEvents = "metric-events"
        /// Requests moving between variants of a captured multivariant playlist.
        case requests
    }

    /// The provenance as the JSON report and the index write it: sorted by KPI name.
    public var provenanceByName: [(String, String)] {
        provenance.sorted { $0.key < $1.key }.map { ($0.key.rawValue, $0.value.rawValue) }
    }
}
