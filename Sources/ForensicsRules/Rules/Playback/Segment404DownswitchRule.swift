import ForensicsCore

/// `segment-404-downswitch`: HTTP 404/410 on media segments followed by a switch to a lower variant.
package struct Segment404DownswitchRule: Rule {
    package struct Options: RuleOptions {
        package var windowSeconds: Double = 10

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .seconds("window-seconds", \.windowSeconds, "how soon after the 404 the down-switch must start")
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "segment-404-downswitch", name: "Segment 404 Down-Switch",
        summary:
            "HTTP 404 (or 410) on a media segment followed, within the window, by a switch to a lower-bandwidth variant.",
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
            RuleExample(
                "access and error logs only: 404 on the 20 Mbit/s variant, the next row at 15 Mbit/s",
                files: ExampleFixtures.cdn404Logs(stallsInLowerRow: 1, anchor: .first404)),
            RuleExample(
                "HAR capture only: 404, then the 15 Mbit/s variant's playlist and segments are requested",
                files: [
                    ExampleFixtures.cdn404HAR(
                        anchor404: true,
                        after: [
                            ExampleFixtures.HAREntry(
                                at: 13.0, url: "https://cdn.example.com/a/v15/index.m3u8",
                                body: ExampleFixtures.cdn404VariantPlaylist),
                            ExampleFixtures.HAREntry(
                                at: 13.2, url: "https://cdn.example.com/a/v15/s3.m4s", seconds: 0.4, bytes: 11_000_000),
                        ])
                ]),
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
            RuleExample(
                "near miss: access and error logs, the lower row starts 12 s after the 404",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v20/index.m3u8", watched: 444, observed: 110_000_000,
                            indicated: 20_000_000, startup: 0.89),
                        ExampleFixtures.accessRow(
                            at: 456, uri: "https://cdn.example.com/a/v15/index.m3u8", watched: 150,
                            observed: 98_000_000, indicated: 15_000_000),
                    ]),
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(at: 444, uri: "https://cdn.example.com/a/v20/s74.m4s")
                    ]),
                ]),
            RuleExample(
                "near miss: HAR capture only, 404 and the same variant goes on",
                files: [
                    ExampleFixtures.cdn404HAR(after: [
                        ExampleFixtures.HAREntry(
                            at: 13.0, url: "https://cdn.example.com/a/v20/s4.m4s", seconds: 0.5, bytes: 15_000_000)
                    ])
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        // 404/410 on media, one per request however many sources saw it (error-log rows name
        // segment URLs; a row no request explains stands for its request).
        let notFound = session.analysis.failures.filter { f in
            guard f.status == 404 || f.status == 410, f.time != nil else { return false }
            return f.isMedia || f.kind == nil || f.kind == .other
        }
        guard !notFound.isEmpty else { return [] }
        var out: [Finding] = []
        var used: Set<Int> = []
        for sw in session.analysis.variantSwitches ?? [] where sw.isDown {
            let t = sw.time
            let causes = notFound.filter { f in
                guard let ft = f.time, !used.contains(f.index) else { return false }
                return ft <= t && t - ft <= options.windowSeconds
            }
            guard let first = causes.first, let firstTime = first.time else { continue }
            for c in causes { used.insert(c.index) }
            var evidence = causes.flatMap { Finding.Evidence.all(session.entries[$0.index]) }
            // The player's own error events for the same failures.
            for j in (first.index + 1)..<max(first.index + 1, sw.index) {
                if case .error(let err) = session.entries[j].record.payload,
                    err.httpStatus == 404 || err.httpStatus == 410
                {
                    evidence.append(Finding.Evidence(session, j))
                }
            }
            evidence.append(Finding.Evidence(session, sw.index))
            let status = first.status ?? 404
            let how =
                switch sw.basis {
                case .player: ""
                case .accessLog: " (read from the access log: a new row at the lower indicated bitrate)"
                case .requests: " (read from the requests: the next media requests are for the lower variant)"
                }
            out.append(
                finding(
                    start: firstTime, end: max(t, firstTime),
                    title:
                        "HTTP \(status) on media segments forced a switch from \(BitRateFormat.text(sw.from)) to \(BitRateFormat.text(sw.to))",
                    explanation:
                        "\(causes.count) media request\(causes.count == 1 ? "" : "s") got HTTP \(status), then the player switched down\(how)",
                    details: [
                        "from_bandwidth": .number(sw.from), "to_bandwidth": .number(sw.to),
                        "errors": .integer(causes.count),
                        "seconds_to_switch": .seconds(max(0, t - firstTime)), "window": .number(options.windowSeconds),
                        "urls": .strings(causes.compactMap(\.url)), "switch_basis": .string(sw.basis.rawValue),
                    ],
                    evidence: evidence,
                    subject: Finding.Subject(
                        urls: causes.compactMap(\.url), variantBandwidth: Finding.Subject.bandwidth(sw.from)),
                    advice:
                        "Check the origin/packager for the missing segments of the \(BitRateFormat.text(sw.from)) variant (purged, not yet published, or a packaging gap); the down-switch was not caused by the network."
                ))
        }
        return out
    }
}
