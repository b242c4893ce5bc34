import ForensicsCore

/// `slow-key-fetch`: a content-key request that is slow, or that dominates startup.
package struct SlowKeyFetchRule: Rule {
    package struct Options: RuleOptions {
        package var slowSeconds: Double = 0.5
        package var startupShare: Double = 0.4
        /// A share of startup only matters in a startup that was itself slow: a 0.2 s key in a
        /// 0.45 s startup is no incident (rules.md).
        package var shareOfStartupOver: Double = 1.0

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .seconds("slow-seconds", \.slowSeconds, "a key request longer than this is slow"),
                .ratio(
                    "startup-share", \.startupShare, "a key request taking more than this share of startup dominates it"
                ),
                .seconds(
                    "share-of-startup-over", \.shareOfStartupOver,
                    "the share counts only in a startup that took longer than this"),
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "slow-key-fetch", name: "Slow Content-Key Fetch",
        summary: "A content-key (DRM/AES key) request was slow, or took most of the startup time.",
        rationale: """
            Encrypted streams cannot play a frame before the key arrives, so a slow key server adds its \
            whole latency to startup and to every key rotation. Keys can be fetched before they are \
            needed when the multivariant playlist declares them with EXT-X-SESSION-KEY.
            """,
        kind: .startup, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "a 1.47 s key request in a 2 s startup",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.120 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.060
                    0.190 key https://keys.example.com/fps 200 1.465 ◀
                    1.660 segment https://cdn.example.com/a/v20/s1.ts 200 0.200 dur=6
                    1.920 initial-ltku variant=20M
                    """),
            RuleExample(
                "a slow key rotation during playback",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.150 key https://keys.example.com/fps 200 0.100
                    0.300 segment https://cdn.example.com/a/v20/s1.ts 200 0.300 dur=6
                    0.700 initial-ltku variant=20M
                    60.00 key https://keys.example.com/fps2 200 0.900 ◀
                    """),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "a fast key",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.150 key https://keys.example.com/fps 200 0.120
                    0.300 segment https://cdn.example.com/a/v20/s1.ts 200 0.300 dur=6
                    0.700 initial-ltku variant=20M
                    """),
            RuleExample(
                "near miss: a 0.21 s key, 44 % of a 0.48 s startup (the startup itself was fast)",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.050
                    0.060 key https://keys.example.com/fps 200 0.210
                    0.280 segment https://cdn.example.com/a/v20/s1.ts 200 0.150 dur=6
                    0.480 initial-ltku variant=20M
                    """),
            RuleExample(
                "near miss: 0.45 s key, 36 % of startup",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.150 key https://keys.example.com/fps 200 0.450
                    0.600 segment https://cdn.example.com/a/v20/s1.ts 200 0.600 dur=6
                    1.250 initial-ltku variant=20M
                    """),
        ])

    package func findings(in session: Session) -> [Finding] {
        let startup = session.analysis.startup
        var out: [Finding] = []
        for item in session.requestEntries where item.request.kind == .contentKey {
            guard let d = item.request.duration, let start = item.entry.time else { continue }
            var share: Double?
            if let b = startup, start < b.end, b.total > 0 { share = min(d, b.end - start) / b.total }
            let slowStartup = (startup?.total ?? 0) > options.shareOfStartupOver
            let dominates = slowStartup && (share ?? 0) > options.startupShare
            guard d > options.slowSeconds || dominates else { continue }
            var title = "Content-key request took \(NumberFormat.seconds(d))"
            if let share, let b = startup {
                title += " — \(percent(share)) of the \(NumberFormat.seconds(b.total)) startup"
            }
            var details: [String: DetailValue] = [
                "key_fetch_time": .seconds(d),
                "startup_share": share.map { .number(($0 * 1000).rounded() / 1000) } ?? .null,
                "slow_threshold": .number(options.slowSeconds),
                "share_threshold": .number(options.startupShare),
                "url": .string(item.request.url),
            ]
            var evidence = [item.evidence]
            // With the key server's own row joined: the server, or the way to it.
            let wait = ServerSide.keyWait(session.serverViews(of: item.entry), clientSeconds: d)
            if let wait {
                details["key_wait"] = .string(wait.wait.rawValue)
                evidence.append(Finding.Evidence(serverRow: wait.row))
            }
            out.append(
                finding(
                    start: start, end: item.entry.endTime, title: title, explanation: wait?.sentence,
                    details: details,
                    evidence: evidence,
                    subject: Finding.Subject(url: item.request.url),
                    advice:
                        "Speed up the key server (latency, location, caching of licences). Preload keys: declare EXT-X-SESSION-KEY in the multivariant playlist and set preloadsEligibleContentKeys so the key is fetched while playlists load."
                ))
        }
        return out
    }
}
