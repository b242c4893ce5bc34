/// What a report may claim about a bundle as a whole: problems found, no problem found, or that
/// part of the evidence could not be judged (and why). "No problem found" is a claim that the
/// evidence read could have shown a problem and did not; anything less says what was missing.
///
/// Derived from the report (`AnalysisReport.verdict`), so every writer — Markdown, HTML, JSON,
/// triage — tells the same story from the same facts.
public struct BundleVerdict: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// At least one finding at warning level or above.
        case problemsFound = "problems-found"
        /// Everything read was judged, and no finding reached warning level.
        case noProblemFound = "no-problem-found"
        /// No finding at warning level or above, but part of the evidence could not be judged.
        case couldNotJudge = "could-not-judge"
        /// Nothing playback-related was read at all.
        case nothingRead = "nothing-read"
    }

    public var status: Status
    /// Why part of the evidence could not be judged: each a sentence naming the file or cause.
    /// Also listed, as caveats, when problems were found.
    public var couldNotJudge: [String]

    public init(status: Status, couldNotJudge: [String]) {
        self.status = status
        self.couldNotJudge = couldNotJudge
    }
}

/// Why a file was not read, and whether that hides evidence (an encrypted member may hold the
/// logs; a README does not).
public struct NotRead: Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    /// True when the file may have held playback evidence that was not judged.
    public var hidesEvidence: Bool

    public init(_ reason: String, hidesEvidence: Bool) {
        self.reason = reason
        self.hidesEvidence = hidesEvidence
    }

    public var description: String { reason }
}

extension AnalysisReport {
    /// The verdict over the whole report (as narrowed): see `BundleVerdict`.
    public var verdict: BundleVerdict {
        var reasons: [String] = []
        if let incomplete { reasons.append("the bundle was not read to the end: \(incomplete)") }
        for input in inputs {
            if let notRead = input.notRead, notRead.hidesEvidence {
                reasons.append("\(input.path) was not read: \(notRead.reason)")
            }
        }
        reasons.append(contentsOf: caveats)
        // What each session's evidence could not show: one reason per gap, naming the first
        // sessions, so that a proxy log of a hundred sessions does not bury the verdict.
        var gaps: [(why: String, sessions: [String])] = []
        var gapIndex: [String: Int] = [:]
        for result in sessions {
            for why in result.gaps {
                if let i = gapIndex[why] {
                    gaps[i].sessions.append(result.session.id)
                } else {
                    gapIndex[why] = gaps.count
                    gaps.append((why, [result.session.id]))
                }
            }
        }
        for (why, ids) in gaps {
            let named = ids.prefix(3).joined(separator: ", ")
            let more = ids.count > 3 ? " and \(ids.count - 3) more" : ""
            reasons.append("session\(ids.count == 1 ? "" : "s") \(named)\(more): \(why)")
        }
        // Input problems at warning level or above: each a reason of its own (the first few, one
        // per distinct message), then how many more.
        let serious = diagnostics.filter { $0.severity >= .warning }
        var shown: [String] = []
        var messages: Set<String> = []
        for d in serious where shown.count < 5 {
            guard messages.insert(d.message).inserted else { continue }
            // "file, line n": a joined `file:line:` before the message reads as `name: value` to
            // redaction, and a file named like a credential lost its line and message (probe M).
            let place = d.location.line > 0 ? "\(d.location.file), line \(d.location.line)" : d.location.file
            shown.append("\(place): \(d.message.prefix(200))")
        }
        reasons.append(contentsOf: shown)
        if serious.count > shown.count {
            let more = serious.count - shown.count
            reasons.append(
                "\(more) more input problem\(more == 1 ? "" : "s") at warning level or above (see the diagnostics)")
        }
        if inputs.allSatisfy({ $0.records == 0 }) {
            let notRead = inputs.compactMap { i in i.notRead.map { "\(i.path): \($0.reason)" } }
            var why = "nothing playback-related was read"
            if inputs.isEmpty {
                why += " (no files)"
            } else if !notRead.isEmpty {
                why += " (" + notRead.prefix(5).joined(separator: "; ") + (notRead.count > 5 ? "; …" : "") + ")"
            }
            return BundleVerdict(status: .nothingRead, couldNotJudge: [why] + reasons)
        }
        // Records read but no session built (narrowing that left none says so as a caveat): a
        // bundle of server logs alone holds other viewers' rows and never a playback of its own,
        // so nothing playback-related was read; anything else could not be judged.
        if sessions.isEmpty, narrowedAway == nil {
            let read = inputs.reduce(0) { $0 + $1.records }
            if serverRows > 0, serverRows >= read {
                let why =
                    "nothing playback-related was read: the files read are server logs (\(serverRows) row\(serverRows == 1 ? "" : "s")), whose rows are joined to a player's requests and never make a playback session of their own (give them with --cdn-logs beside the player's logs)"
                return BundleVerdict(status: .nothingRead, couldNotJudge: [why] + reasons)
            }
            let why =
                "no playback session could be built from the \(read) record\(read == 1 ? "" : "s") read (see the diagnostics)"
            return BundleVerdict(status: .couldNotJudge, couldNotJudge: [why] + reasons)
        }
        if sessions.contains(where: { ($0.worstSeverity ?? .info) >= .warning }) {
            return BundleVerdict(status: .problemsFound, couldNotJudge: reasons)
        }
        return BundleVerdict(status: reasons.isEmpty ? .noProblemFound : .couldNotJudge, couldNotJudge: reasons)
    }
}
