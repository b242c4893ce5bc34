import ForensicsCore

/// `slow-startup`: the time from the first request (or play) to the first likely-to-keep-up.
package struct SlowStartupRule: Rule {
    package struct Options: RuleOptions {
        package var warningSeconds: Double = 2.0
        package var errorSeconds: Double = 5.0

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .seconds("warning-seconds", \.warningSeconds, "startup longer than this is a warning"),
                .seconds("error-seconds", \.errorSeconds, "startup longer than this is an error"),
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "slow-startup", name: "Slow Startup",
        summary: "Playback took too long to start, broken down into playlist, key, segment and idle time.",
        rationale: """
            Viewers abandon a video that does not start within a few seconds. The breakdown names the \
            phase that dominated, which tells who must act: the CDN (playlists, segments), the key server \
            (content keys) or the app (idle time before or between requests).
            """,
        kind: .startup, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "a content key dominating a 2 s startup",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100 ◀
                    0.120 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.060
                    0.190 key https://keys.example.com/fps 200 1.465
                    1.660 segment https://cdn.example.com/a/v20/s1.ts 200 0.200 dur=6
                    2.100 initial-ltku variant=20M
                    """),
            RuleExample(
                "slow segments make a 6 s startup an error",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100 ◀
                    0.150 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v20/s1.ts 200 5.500 dur=6
                    6.000 initial-ltku variant=20M
                    """, severity: .error),
            RuleExample(
                "access log only: the first row's startup time is 2.05 s",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v20/index.m3u8", watched: 120, observed: 60_000_000,
                            indicated: 20_000_000, startup: 2.05, anchor: true)
                    ])
                ]),
            RuleExample(
                "two player items in one session: the second one took 7 s to start",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v1/s1.ts 200 0.200 dur=6
                    0.700 initial-ltku variant=5M taken=0.7
                    100.0 multivariant https://cdn.example.com/c/master.m3u8 200 0.100
                    107.0 initial-ltku variant=5M taken=7.0 ◀
                    """),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: two player items in one session, the second started in 1.5 s",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v1/s1.ts 200 0.200 dur=6
                    0.700 initial-ltku variant=5M taken=0.7
                    100.0 multivariant https://cdn.example.com/c/master.m3u8 200 0.100
                    101.5 initial-ltku variant=5M taken=1.5
                    """),
            RuleExample(
                "a quick startup",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.150 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v20/s1.ts 200 0.500 dur=6
                    0.900 initial-ltku variant=20M
                    """),
            RuleExample(
                "near miss: 1.95 s is under the 2 s threshold",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.150 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v20/s1.ts 200 1.500 dur=6
                    1.950 initial-ltku variant=20M
                    """),
            RuleExample(
                "near miss: access log only, startup 1.9 s",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v20/index.m3u8", watched: 120, observed: 60_000_000,
                            indicated: 20_000_000, startup: 1.9)
                    ])
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        firstItem(session) + laterItems(session)
    }

    /// A dump that holds several player items in one session (an app that uploads per app
    /// session: autoplay, a playlist of videos) has an initial likely-to-keep-up per item. The
    /// session's startup is the first item's; each later item's stated startup is judged here,
    /// so a slow second start is not hidden behind a fast first (probe L).
    func laterItems(_ session: Session) -> [Finding] {
        let starts = session.playerItemStarts
        return starts.dropFirst().compactMap { i in
            guard let t = session.entries[i].record.playerEvent?.timeTaken, t > options.warningSeconds else {
                return nil
            }
            return finding(
                severity: t > options.errorSeconds ? .error : .warning,
                start: session.entries[i].time.map { $0 + -t }, end: session.entries[i].time,
                title: "A later item's startup took \(NumberFormat.seconds(t)) (reported by the player)",
                explanation:
                    "the session holds \(starts.count) player items (an initial likely-to-keep-up each); this one's startup is the player's own figure",
                details: [
                    "startup_time": .seconds(t), "warning_threshold": .number(options.warningSeconds),
                    "error_threshold": .number(options.errorSeconds),
                ],
                evidence: [Finding.Evidence(session, i)],
                advice:
                    "Look at this item's requests before its likely-to-keep-up (the timeline around the finding): its playlist, key and first segments."
            )
        }
    }

    func firstItem(_ session: Session) -> [Finding] {
        if let b = session.analysis.startup {
            let total = b.total
            guard total > options.warningSeconds else { return [] }
            let dominant = b.dominant
            let share = total > 0 ? (b.phases[dominant] ?? 0) / total : 0
            var evidence = [Finding.Evidence(session, b.beginIndex)]
            if let i = b.longest[dominant] { evidence.append(Finding.Evidence(session, i)) }
            evidence.append(Finding.Evidence(session, b.endIndex))
            var details: [String: DetailValue] = [
                "startup_time": .seconds(total), "dominant_phase": .string(dominant.rawValue),
                "warning_threshold": .number(options.warningSeconds), "error_threshold": .number(options.errorSeconds),
            ]
            for p in StartupBreakdown.Phase.allCases { details["\(p.rawValue)_time"] = .seconds(b.phases[p]) }
            return [
                finding(
                    severity: total > options.errorSeconds ? .error : .warning, start: b.begin, end: b.end,
                    title:
                        "Startup took \(NumberFormat.seconds(total)) — \(percent(share)) of it \(Self.phaseText(dominant))",
                    details: details, evidence: evidence, advice: Self.advice(dominant))
            ]
        }
        // No timeline endpoints: fall back on the player's own figure (access log, summary).
        let k = session.kpis
        guard let t = k.startupTime, t > options.warningSeconds else { return [] }
        let evidence =
            session.entries.first { e in
                if case .accessLog = e.record.payload { return true }
                if case .summary = e.record.payload { return true }
                return false
            }.map { [Finding.Evidence($0)] } ?? []
        return [
            finding(
                severity: t > options.errorSeconds ? .error : .warning, start: session.start, end: nil,
                title:
                    "Startup took \(NumberFormat.seconds(t)) (reported by \(k.provenance[.startupTime]?.rawValue ?? "the player"); no request timeline to break it down)",
                details: [
                    "startup_time": .seconds(t),
                    "missing_sources": .strings(session.missingSources([.metricEvents, .har])),
                ],
                evidence: evidence,
                advice:
                    "Capture metric events or a HAR to see which phase dominated; see the general startup advice in the rule documentation."
            )
        ]
    }

    static func phaseText(_ p: StartupBreakdown.Phase) -> String {
        switch p {
        case .playlist: "waiting for playlists"
        case .key: "waiting for the content key"
        case .segment: "downloading the first segments"
        case .idle: "with no request in flight"
        }
    }

    static func advice(_ p: StartupBreakdown.Phase) -> String {
        switch p {
        case .playlist:
            "Speed up playlist delivery: serve playlists gzip-compressed from a CDN edge close to viewers, avoid redirects, and keep the multivariant playlist small."
        case .key:
            "Speed up the key server, and fetch keys before they are needed: declare EXT-X-SESSION-KEY in the multivariant playlist and set preloadsEligibleContentKeys on the content key session."
        case .segment:
            "Start on a lower variant (list a moderate variant first), use shorter first segments, and check CDN throughput for the first segments."
        case .idle:
            "Time passed with no request in flight: look at the app (asset loading, DRM setup, waiting for user interface) before and between the player's requests."
        }
    }
}
