/// One HTTP request made for playback (playlist, key, segment…), as one source saw it.
///
/// Every source fills what it knows: the metric dump has request/response times and status,
/// the HAR has headers and timings, the proxy log has cache hits and the origin status.
///
/// Stored compactly, read as plain optional properties. Why: a request is kept for as long as its
/// session's timeline — one per line of a metric dump, hundreds of thousands in a 200 MB file —
/// and its size was most of `analyze`'s peak memory (issue 36). The fields every request has are
/// stored inline, each optional number as a value with a presence bit instead of an optional's
/// padded 16 bytes; the fields few requests have, or that repeat from request to request
/// (headers, content type, server address, error, range), live in one shared `Details` box
/// that a parser can hand from one request to the next when they are equal (`DetailsSharing`).
/// Measured in Documentation/Architecture.md ("Memory of a request").
public struct MediaRequest: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case multivariantPlaylist = "multivariant-playlist"
        case mediaPlaylist = "media-playlist"
        case contentKey = "content-key"
        case segment
        case map
        case other
    }

    /// The fields few requests carry, or that repeat from request to request: kept in one
    /// box beside the request (see the type's comment).
    public struct Details: Hashable, Sendable {
        public var byteRange: ByteRange?
        public var error: ErrorInfo?
        public var contentType: String?
        public var contentEncoding: String?
        public var serverAddress: String?
        public var requestHeaders: [String: String] = [:]
        public var responseHeaders: [String: String] = [:]
        public var bodySize: Int64?

        public init() {}

        /// True when no field is set: such a request keeps no box.
        public var isEmpty: Bool {
            byteRange == nil && error == nil && contentType == nil && contentEncoding == nil && serverAddress == nil
                && requestHeaders.isEmpty && responseHeaders.isEmpty && bodySize == nil
        }
    }

    /// Hands one request's `Details` box to the next request whose details are equal, so a
    /// file's requests share one box per run of equal details instead of one each.
    public struct DetailsSharing: Sendable {
        private var last: DetailsBox?

        public init() {}

        /// Sets `request`'s details to `details`, through the box of the previous call when equal.
        public mutating func set(_ details: Details, on request: inout MediaRequest) {
            if details.isEmpty {
                request.box = nil
            } else if let last, last.value == details {
                request.box = last
            } else {
                let box = DetailsBox(details)
                request.box = box
                last = box
            }
        }
    }

    /// A `Details` value behind a reference: copied on write (`isKnownUniquelyReferenced`), so a
    /// request keeps value semantics although requests share boxes. `@unchecked Sendable`
    /// because `value` is mutated only while the box is uniquely referenced.
    final class DetailsBox: Hashable, @unchecked Sendable {
        var value: Details
        init(_ value: Details) { self.value = value }
        static func == (a: DetailsBox, b: DetailsBox) -> Bool { a === b || a.value == b.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// Which of the inline optional numbers are present.
    private struct Presence: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        static let status = Presence(rawValue: 1 << 0)
        static let start = Presence(rawValue: 1 << 1)
        static let end = Presence(rawValue: 1 << 2)
        static let bytes = Presence(rawValue: 1 << 3)
        static let segmentDuration = Presence(rawValue: 1 << 4)
    }

    public var kind: Kind
    public var fromCache: Bool?
    private var present: Presence = []
    public var url: String
    public var mediaType: String?
    /// The media playlist this segment belongs to (`indexFileURL`).
    public var playlistURL: String?
    // The inline optional numbers: each value is 0 when its presence bit is clear, so equal
    // requests compare and hash equal.
    private var statusValue = 0
    private var startValue = 0.0
    private var endValue = 0.0
    private var bytesValue: Int64 = 0
    private var segmentDurationValue = 0.0
    private var box: DetailsBox?

    private func value<T>(_ bit: Presence, _ stored: T) -> T? { present.contains(bit) ? stored : nil }

    /// Stores an inline optional: its value (0 when absent, so equal requests hash alike) and
    /// its presence bit.
    private mutating func set<T>(_ newValue: T?, _ bit: Presence, _ stored: WritableKeyPath<MediaRequest, T>, zero: T) {
        self[keyPath: stored] = newValue ?? zero
        if newValue != nil { present.insert(bit) } else { present.remove(bit) }
    }

    public var status: Int? {
        get { value(.status, statusValue) }
        set { set(newValue, .status, \.statusValue, zero: 0) }
    }

    /// When the request was sent (source clock).
    public var start: Timestamp? {
        get { value(.start, startValue).map { Timestamp($0) } }
        set { set(newValue?.secondsSince1970, .start, \.startValue, zero: 0) }
    }

    /// When the response completed (source clock).
    public var end: Timestamp? {
        get { value(.end, endValue).map { Timestamp($0) } }
        set { set(newValue?.secondsSince1970, .end, \.endValue, zero: 0) }
    }

    public var bytes: Int64? {
        get { value(.bytes, bytesValue) }
        set { set(newValue, .bytes, \.bytesValue, zero: 0) }
    }

    /// Declared duration of the segment (EXTINF), when known.
    public var segmentDuration: Double? {
        get { value(.segmentDuration, segmentDurationValue) }
        set { set(newValue, .segmentDuration, \.segmentDurationValue, zero: 0) }
    }

    /// The box holding this request's details, when it has any: requests sharing one are read
    /// once (`Redactor.CleanDetailsMemo`).
    package var detailsBox: AnyObject? { box }

    /// True when this request and `other` hold the same details box (for tests of the sharing).
    package func sharesDetailsBox(with other: MediaRequest) -> Bool { box != nil && box === other.box }

    /// The rarer fields, together (see `Details`).
    public var details: Details {
        get { box?.value ?? Details() }
        set { box = newValue.isEmpty ? nil : DetailsBox(newValue) }
    }

    /// Changes one field of the details: in place when this request alone holds the box.
    private mutating func changeDetails(_ change: (inout Details) -> Void) {
        if box != nil, isKnownUniquelyReferenced(&box), let unique = box {
            change(&unique.value)
            if unique.value.isEmpty { box = nil }
        } else {
            var d = box?.value ?? Details()
            change(&d)
            box = d.isEmpty ? nil : DetailsBox(d)
        }
    }

    /// Sets one field of the details; setting nothing (`isSet` false) on a request without
    /// details keeps it without a box.
    private mutating func setDetail<T>(_ field: WritableKeyPath<Details, T>, _ newValue: T, isSet: Bool) {
        if isSet || box != nil { changeDetails { $0[keyPath: field] = newValue } }
    }

    public var byteRange: ByteRange? {
        get { box?.value.byteRange }
        set { setDetail(\.byteRange, newValue, isSet: newValue != nil) }
    }

    public var error: ErrorInfo? {
        get { box?.value.error }
        set { setDetail(\.error, newValue, isSet: newValue != nil) }
    }

    public var contentType: String? {
        get { box?.value.contentType }
        set { setDetail(\.contentType, newValue, isSet: newValue != nil) }
    }

    public var contentEncoding: String? {
        get { box?.value.contentEncoding }
        set { setDetail(\.contentEncoding, newValue, isSet: newValue != nil) }
    }

    public var serverAddress: String? {
        get { box?.value.serverAddress }
        set { setDetail(\.serverAddress, newValue, isSet: newValue != nil) }
    }

    public var requestHeaders: [String: String] {
        get { box?.value.requestHeaders ?? [:] }
        set { setDetail(\.requestHeaders, newValue, isSet: !newValue.isEmpty) }
    }

    public var responseHeaders: [String: String] {
        get { box?.value.responseHeaders ?? [:] }
        set { setDetail(\.responseHeaders, newValue, isSet: !newValue.isEmpty) }
    }

    /// The response body's size on the wire as a capture recorded it (HAR `bodySize`: after
    /// content encoding), when it differs in meaning from `bytes` (the decoded content).
    public var bodySize: Int64? {
        get { box?.value.bodySize }
        set { setDetail(\.bodySize, newValue, isSet: newValue != nil) }
    }

    public init(
        kind: Kind, url: String, mediaType: String? = nil, byteRange: ByteRange? = nil, start: Timestamp? = nil,
        end: Timestamp? = nil, status: Int? = nil, bytes: Int64? = nil, fromCache: Bool? = nil, error: ErrorInfo? = nil,
        segmentDuration: Double? = nil, playlistURL: String? = nil, contentType: String? = nil,
        contentEncoding: String? = nil, serverAddress: String? = nil, requestHeaders: [String: String] = [:],
        responseHeaders: [String: String] = [:]
    ) {
        self.kind = kind
        self.url = url
        self.mediaType = mediaType
        self.fromCache = fromCache
        self.playlistURL = playlistURL
        self.start = start
        self.end = end
        self.status = status
        self.bytes = bytes
        self.segmentDuration = segmentDuration
        var d = Details()
        d.byteRange = byteRange
        d.error = error
        d.contentType = contentType
        d.contentEncoding = contentEncoding
        d.serverAddress = serverAddress
        d.requestHeaders = requestHeaders
        d.responseHeaders = responseHeaders
        if !d.isEmpty { box = DetailsBox(d) }
    }

    /// Seconds from sending the request to the end of the response, when both are known.
    public var duration: Double? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// True when the request failed: an HTTP error status, or a transport error.
    public var failed: Bool {
        if let status, status >= 400 { return true }
        // Cancelled by the client (a seek, a switch): not a failure (probe H), whether no status
        // came (an error log's row states the error's code, `-999`) or a good one had (a body
        // cut short by a seek). An error status stays a failure.
        if error?.isCancellation == true, (status ?? 0) < 400 { return false }
        // A segment above its variant's declared bandwidth (-12318) was downloaded: a packaging
        // defect, no failed request (probe K).
        if error?.isBandwidthAdvisory == true, (status ?? 0) < 400 { return false }
        if let error, error.didRecover != true || status == nil { return error.code != nil || error.httpStatus != nil }
        return false
    }

    /// The effective HTTP status: the response's, else the one implied by the error.
    public var effectiveStatus: Int? { status ?? error?.httpStatus }

    /// Heuristic request kind from the URL alone, for sources that do not say (HAR, proxy log).
    public static func guessKind(url: String, contentType: String? = nil, body: String? = nil) -> Kind {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init)?.lowercased() ?? url.lowercased()
        let type = contentType?.lowercased() ?? ""
        if path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") || type.contains("mpegurl") {
            if let body {
                return body.contains("#EXT-X-STREAM-INF") ? .multivariantPlaylist : .mediaPlaylist
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return name.contains("master") || name.contains("main") || name == "index.m3u8"
                ? .multivariantPlaylist
                : .mediaPlaylist
        }
        if path.hasPrefix("skd:") || path.hasSuffix(".key") || path.contains("/key") || path.contains("license")
            || path.contains("/fps") || path.contains("fairplay")
        {
            return .contentKey
        }
        for ext in [
            ".ts", ".m4s", ".mp4", ".m4v", ".m4a", ".aac", ".vtt", ".webvtt", ".cmfv", ".cmfa", ".mp3", ".fmp4",
        ]
        where path.hasSuffix(ext) {
            return path.contains("init") ? .map : .segment
        }
        if type.hasPrefix("video/") || type.hasPrefix("audio/") { return .segment }
        return .other
    }
}
