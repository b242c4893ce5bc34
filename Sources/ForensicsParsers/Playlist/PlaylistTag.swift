import Foundation

/// The playlist tags the parser models (RFC 8216 and its current draft), recognised from the raw
/// bytes of a tag name (`#EXTINF`, `#EXT-X-KEY`, …) without building a `String`.
///
/// Why bytes: a 24-hour DVR playlist has tens of thousands of tag lines, and comparing a
/// `Substring` against forty string literals in turn was most of the parser's time. Names are
/// grouped by length, so a look-up compares against two or three candidates at most.
enum PlaylistTag: CaseIterable {
    case extm3u, version, extinf, targetDuration, mediaSequence, discontinuitySequence, playlistType
    case endList, iFramesOnly, independentSegments, allowCache, discontinuity, byteRange, programDateTime
    case gap, bitrate, key, sessionKey, map, part, partInf, serverControl, skip, preloadHint
    case renditionReport, dateRange, streamInf, iFrameStreamInf, media, sessionData, contentSteering
    case start, define

    /// The tag's name as written, with its leading `#`.
    var name: StaticString {
        switch self {
        case .extm3u: "#EXTM3U"
        case .version: "#EXT-X-VERSION"
        case .extinf: "#EXTINF"
        case .targetDuration: "#EXT-X-TARGETDURATION"
        case .mediaSequence: "#EXT-X-MEDIA-SEQUENCE"
        case .discontinuitySequence: "#EXT-X-DISCONTINUITY-SEQUENCE"
        case .playlistType: "#EXT-X-PLAYLIST-TYPE"
        case .endList: "#EXT-X-ENDLIST"
        case .iFramesOnly: "#EXT-X-I-FRAMES-ONLY"
        case .independentSegments: "#EXT-X-INDEPENDENT-SEGMENTS"
        case .allowCache: "#EXT-X-ALLOW-CACHE"
        case .discontinuity: "#EXT-X-DISCONTINUITY"
        case .byteRange: "#EXT-X-BYTERANGE"
        case .programDateTime: "#EXT-X-PROGRAM-DATE-TIME"
        case .gap: "#EXT-X-GAP"
        case .bitrate: "#EXT-X-BITRATE"
        case .key: "#EXT-X-KEY"
        case .sessionKey: "#EXT-X-SESSION-KEY"
        case .map: "#EXT-X-MAP"
        case .part: "#EXT-X-PART"
        case .partInf: "#EXT-X-PART-INF"
        case .serverControl: "#EXT-X-SERVER-CONTROL"
        case .skip: "#EXT-X-SKIP"
        case .preloadHint: "#EXT-X-PRELOAD-HINT"
        case .renditionReport: "#EXT-X-RENDITION-REPORT"
        case .dateRange: "#EXT-X-DATERANGE"
        case .streamInf: "#EXT-X-STREAM-INF"
        case .iFrameStreamInf: "#EXT-X-I-FRAME-STREAM-INF"
        case .media: "#EXT-X-MEDIA"
        case .sessionData: "#EXT-X-SESSION-DATA"
        case .contentSteering: "#EXT-X-CONTENT-STEERING"
        case .start: "#EXT-X-START"
        case .define: "#EXT-X-DEFINE"
        }
    }

    /// The name without `#`, as diagnostics spell it (`EXT-X-KEY`).
    var label: String {
        let n = name
        return String(
            decoding: UnsafeBufferPointer(start: n.utf8Start + 1, count: n.utf8CodeUnitCount - 1), as: UTF8.self)
    }

    /// The tags whose names have `length` bytes, the per-segment ones first.
    private static func candidates(length: Int) -> [PlaylistTag] {
        switch length {
        case 7: [.extinf, .extm3u]
        case 10: [.key, .map, .gap]
        case 11: [.part, .skip]
        case 12: [.media, .start]
        case 13: [.define]
        case 14: [.version, .endList, .bitrate]
        case 15: [.partInf]
        case 16: [.byteRange, .dateRange]
        case 17: [.streamInf]
        case 18: [.allowCache, .sessionKey]
        case 19: [.preloadHint, .sessionData]
        case 20: [.discontinuity, .playlistType, .iFramesOnly]
        case 21: [.targetDuration, .mediaSequence, .serverControl]
        case 23: [.renditionReport, .contentSteering]
        case 24: [.programDateTime]
        case 25: [.iFrameStreamInf]
        case 27: [.independentSegments]
        case 29: [.discontinuitySequence]
        default: []
        }
    }

    /// The tag named exactly by `name` (case-sensitive, as RFC 8216 requires), or nil.
    init?(name: UnsafeBufferPointer<UInt8>) {
        guard let base = name.baseAddress else { return nil }
        for tag in Self.candidates(length: name.count) where memcmp(base, tag.name.utf8Start, name.count) == 0 {
            self = tag
            return
        }
        return nil
    }
}
