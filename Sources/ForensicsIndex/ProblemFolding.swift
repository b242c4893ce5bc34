import ForensicsCore

/// Which findings of a session explain which: the 404s behind a down-switch behind a stall are one
/// problem for a fleet, counted under their cause, the others listed beneath it as its symptoms.
///
/// Only links a rule states: a stall's `cause` names the rule whose findings are that cause, and a
/// down-switch forced by 404s is a symptom of the same host's failed requests. A finding with no
/// such partner in its session is a problem of its own.
package enum ProblemFolding {
    /// For a stall's cause, the rules whose findings are that cause.
    static let stallCauses: [String: [String]] = [
        "segment-errors": ["segment-errors"],
        "slow-content-key": ["content-key-failed", "slow-key-fetch"],
        "proxy-failure": ["proxy-unreachable", "proxy-origin-errors"],
    ]

    /// For each finding, the index of the finding it is a symptom of (nil for a cause or a problem
    /// of its own). `keys` are the findings' own problem keys (for their hosts).
    package static func roots(_ findings: [Finding], keys: [ProblemKey]) -> [Int?] {
        findings.indices.map { i in
            let f = findings[i]
            switch f.ruleID {
            case "stall":
                guard let cause = f.cause, let rules = stallCauses[cause] else { return nil }
                for rule in rules {
                    if let j = findings.indices.first(where: { $0 != i && findings[$0].ruleID == rule }) { return j }
                }
                return nil
            case "segment-404-downswitch":
                return findings.indices.first { j in
                    findings[j].ruleID == "segment-errors" && (keys[i].host == nil || keys[j].host == keys[i].host)
                }
            default:
                return nil
            }
        }
    }
}
