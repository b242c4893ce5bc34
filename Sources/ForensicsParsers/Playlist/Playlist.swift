import ForensicsCore

/// A fully parsed HLS playlist (RFC 8216 and its current draft), multivariant or media.
///
/// Lossless where it matters for forensics: every tag keeps its line number, tags the model does
/// not know and comments are kept in `otherTags` / `comments`.
package struct Playlist: Sendable {
    package struct Tag: Sendable, Hashable {
        package var name: String
        package var value: String?
        package var line: Int
    }

    package struct Key: Sendable, Hashable {
        package var method: String
        package var uri: String?
        package var iv: String?
        package var keyFormat: String?
        package var keyFormatVersions: String?
        package var line: Int
    }

    package struct MapInfo: Sendable, Hashable {
        package var uri: String
        package var byteRange: ByteRange?
        package var line: Int
    }

    package struct Part: Sendable, Hashable {
        package var uri: String
        package var duration: Double?
        package var independent: Bool
        package var byteRange: ByteRange?
        package var gap: Bool
        package var line: Int
    }

    package struct Segment: Sendable, Hashable {
        package var uri: String
        package var resolvedURI: String
        package var duration: Double
        package var title: String?
        package var byteRange: ByteRange?
        package var discontinuity: Bool
        /// How many discontinuities precede this segment (videojs' `timeline`).
        package var discontinuitySequence: Int64
        package var mediaSequence: Int64
        package var programDateTime: String?
        package var key: Key?
        package var map: MapInfo?
        package var gap: Bool
        package var bitrate: Int64?
        package var parts: [Part]
        package var line: Int
    }

    package struct VariantStream: Sendable, Hashable {
        package var uri: String
        package var resolvedURI: String
        package var attributes: AttributeList
        package var isIFrame: Bool
        package var line: Int

        package var bandwidth: Int64? { attributes.integer("BANDWIDTH") }
        package var averageBandwidth: Int64? { attributes.integer("AVERAGE-BANDWIDTH") }
    }

    package struct Rendition: Sendable, Hashable {
        package var attributes: AttributeList
        package var line: Int
        package var type: String? { attributes["TYPE"] }
        package var groupID: String? { attributes["GROUP-ID"] }
        package var name: String? { attributes["NAME"] }
        package var uri: String? { attributes["URI"] }
    }

    package struct AttributeTag: Sendable, Hashable {
        package var name: String
        package var attributes: AttributeList
        package var line: Int
    }

    package var url: String?
    package var hasHeader = false
    package var version: Int?
    package var isMultivariant = false
    package var targetDuration: Double?
    package var mediaSequence: Int64 = 0
    package var discontinuitySequence: Int64 = 0
    package var playlistType: String?
    package var endList = false
    package var iFramesOnly = false
    package var independentSegments = false
    package var allowCache: Bool?
    package var start: AttributeList?
    package var serverControl: AttributeList?
    package var partInf: AttributeList?
    package var skip: AttributeList?
    package var contentSteering: AttributeList?
    package var segments: SegmentList
    package var variants: [VariantStream] = []
    package var iFrameVariants: [VariantStream] = []
    package var renditions: [Rendition] = []
    package var sessionKeys: [Key] = []
    package var sessionData: [AttributeTag] = []
    package var dateRanges: [AttributeTag] = []
    package var preloadHints: [AttributeTag] = []
    /// LL-HLS partial segments after the last whole segment (playable before their segment ends).
    package var trailingPartCount = 0
    package var renditionReports: [AttributeTag] = []
    package var defines: [String: String] = [:]
    /// Tags not modelled above (vendor tags such as `EXT-X-CUE-OUT`), in order.
    package var otherTags: [Tag] = []
    package var comments: [Tag] = []
    /// Requirements broken by the playlist's lines, as the parser met them (malformed or
    /// misplaced lines); `StreamCheckCatalogue.check` adds the judgments on the whole.
    package var defects: [StreamDefect] = []
    /// How many `EXT-X-VERSION` tags the playlist has.
    package var versionTagCount = 0
    /// Whether any `EXT-X-PROGRAM-DATE-TIME` tag appears (on a segment or on trailing parts).
    package var hasProgramDateTime = false
    /// Where `EXT-X-TARGETDURATION`, `EXT-X-SERVER-CONTROL` and `EXT-X-PART-INF` are (0: absent),
    /// for the checks that judge them to cite their line.
    package var targetDurationLine = 0
    package var serverControlLine = 0
    package var partInfLine = 0
    /// What the checks need of the segments, gathered as they are parsed (a 500,000-segment
    /// playlist is not walked again): the first with a byte range, the longest, the sum.
    package var firstByteRangeLine: Int?
    package var longestSegment: (duration: Double, line: Int)?
    package var totalDuration = 0.0

    package init(url: String?) { self.init(url: url, resolver: URIResolver(base: url)) }

    init(url: String?, resolver: URIResolver) {
        self.url = url
        self.segments = SegmentList(resolver: resolver)
    }

    /// The condensed view with what the stream checks found in it.
    package var checkedSnapshot: PlaylistSnapshot {
        var s = snapshot
        s.defects = StreamCheckCatalogue.check(self)
        return s
    }

    /// The condensed view used by correlation and rules.
    package var snapshot: PlaylistSnapshot {
        var s = PlaylistSnapshot(url: url, isMultivariant: isMultivariant)
        s.variants = variants.map {
            Variant(
                peakBitRate: $0.bandwidth.map(Double.init), averageBitRate: $0.averageBandwidth.map(Double.init),
                url: $0.resolvedURI)
        }
        if isMultivariant {
            let resolver = URIResolver(base: url)
            s.renditionURIs =
                renditions.compactMap { $0.uri.map(resolver.resolve) } + iFrameVariants.map(\.resolvedURI)
        }
        s.hasSessionKey = !sessionKeys.isEmpty
        s.hasKeys = segments.hasKeys
        s.segmentCount = segments.count
        s.targetDuration = targetDuration
        s.mediaSequence = mediaSequence
        s.discontinuitySequence = discontinuitySequence
        if let n = skip?.integer("SKIPPED-SEGMENTS"), n > 0 { s.skippedSegments = n }
        s.endList = endList
        s.segmentURIs = segments.count <= 20_000 ? segments.indices.map { segments.resolvedURI(at: $0) } : []
        s.segmentDurations = segments.count <= 20_000 ? segments.indices.map { segments.duration(at: $0) } : []
        return s
    }
}
