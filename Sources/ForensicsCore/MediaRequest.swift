/// One HTTP request made for playback (playlist, key, segment…), as one source saw it.
///
/// Every source fills what it knows: the metric dump has request/response times and status,
/// the HAR has headers and timings, the proxy log has cache hits and the origin status.
public struct MediaRequest: Hashable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case multivariantPlaylist = "multivariant-playlist"
        case mediaPlaylist = "media-playlist"
        case contentKey = "content-key"
        case segment
        case map
        case other
    }

    public var kind: Kind
    public var url: String
    public var mediaType: String?
    public var byteRange: ByteRange?
    /// When the request was sent (source clock).
    public var start: Timestamp?
    /// When the response completed (source clock).
    public var end: Timestamp?
    public var status: Int?
    public var bytes: Int64?
    public var fromCache: Bool?
    public var error: ErrorInfo?
    /// Declared duration of the segment (EXTINF), when known.
    public var segmentDuration: Double?
    /// The media playlist this segment belongs to (`indexFileURL`).
    public var playlistURL: String?
    public var contentType: String?
    public var contentEncoding: String?
    public var serverAddress: String?
    public var requestHeaders: [String: String]
    public var responseHeaders: [String: String]
    /// The response body's size on the wire as a capture recorded it (HAR `bodySize`: after
    /// content encoding), when it differs in meaning from `bytes` (the decoded content).
    public var bodySize: Int64?

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
        self.byteRange = byteRange
        self.start = start
        self.end = end
        self.status = status
        self.bytes = bytes
        self.fromCache = fromCache
        self.error = error
        self.segmentDuration = segmentDuration
        self.playlistURL = playlistURL
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.serverAddress = serverAddress
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
    }

    /// Seconds from sending the request to the end of the response, when both are known.
    public var duration: Double? {
        guard let start, let end else { return nil }
        return end - start
    }

    /// True when the request failed: an HTTP error status, or a transport error.
    public var failed: Bool {
        if let status, status >= 400 { return true }
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
