import ForensicsCore

/// One problem across the fleet: the findings of every session that share a `ProblemKey`, with
/// how many sessions it hurts, since when, what it costs them, and where to look first.
public struct ProblemGroup: Sendable, Hashable {
    public struct Example: Sendable, Hashable {
        public var bundle: String
        /// The bundle's report file under `bundles/` (without extension).
        public var file: String
        public var sessionID: String
        /// Evidence records of this problem's findings in that session: the best example shows most.
        public var evidence: Int
    }

    public var key: ProblemKey
    public var worst: Severity
    /// Sessions with at least one finding of this key.
    public var sessions: Int
    /// `sessions` over every session of the fleet's analysed bundles.
    public var share: Double
    public var bundles: Int
    public var findings: Int
    /// Earliest and latest finding start (UTC sessions only: a device-local time cannot be ordered
    /// against another device's).
    public var firstSeen: String?
    public var lastSeen: String?
    /// Median startup time and rebuffering ratio of the affected sessions and of the others (nil
    /// when no such session measured it).
    public var medianStartupAffected: Double?
    public var medianStartupUnaffected: Double?
    public var medianRebufferAffected: Double?
    public var medianRebufferUnaffected: Double?
    /// Up to three bundles that show the problem best (most evidence, then name).
    public var examples: [Example]
}
