/// The AVMetrics event classes the mapper reads, by the name a dump writes in `type`
/// (`AVMetricHLSPlaylistRequestEvent`, without the `AVMetric` prefix, or module-qualified
/// `AVFoundation.AVMetricHLSPlaylistRequestEvent`).
enum MetricEventType: String, CaseIterable {
    case playlistRequest = "HLSPlaylistRequestEvent"
    case segmentRequest = "HLSMediaSegmentRequestEvent"
    case contentKeyRequest = "ContentKeyRequestEvent"
    case resourceRequest = "MediaResourceRequestEvent"
    case likelyToKeepUp = "PlayerItemLikelyToKeepUpEvent"
    case initialLikelyToKeepUp = "PlayerItemInitialLikelyToKeepUpEvent"
    case rateChange = "PlayerItemRateChangeEvent"
    case stall = "PlayerItemStallEvent"
    case seek = "PlayerItemSeekEvent"
    case seekDidComplete = "PlayerItemSeekDidCompleteEvent"
    case variantSwitchStart = "PlayerItemVariantSwitchStartEvent"
    case variantSwitch = "PlayerItemVariantSwitchEvent"
    case playbackSummary = "PlayerItemPlaybackSummaryEvent"
    case downloadSummary = "DownloadSummaryEvent"
    case error = "ErrorEvent"
    case playbackModeSwitch = "PlaybackModeSwitchEvent"

    /// The class name as AVFoundation spells it.
    var fullName: String { "AVMetric" + rawValue }

    /// A request event: its times are the request's own, whatever its `date`.
    var isRequest: Bool {
        switch self {
        case .playlistRequest, .segmentRequest, .contentKeyRequest, .resourceRequest: true
        default: false
        }
    }

    private static let names: [(bytes: [UInt8], type: MetricEventType)] = allCases.map {
        (Array($0.rawValue.utf8), $0)
    }

    /// The type a `type` value names, read from its bytes (no string is made for a plain name).
    init?(_ node: JSONNode) {
        if let bytes = node.plainStringBytes {
            self.init(bytes: bytes)
        } else if var text = node.string {
            guard let type = text.withUTF8({ MetricEventType(bytes: $0) }) else { return nil }
            self = type
        } else {
            return nil
        }
    }

    init?(bytes: UnsafeBufferPointer<UInt8>) {
        var name = bytes
        // A module-qualified name (`AVFoundation.AVMetric…`, as `String(reflecting:)` writes a
        // type) is the same class.
        if name.hasPrefix("AVFoundation.") { name = UnsafeBufferPointer(rebasing: name[13...]) }
        if name.hasPrefix("AVMetric") { name = UnsafeBufferPointer(rebasing: name[8...]) }
        guard let match = Self.names.first(where: { $0.bytes.count == name.count && $0.bytes.elementsEqual(name) })
        else { return nil }
        self = match.type
    }
}
