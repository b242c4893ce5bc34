import ForensicsCore

/// One problem across the fleet: the findings of every session that share a `ProblemKey`, with
/// how many sessions it hurts, since when, what it costs them, and where to look first.
package struct ProblemGroup: Sendable, Hashable {
    package struct Example: Sendable, Hashable {
        package var bundle: String
        /// The bundle's report file under `bundles/` (without extension).
        package var file: String
        package var sessionID: String
        /// Evidence records of this problem's findings in that session: the best example shows most.
        package var evidence: Int
    }

    package var key: ProblemKey
    package var worst: Severity
    /// Sessions with at least one finding of this key.
    package var sessions: Int
    /// `sessions` over every session of the fleet's analysed bundles.
    package var share: Double
    package var bundles: Int
    package var findings: Int
    /// Earliest and latest finding start (UTC sessions only: a device-local time cannot be ordered
    /// against another device's).
    package var firstSeen: String?
    package var lastSeen: String?
    /// Median startup time and rebuffering ratio of the affected sessions and of the others (nil
    /// when no such session measured it).
    package var medianStartupAffected: Double?
    package var medianStartupUnaffected: Double?
    package var medianRebufferAffected: Double?
    package var medianRebufferUnaffected: Double?
    /// Up to three bundles that show the problem best (most evidence, then name).
    package var examples: [Example]
}
