import ForensicsCore

/// A fully parsed HLS playlist (RFC 8216 and its current draft), multivariant or media.
///
/// Lossless where it matters for forensics: every tag keeps its line number, tags the model does
/// not know and comments are kept in `otherTags` / `comments`.
public struct Playlist: Sendable {
    public struct Tag: Sendable, Hashable {
        public var name: String
        public var value: String?
        public var line: Int
    }

    public struct Key: Sendable, Hashable {
        public var method: String
        public var uri: String?
        public var iv: String?
        public var keyFormat: String?
        public var keyFormatVersions: String?
        public var line: Int
    }

    public struct MapInfo: Sendable, Hashable {
        public var uri: String
        public var byteRange: ByteRange?
        public var line: Int
    }

    public struct Part: Sendable, Hashable {
        public var uri: String
        public var duration: Double?
        public var independent: Bool
        public var byteRange: ByteRange?
        public var gap: Bool
        public var line: Int
    }

    public struct Segment: Sendable, Hashable {
        public var uri: String
        public var resolvedURI: String
        public var duration: Double
        public var title: String?
        public var byteRange: ByteRange?
        public var discontinuity: Bool
        /// How many discontinuities precede this segment (videojs' `timeline`).
        public var discontinuitySequence: Int64
        public var mediaSequence: Int64
        public var programDateTime: String?
        public var key: Key?
        public var map: MapInfo?
        public var gap: Bool
        public var bitrate: Int64?
        public var parts: [Part]
        public var line: Int
    }

    public struct VariantStream: Sendable, Hashable {
        public var uri: String
        public var resolvedURI: String
        public var attributes: AttributeList
        public var isIFrame: Bool
        public var line: Int

        public var bandwidth: Int64? { attributes.integer("BANDWIDTH") }
        public var averageBandwidth: Int64? { attributes.integer("AVERAGE-BANDWIDTH") }
    }

    public struct Rendition: Sendable, Hashable {
        public var attributes: AttributeList
        public var line: Int
        public var type: String? { attributes["TYPE"] }
        public var groupID: String? { attributes["GROUP-ID"] }
        public var name: String? { attributes["NAME"] }
        public var uri: String? { attributes["URI"] }
    }

    public struct AttributeTag: Sendable, Hashable {
        public var name: String
        public var attributes: AttributeList
        public var line: Int
    }

    public var url: String?
    public var hasHeader = false
    public var version: Int?
    public var isMultivariant = false
    public var targetDuration: Double?
    public var mediaSequence: Int64 = 0
    public var discontinuitySequence: Int64 = 0
    public var playlistType: String?
    public var endList = false
    public var iFramesOnly = false
    public var independentSegments = false
    public var allowCache: Bool?
    public var start: AttributeList?
    public var serverControl: AttributeList?
    public var partInf: AttributeList?
    public var skip: AttributeList?
    public var contentSteering: AttributeList?
    public var segments: SegmentList
    public var variants: [VariantStream] = []
    public var iFrameVariants: [VariantStream] = []
    public var renditions: [Rendition] = []
    public var sessionKeys: [Key] = []
    public var sessionData: [AttributeTag] = []
    public var dateRanges: [AttributeTag] = []
    public var preloadHints: [AttributeTag] = []
    public var renditionReports: [AttributeTag] = []
    public var defines: [String: String] = [:]
    /// Tags not modelled above (vendor tags such as `EXT-X-CUE-OUT`), in order.
    public var otherTags: [Tag] = []
    public var comments: [Tag] = []

    public init(url: String?) { self.init(url: url, resolver: URIResolver(base: url)) }

    init(url: String?, resolver: URIResolver) {
        self.url = url
        self.segments = SegmentList(resolver: resolver)
    }

    /// The condensed view used by correlation and rules.
    public var snapshot: PlaylistSnapshot {
        var s = PlaylistSnapshot(url: url, isMultivariant: isMultivariant)
        s.variants = variants.map {
            Variant(
                peakBitRate: $0.bandwidth.map(Double.init), averageBitRate: $0.averageBandwidth.map(Double.init),
                url: $0.resolvedURI)
        }
        s.hasSessionKey = !sessionKeys.isEmpty
        s.hasKeys = segments.hasKeys
        s.segmentCount = segments.count
        s.targetDuration = targetDuration
        s.mediaSequence = mediaSequence
        s.endList = endList
        s.segmentURIs = segments.count <= 20_000 ? segments.indices.map { segments.resolvedURI(at: $0) } : []
        return s
    }
}
