/// How sure a join of a server row to a client's request is (`../shared/spec/cdn-logs.md`).
public enum JoinConfidence: String, Sendable, Hashable, Comparable, CaseIterable {
    /// The CDN's request id equals a response header the client recorded.
    case exact
    /// The row names the session (`X-Playback-Session-Id`, CMCD `sid`), and path, range and time agree.
    case strong
    /// Path, query and range agree within the request's time window, and no other row does.
    case probable
    /// Several rows fit equally: all listed, none chosen.
    case ambiguous

    private var order: Int {
        switch self {
        case .exact: 0
        case .strong: 1
        case .probable: 2
        case .ambiguous: 3
        }
    }

    public static func < (a: JoinConfidence, b: JoinConfidence) -> Bool { a.order < b.order }
}

/// What a join matched on.
public enum JoinKey: String, Sendable, Hashable {
    /// The CDN request id against the named response header.
    case requestID = "request-id"
    /// The session id the row carries, plus path and range.
    case sessionID = "session-id"
    /// Path, query and range within the time window.
    case pathAndTime = "path-and-time"
}

/// A server row joined to a request on a session's timeline.
public struct JoinedServerRow: Sendable {
    public var record: Record
    public var confidence: JoinConfidence
    public var key: JoinKey
    /// The row's start on the session's clock (server time minus the estimated offset), so the
    /// client-to-server delta stays visible.
    public var alignedStart: Timestamp?
    public var alignedEnd: Timestamp?
    /// The timeline entry (client request) the row is joined to.
    public var entryIndex: Int

    public init(
        record: Record, confidence: JoinConfidence, key: JoinKey, alignedStart: Timestamp?, alignedEnd: Timestamp?,
        entryIndex: Int
    ) {
        self.entryIndex = entryIndex
        self.record = record
        self.confidence = confidence
        self.key = key
        self.alignedStart = alignedStart
        self.alignedEnd = alignedEnd
    }

    public var serverRequest: ServerRequest? {
        if case .serverRequest(let s) = record.payload { return s }
        return nil
    }
}

/// What joining server logs to one session found: the clock offset between the device and the
/// servers, how many rows joined at each confidence, and what could not be said.
public struct ServerJoin: Sendable, Hashable {
    /// Seconds to add to a server time to put it on the session's clock (the median over exact
    /// and strong pairs of client time minus server time), or nil with no such pair.
    public var offset: Double?
    /// Median absolute deviation of those pairs, seconds.
    public var spread: Double?
    /// Pairs the offset rests on.
    public var pairs: Int
    /// Requests with a joined row, by confidence.
    public var joined: [JoinConfidence: Int]
    /// The session's requests no server row matched.
    public var unmatchedRequests: Int
    /// Server rows read (all viewers), and how many fell inside the session's time window.
    public var serverRows: Int
    public var rowsInWindow: Int
    /// Why some requests have no server row (the log does not cover the session's window, …).
    public var caveats: [String]
    /// When no row joined at all: why (window, keys), so "no match" is never silent.
    public var noMatch: String?

    public init(
        offset: Double?, spread: Double?, pairs: Int, joined: [JoinConfidence: Int], unmatchedRequests: Int,
        serverRows: Int, rowsInWindow: Int, caveats: [String]
    ) {
        self.offset = offset
        self.spread = spread
        self.pairs = pairs
        self.joined = joined
        self.unmatchedRequests = unmatchedRequests
        self.serverRows = serverRows
        self.rowsInWindow = rowsInWindow
        self.caveats = caveats
    }
}
