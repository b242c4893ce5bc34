/// What a captured playlist said, condensed for correlation and rules (the full parse is
/// `ForensicsParsers.Playlist`).
public struct PlaylistSnapshot: Hashable, Sendable, Codable {
    public var url: String?
    public var isMultivariant: Bool
    /// Multivariant: variants in the order listed (AVFoundation starts with the first).
    public var variants: [Variant]
    public var hasSessionKey: Bool
    public var hasKeys: Bool
    public var segmentCount: Int
    public var targetDuration: Double?
    public var mediaSequence: Int64?
    public var endList: Bool
    public var segmentURIs: [String]
    /// A multivariant playlist's other playlists: its renditions' (`EXT-X-MEDIA` URI) and its
    /// I-frame variants', resolved — what a capture's request for one of them is.
    public var renditionURIs: [String] = []
    /// Each listed segment's `EXTINF` duration, parallel to `segmentURIs`: what a capture without
    /// player events (a HAR) knows of how long a segment plays.
    public var segmentDurations: [Double] = []
    /// `EXT-X-DISCONTINUITY-SEQUENCE` (0 when absent).
    public var discontinuitySequence: Int64 = 0
    /// Segments an LL-HLS delta update left out (`EXT-X-SKIP:SKIPPED-SEGMENTS`): `segmentURIs`
    /// start at `mediaSequence + skippedSegments`.
    public var skippedSegments: Int64 = 0
    /// What the stream checks found in this playlist on its own.
    public var defects: [StreamDefect] = []

    public init(url: String?, isMultivariant: Bool) {
        self.url = url
        self.isMultivariant = isMultivariant
        self.variants = []
        self.hasSessionKey = false
        self.hasKeys = false
        self.segmentCount = 0
        self.endList = false
        self.segmentURIs = []
    }
}

/// A requirement of RFC 8216bis or Apple's HLS authoring rules a captured playlist breaks (a
/// stream check's finding), where it does, and what it does to playback.
public struct StreamDefect: Hashable, Sendable, Codable {
    /// The stream check's id (`extinf-exceeds-target-duration`).
    public var check: String
    /// The playlist line (1-based); 0 for the playlist as a whole.
    public var line: Int
    public var message: String
    public var severity: Severity
    /// The requirement, in a phrase, and what breaking it does to playback (the check's words).
    public var requirement: String = ""
    public var effect: String = ""

    public init(check: String, line: Int, message: String, severity: Severity) {
        self.check = check
        self.line = line
        self.message = message
        self.severity = severity
    }
}
