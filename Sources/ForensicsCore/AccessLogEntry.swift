/// One row of an AVPlayer access log (`AVPlayerItemAccessLogEvent`): one per variant/URI period.
public struct AccessLogEntry: Hashable, Sendable, Codable {
    public var uri: String?
    public var serverAddress: String?
    public var mediaRequests: Int?
    public var durationWatched: Double?
    public var startupTime: Double?
    public var stalls: Int?
    public var bytesTransferred: Int64?
    public var observedBitrate: Double?
    public var indicatedBitrate: Double?
    public var switchBitrate: Double?
    public var droppedFrames: Int?
    public var playbackType: String?
    public var downloadOverdue: Int?
    /// Every column as written, by field name, so nothing is lost (unknown columns included).
    public var fields: [String: String]

    public init(fields: [String: String]) {
        self.fields = fields
    }
}
