/// One row of an AVPlayer access log (`AVPlayerItemAccessLogEvent`): one per variant/URI period.
///
/// The typed numbers are bounded by the parser (non-negative, finite, within a year of seconds,
/// 1 Tbit/s, 2^50 counts): out-of-range values are nil with a diagnostic, so sums need no clamps.
public struct AVPlayerAccessLogEntry: Hashable, Sendable, Codable {
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
    public var fields: AVPlayerAccessLogFields
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
    public var identity: Identity {
        Identity(uri: fields["uri"], date: fields["date"], time: fields["time"], session: fields["cs-guid"])
    }

    public struct Identity: Hashable, Sendable {
        public var uri, date, time, session: String?
    }

    public init(fields: AVPlayerAccessLogFields) {
        self.fields = fields
    }
}

/// A row's columns by name. The names are the block's `#Fields` list, shared by every row of the
/// block (copy on write), and each row keeps only its values: a dictionary per row was the
/// largest part of an access log in memory (about 1 KiB a row).
public struct AVPlayerAccessLogFields: Hashable, Sendable, Codable {
    public private(set) var names: [String]
    /// One value per name; nil where the row wrote `-`.
    public private(set) var values: [String?]

    public init(names: [String], values: [String?]) {
        self.names = names
        self.values = values
    }

    public init(_ dictionary: [String: String] = [:]) {
        let sorted = dictionary.sorted { $0.key < $1.key }
        names = sorted.map(\.key)
        values = sorted.map(\.value)
    }

    public subscript(name: String) -> String? {
        get {
            guard let i = names.firstIndex(of: name) else { return nil }
            return values[i]
        }
        set {
            if let i = names.firstIndex(of: name) {
                values[i] = newValue
            } else if let newValue {
                names.append(name)
                values.append(newValue)
            }
        }
    }

    /// The columns that have a value, in the order written.
    public var present: [(name: String, value: String)] {
        zip(names, values).compactMap { name, value in value.map { (name, $0) } }
    }

    /// Every value passed through `transform`, names kept; storage is copied only when a value
    /// changes.
    public func mapValues(_ transform: (String) -> String) -> AVPlayerAccessLogFields {
        var out = self
        for (i, value) in values.enumerated() {
            guard let value else { continue }
            let changed = transform(value)
            if changed != value { out.values[i] = changed }
        }
        return out
    }
}
