import ArgumentParser
import PlaybackForensics

/// `--session`, `--since`, `--until`, `--min-severity`, shared by the commands that report.
struct NarrowingOptions: ParsableArguments {
    @Option(name: .long, help: "Only sessions whose id starts with this (case does not matter), e.g. 6C1D.")
    var session: String?

    @Option(
        name: .long, help: "Only sessions and findings at or after this time (ISO 8601, e.g. 2026-11-21T10:05:00Z).")
    var since: String?

    @Option(name: .long, help: "Only sessions and findings at or before this time (ISO 8601).")
    var until: String?

    @Option(
        name: .long, help: "Only findings at or above this severity (info, warning, error, critical).",
        completion: .list(Severity.allCases.map(\.rawValue)))
    var minSeverity: Severity?

    func narrowing() throws -> ReportNarrowing {
        func time(_ text: String?, _ name: String) throws -> Timestamp? {
            guard let text else { return nil }
            // A date alone (`2026-11-21`, valid ISO 8601) is that day's start in UTC; `--until`
            // with a date alone reaches to the day's end.
            if text.count == 10, let day = TimestampParser.parse(text + "T00:00:00Z", defaultOffsetSeconds: 0) {
                return name == "until" ? day + 86_399.999 : day
            }
            guard let t = TimestampParser.parse(text, defaultOffsetSeconds: 0) else {
                throw ValidationError("invalid --\(name) '\(text)' (use ISO 8601, e.g. 2026-11-21T10:05:00Z)")
            }
            return t
        }
        let n = ReportNarrowing(
            sessionPrefix: session, since: try time(since, "since"), until: try time(until, "until"),
            minimumSeverity: minSeverity)
        if let a = n.since, let b = n.until, a > b { throw ValidationError("--since is after --until") }
        return n
    }
}
