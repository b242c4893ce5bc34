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
        ],
        nonTriggeringExamples: [
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

    package func findings(in session: Session) -> [Finding] {
        let switches = session.entries.filter { e in
            guard let p = e.record.playerEvent else { return false }
            return p.kind == .variantSwitch && p.didSucceed != false && e.time != nil
        }
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
                            "Check the bitrate ladder (steps at least 1.5× apart), that declared BANDWIDTH matches the real peak bitrate, and the viewer's network stability."
                    ))
                i = j + 1
            } else {
                i += 1
            }
        }
        return out
    }
}
