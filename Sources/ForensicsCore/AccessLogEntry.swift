/// One row of an AVPlayer access log (`AVPlayerItemAccessLogEvent`): one per variant/URI period.
///
/// The typed numbers are bounded by the parser (non-negative, finite, within a year of seconds,
/// 1 Tbit/s, 2^50 counts): out-of-range values are nil with a diagnostic, so sums need no clamps.
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
    /// Which dump of the log the row comes from: apps save the cumulative log several times per
    /// session, so the same row appears once per dump (see `Correlator`'s folding).
    public var dump: Dump?

    public struct Dump: Hashable, Sendable, Codable {
        /// The dump's `#Date` (when the log was written out), on the file's clock.
        public var date: Timestamp?
        /// The line of the block's `#Fields` directive.
        public var block: Int

        public init(date: Timestamp?, block: Int) {
            self.date = date
            self.block = block
        }
    }

    /// What identifies the row across dumps: the same event keeps its URI, its start date (or
    /// `- -`) and its server address… but cumulative counters grow, and may even drop
    /// (FB22519249), between dumps.
    public var identity: String {
        [fields["uri"], fields["date"], fields["time"], fields["cs-guid"]].map { $0 ?? "-" }.joined(separator: " ")
    }

    public init(fields: [String: String]) {
        self.fields = fields
    }
}
