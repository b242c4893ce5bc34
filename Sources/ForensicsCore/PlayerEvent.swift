/// A change of the player's state, from the metric events (or derived from other logs).
public struct PlayerEvent: Hashable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case rateChange = "rate-change"
        case stall
        case seek
        case seekDidComplete = "seek-did-complete"
        case likelyToKeepUp = "likely-to-keep-up"
        case initialLikelyToKeepUp = "initial-likely-to-keep-up"
        case variantSwitchStart = "variant-switch-start"
        case variantSwitch = "variant-switch"
        case playbackModeSwitch = "playback-mode-switch"
    }

    public var kind: Kind
    public var mediaTime: Double?
    public var rate: Double?
    public var previousRate: Double?
    public var variant: Variant?
    public var fromVariant: Variant?
    public var toVariant: Variant?
    public var timeTaken: Double?
    public var didSucceed: Bool?
    public var didSeekInBuffer: Bool?
    public var detail: String?
    /// Seconds of media loaded ahead of `mediaTime` (the player's buffer), from the event's
    /// `loadedTimeRanges`: the range holding the play head, its end minus the play head; 0 when
    /// no loaded range holds it; nil when the event states no ranges or no media time.
    public var bufferedAhead: Double?

    public init(
        kind: Kind, mediaTime: Double? = nil, rate: Double? = nil, previousRate: Double? = nil, variant: Variant? = nil,
        fromVariant: Variant? = nil, toVariant: Variant? = nil, timeTaken: Double? = nil, didSucceed: Bool? = nil,
        didSeekInBuffer: Bool? = nil, detail: String? = nil
    ) {
        self.kind = kind
        self.mediaTime = mediaTime
        self.rate = rate
        self.previousRate = previousRate
        self.variant = variant
        self.fromVariant = fromVariant
        self.toVariant = toVariant
        self.timeTaken = timeTaken
        self.didSucceed = didSucceed
        self.didSeekInBuffer = didSeekInBuffer
        self.detail = detail
    }
}

/// The player's own end-of-item summary (`AVMetricPlayerItemPlaybackSummaryEvent`).
public struct PlaybackSummary: Hashable, Sendable, Codable {
    /// From `AVMetricDownloadSummaryEvent` (an asset download's summary), not a playback's.
    public var isDownloadSummary = false
    public var error: ErrorInfo?
    public var recoverableErrorCount: Int?
    public var stallCount: Int?
    public var variantSwitchCount: Int?
    public var playbackDuration: Double?
    public var mediaResourceRequestCount: Int?
    public var timeSpentRecoveringFromStall: Double?
    public var timeSpentInInitialStartup: Double?
    public var timeWeightedAverageBitrate: Double?
    public var timeWeightedPeakBitrate: Double?

    public init() {}
}
