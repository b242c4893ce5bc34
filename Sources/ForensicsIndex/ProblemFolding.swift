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
    /// of its own), followed to the end of a chain. `keys` are the findings' own problem keys (for
    /// their hosts).
    package static func roots(_ findings: [Finding], keys: [ProblemKey]) -> [Int?] {
        let direct = findings.indices.map { cause(of: $0, findings, keys) }
        return findings.indices.map { i in
            // Follow the chain; a cycle (two findings naming each other) ends where it closes.
            var seen: Set<Int> = [i]
            var root = direct[i]
            while let r = root, let next = direct[r], seen.insert(r).inserted { root = next }
            return root.flatMap { seen.contains($0) && $0 == i ? nil : $0 }
        }
    }

    /// The finding that directly explains finding `i`, if the session has one.
    static func cause(of i: Int, _ findings: [Finding], _ keys: [ProblemKey]) -> Int? {
        let f = findings[i]
        switch f.ruleID {
        case "stall":
            // The cause's finding that began last at or before the stall (404s on one host, 503s
            // on another: the ones before the stall are its cause), else the first of them.
            guard let cause = f.cause, let rules = stallCauses[cause] else { return nil }
            for rule in rules {
                let candidates = findings.indices.filter { $0 != i && findings[$0].ruleID == rule }
                guard let first = candidates.first else { continue }
                let before = candidates.filter { j in
                    guard let s = findings[j].start, let t = f.start else { return false }
                    return s <= t
                }
                return before.max {
                    (findings[$0].start?.secondsSince1970 ?? 0) < (findings[$1].start?.secondsSince1970 ?? 0)
                }
                    ?? first
            }
            return nil
        case "segment-404-downswitch":
            // The same host's failed requests; with no host, only when the session has one such
            // finding (two hosts' failures: which forced it is not known).
            let errors = findings.indices.filter { findings[$0].ruleID == "segment-errors" }
            guard let host = keys[i].host else { return errors.count == 1 ? errors.first : nil }
            return errors.first { keys[$0].host == host }
        default:
            return nil
        }
    }
}
