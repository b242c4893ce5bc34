import ForensicsCore

/// `segment-404-downswitch`: HTTP 404/410 on media segments followed by a switch to a lower variant.
public struct Segment404DownswitchRule: Rule {
    public struct Options: Codable, Sendable, Equatable {
        public var windowSeconds: Double = 10
        enum CodingKeys: String, CodingKey { case windowSeconds = "window-seconds" }
    }

    public static let defaultOptions = Options()
    public static let optionDocs = ["window-seconds": "how soon after the 404 the down-switch must start (10)"]
    public let options: Options
    public init(options: Options) { self.options = options }

    public static let description = RuleDescription(
        identifier: "segment-404-downswitch", name: "Segment 404 Down-Switch",
        summary: "HTTP 404 (or 410) on a media segment followed, within the window, by a switch to a lower-bandwidth variant.",
        rationale: """
            When a variant's segment is missing, AVPlayer gives up on that variant and switches down, \
            even on a fast network. Viewers see quality drop for no network reason; the cause is on \
            the origin or packager (a missing rendition, a purge, a packaging gap).
            """,
        kind: .playback, defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "404 on the 20 Mbit/s variant, switch to 15 Mbit/s",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v20/s1.ts 200 0.300 dur=6
                    0.700 initial-ltku variant=20M
                    24.00 segment https://cdn.example.com/a/v20/s5.ts 404 0.050 dur=6 ◀
                    24.10 error -12938 "HTTP 404: File Not Found" recovered
                    24.30 switch-start 20M -> 15M
                    25.00 switch 20M -> 15M
                    """),
            RuleExample(
                "410 Gone then a down-switch 8 s later",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=8M
                    30.00 segment https://cdn.example.com/a/v8/s6.ts 410 0.050 dur=6 ◀
                    38.00 switch 8M -> 4M
                    """),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "a down-switch without any error",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=20M
                    24.00 segment https://cdn.example.com/a/v20/s5.ts 200 3.000 dur=6
                    25.00 switch 20M -> 15M
                    """),
            RuleExample(
                "near miss: the switch comes 10.5 s after the 404",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=20M
                    24.00 segment https://cdn.example.com/a/v20/s5.ts 404 0.050 dur=6
                    34.55 switch 20M -> 15M
                    """),
            RuleExample(
                "404 followed by an up-switch",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=15M
                    24.00 segment https://cdn.example.com/a/v15/s5.ts 404 0.050 dur=6
                    25.00 switch 15M -> 20M
                    """),
        ])

    public func findings(in session: Session) -> [Finding] {
        var notFound: [(index: Int, entry: TimelineEntry, time: Timestamp)] = []
        for item in session.failedMediaRequests {
            guard let s = item.request.effectiveStatus, s == 404 || s == 410, let t = item.entry.time else { continue }
            notFound.append((item.index, item.entry, t))
        }
        for item in session.reportedHTTPErrors where item.status == 404 || item.status == 410 {
            guard let t = item.entry.time, case .errorLog = item.entry.record.payload else { continue }
            if !notFound.contains(where: { abs($0.time - t) < 2 }) { notFound.append((item.index, item.entry, t)) }
        }
        notFound.sort { $0.index < $1.index }
        guard !notFound.isEmpty else { return [] }
        var out: [Finding] = []
        var used: Set<Int> = []
        for (i, e) in session.entries.enumerated() {
            guard let p = e.record.playerEvent, p.kind == .variantSwitch, p.didSucceed != false, let t = e.time,
                let from = p.fromVariant?.bandwidth, let to = p.toVariant?.bandwidth, to < from
            else { continue }
            let causes = notFound.filter { !used.contains($0.index) && $0.time <= t && t - $0.time <= options.windowSeconds }
            guard let first = causes.first else { continue }
            for c in causes { used.insert(c.index) }
            var evidence = causes.flatMap { Finding.Evidence.all($0.entry) }
            // The player's own error events for the same failures.
            for (j, other) in session.entries.enumerated() where j > first.index && j < i {
                if case .error(let err) = other.record.payload, err.httpStatus == 404 || err.httpStatus == 410 {
                    evidence.append(Finding.Evidence(other))
                }
            }
            evidence.append(Finding.Evidence(e))
            let status = causes.first.flatMap { session.mergedRequest($0.entry)?.effectiveStatus } ?? 404
            out.append(
                finding(
                    start: first.time, end: t,
                    title: "HTTP \(status) on media segments forced a switch from \(BitRateFormat.text(from)) to \(BitRateFormat.text(to))",
                    details: [
                        "from_bandwidth": .number(from), "to_bandwidth": .number(to), "errors": .integer(causes.count),
                        "seconds_to_switch": .seconds(t - first.time), "window": .number(options.windowSeconds),
                        "urls": .strings(causes.compactMap { session.mergedRequest($0.entry)?.url }),
                    ],
                    evidence: evidence,
                    advice: "Check the origin/packager for the missing segments of the \(BitRateFormat.text(from)) variant (purged, not yet published, or a packaging gap); the down-switch was not caused by the network."
                ))
        }
        return out
    }
}
