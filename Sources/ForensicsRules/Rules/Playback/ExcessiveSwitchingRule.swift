import ForensicsCore

/// `excessive-switching`: more variant switches than the threshold within a minute of playback.
package struct ExcessiveSwitchingRule: Rule {
    package struct Options: RuleOptions {
        package var maxPerMinute: Int = 4

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .count("max-per-minute", \.maxPerMinute, "more switches than this within any 60 s is oscillation")
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "excessive-switching", name: "Excessive Switching",
        summary: "The player switched variants more often than the threshold per minute (oscillation).",
        rationale: """
            Frequent up and down switches are visible as quality pumping and often come with \
            stalls; they point at a bitrate ladder with steps too close together, variant bitrates \
            declared lower than real, or an unstable network.
            """,
        kind: .playback, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "access log only: the indicated bitrate alternates between two variants every 10 s for 2 minutes",
                files: [
                    ExampleFixtures.accessLog(
                        (0..<12).map { k in
                            ExampleFixtures.accessRow(
                                at: k * 10, uri: "https://cdn.example.com/a/v\(k % 2 == 0 ? 8 : 4)/index.m3u8",
                                watched: 10, observed: 6_000_000, indicated: k % 2 == 0 ? 8_000_000 : 4_000_000,
                                startup: k == 0 ? 0.8 : nil, anchor: k == 1)
                        })
                ]),
            RuleExample(
                "five switches in 40 s",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 switch 8M -> 4M ◀
                    20.00 switch 4M -> 8M
                    30.00 switch 8M -> 4M
                    40.00 switch 4M -> 8M
                    50.00 switch 8M -> 4M
                    """),
            RuleExample(
                "six quick switches",
                timeline: """
                    0.700 initial-ltku variant=8M
                    100.0 switch 8M -> 6M ◀
                    101.0 switch 6M -> 4M
                    102.0 switch 4M -> 6M
                    103.0 switch 6M -> 8M
                    104.0 switch 8M -> 6M
                    105.0 switch 6M -> 4M
                    """),
            RuleExample(
                "the player's summary alone: 30 switches in 92 s of playback",
                timeline: """
                    0.700 initial-ltku variant=8M
                    93.00 summary stalls=0 switches=30 duration=92 ◀
                    """),
            RuleExample(
                "access log only: six switches within a minute, then an hour of calm",
                files: [
                    ExampleFixtures.accessLog(
                        (0..<7).map { k in
                            ExampleFixtures.accessRow(
                                at: k * 10, uri: "https://cdn.example.com/a/v\(k % 2 == 0 ? 8 : 4)/index.m3u8",
                                watched: k == 6 ? 3600 : 10, observed: 9_000_000,
                                indicated: k % 2 == 0 ? 8_000_000 : 4_000_000, startup: k == 0 ? 0.8 : nil,
                                anchor: k == 1)
                        })
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss, the player's summary alone: 6 switches in 10 minutes",
                timeline: """
                    0.700 initial-ltku variant=8M
                    601.0 summary stalls=0 switches=6 duration=600
                    """),
            RuleExample(
                "near miss, access log only: 4 changes of indicated bitrate in 5 minutes",
                files: [
                    ExampleFixtures.accessLog(
                        (0..<5).map { k in
                            ExampleFixtures.accessRow(
                                at: k * 60, uri: "https://cdn.example.com/a/v\(k % 2 == 0 ? 8 : 4)/index.m3u8",
                                watched: 60, observed: 9_000_000, indicated: k % 2 == 0 ? 8_000_000 : 4_000_000,
                                startup: k == 0 ? 0.8 : nil)
                        })
                ]),
            RuleExample(
                "near miss: four switches in a minute",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 switch 8M -> 4M
                    20.00 switch 4M -> 8M
                    30.00 switch 8M -> 4M
                    40.00 switch 4M -> 8M
                    """),
            RuleExample(
                "five switches spread over five minutes",
                timeline: """
                    0.700 initial-ltku variant=8M
                    60.00 switch 8M -> 4M
                    120.0 switch 4M -> 8M
                    180.0 switch 8M -> 4M
                    240.0 switch 4M -> 8M
                    300.0 switch 8M -> 4M
                    """),
        ])

    /// The advice of every finding of the rule, whichever source showed the switches.
    static let advice =
        "Check the bitrate ladder (steps at least 1.5× apart), that declared BANDWIDTH matches the real peak bitrate, and the viewer's network stability."

    package func findings(in session: Session) -> [Finding] {
        let switches = session.entries.filter { e in
            guard let p = e.record.playerEvent else { return false }
            return p.kind == .variantSwitch && p.didSucceed != false && e.time != nil
        }
        if switches.isEmpty, let fromRows = fromAccessLog(session) { return fromRows }
        if switches.isEmpty, let fromSummary = fromSummary(session) { return fromSummary }
        var out: [Finding] = []
        var i = 0
        while i < switches.count {
            guard let t0 = switches[i].time else { break }
            var j = i
            while j + 1 < switches.count, let t = switches[j + 1].time, t - t0 < 60 { j += 1 }
            let count = j - i + 1
            if count > options.maxPerMinute {
                let group = Array(switches[i...j])
                out.append(
                    finding(
                        start: t0, end: group.last?.time,
                        title: "\(count) variant switches within a minute",
                        details: ["switches": .integer(count), "threshold_per_minute": .integer(options.maxPerMinute)],
                        evidence: group.map(Finding.Evidence.init),
                        advice:
                            Self.advice
                    ))
                i = j + 1
            } else {
                i += 1
            }
        }
        return out
    }

    /// From the player's playback summary alone (its `variantSwitchCount` over its
    /// `playbackDuration`), when no switch event is timed: the rate over the whole playback, as
    /// from an access log; nil without a summary that states both.
    func fromSummary(_ session: Session) -> [Finding]? {
        // The last summary, looked for from the end (a summary closes the playback).
        var found: (Int, PlaybackSummary)?
        for i in session.entries.indices.reversed() {
            if case .summary(let s) = session.entries[i].record.payload {
                found = (i, s)
                break
            }
        }
        guard let (index, summary) = found, let count = summary.variantSwitchCount,
            let played = summary.playbackDuration, played > 0
        else { return nil }
        let minutes = max(1, played / 60)
        let rate = Double(count) / minutes
        guard count > options.maxPerMinute, rate > Double(options.maxPerMinute) else { return [] }
        return [
            finding(
                start: session.start, end: session.entries[index].time,
                title:
                    "\(count) variant switches in \(NumberFormat.seconds(played)) of playback (\(NumberFormat.trimmed(rate, decimals: 1)) a minute)",
                explanation:
                    "read from the player's playback summary: it counts the switches but does not time them, so the rate is over the whole playback",
                details: [
                    "switches": .integer(count), "watched_seconds": .seconds(played),
                    "switches_per_minute": .number((rate * 10).rounded() / 10),
                    "threshold_per_minute": .integer(options.maxPerMinute),
                ],
                evidence: [Finding.Evidence(session, index)],
                advice:
                    Self.advice
            )
        ]
    }

    /// From AVPlayer's access log alone (rules.md): each row is one stretch at one indicated
    /// bitrate, so a change of `sc-indicated-bitrate` between rows is a switch; the rate is the
    /// switches over the minutes watched. Nil when the session has no access-log rows.
    func fromAccessLog(_ session: Session) -> [Finding]? {
        var rows: [(index: Int, indicated: Double, watched: Double?)] = []
        for (i, e) in session.entries.enumerated() {
            guard case .accessLog(let a) = e.record.payload, let indicated = a.indicatedBitrate, indicated > 0 else {
                continue
            }
            rows.append((i, indicated, a.durationWatched))
        }
        guard !rows.isEmpty else { return nil }
        var switchRows: [Int] = []
        for k in rows.indices.dropFirst() where rows[k].indicated != rows[k - 1].indicated {
            switchRows.append(rows[k].index)
        }
        let watched = rows.reduce(0.0) { $0 + max(0, $1.watched ?? 0) }
        // Less than a minute watched: the rate over one minute, so a short session is not
        // judged on an extrapolated rate.
        let minutes = max(1, watched / 60)
        let rate = Double(switchRows.count) / minutes
        // A burst inside a long session: the rows' start times date the switches, and more
        // than the threshold within any 60 s is oscillation however long the rest played calmly
        // (probe L: 12 switches in 2 minutes of a 5-hour log were diluted away).
        let times = switchRows.compactMap { session.entries[$0].time?.secondsSince1970 }.sorted()
        var burst = 0
        var from = 0
        for to in times.indices {
            while times[to] - times[from] >= 60 { from += 1 }
            burst = max(burst, to - from + 1)
        }
        guard switchRows.count > options.maxPerMinute,
            rate > Double(options.maxPerMinute) || burst > options.maxPerMinute
        else { return [] }
        let first = switchRows.first.flatMap { session.entries[$0].time }
        let last = switchRows.last.flatMap { session.entries[$0].time }
        return [
            finding(
                start: first, end: last,
                title: rate > Double(options.maxPerMinute)
                    ? "\(switchRows.count) variant switches in \(NumberFormat.seconds(watched)) watched (\(NumberFormat.trimmed(rate, decimals: 1)) a minute)"
                    : "\(burst) variant switches within a minute (\(switchRows.count) in \(NumberFormat.seconds(watched)) watched)",
                explanation:
                    "read from the access log: each row is one stretch at one indicated bitrate, and the indicated bitrate changed \(switchRows.count) times",
                details: [
                    "switches": .integer(switchRows.count), "watched_seconds": .seconds(watched),
                    "switches_per_minute": .number((rate * 10).rounded() / 10),
                    "most_in_a_minute": .integer(burst), "threshold_per_minute": .integer(options.maxPerMinute),
                ],
                evidence: switchRows.prefix(30).map { Finding.Evidence(session, $0) },
                advice:
                    Self.advice
            )
        ]
    }
}
