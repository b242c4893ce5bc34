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
    /// Each listed segment's `EXTINF` duration, parallel to `segmentURIs`: what a capture without
    /// player events (a HAR) knows of how long a segment plays.
    public var segmentDurations: [Double] = []

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
