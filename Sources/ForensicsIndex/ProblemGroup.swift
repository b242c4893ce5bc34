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
    /// The affected sessions that played (`Session.isPlaybackAttempt`) over every session of the
    /// fleet that played.
    package var share: Double
    /// The affected sessions that played: what `share` is of (`sessions` counts them all).
    package var playedSessions = 0
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
    /// Findings this problem explains in the same sessions (a stall it caused, a down-switch its
    /// 404s forced), by their own key, with how many sessions show each: most first.
    package var symptoms: [Symptom] = []
    /// How many assets and which variants (bits/s, highest first, at most 8) its findings are about.
    package var assets = 0
    package var variants: [Int] = []

    package struct Symptom: Sendable, Hashable {
        package var key: String
        package var sessions: Int
    }

    /// How much the problem hurts: each affected session weighed by its own worst severity in the
    /// problem (symptoms included), each level three times the one below (info 1, warning 3,
    /// error 9, critical 27). A failed playback in a few sessions then comes before a warning in
    /// many; a warning in many times more sessions still comes first. Saturating (counts come from
    /// input). Set where the group is made; `ranked` groups read back are already in this order.
    package var harm = 0

    package static func weight(_ severity: Severity) -> Int {
        switch severity {
        case .info: 1
        case .warning: 3
        case .error: 9
        case .critical: 27
        }
    }

    /// The ranking of a fleet's problems: most harm first, then most sessions, the worst
    /// severity, and the key (so that equal problems always come in the same order).
    package static func byHarm(_ a: ProblemGroup, _ b: ProblemGroup) -> Bool {
        if a.harm != b.harm { return a.harm > b.harm }
        if a.sessions != b.sessions { return a.sessions > b.sessions }
        if a.worst != b.worst { return a.worst > b.worst }
        return a.key < b.key
    }
}
