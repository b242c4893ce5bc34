import ForensicsCore

/// `slow-segment-download`: consecutive segments downloading slower than real time.
package struct SlowSegmentDownloadRule: Rule {
    package struct Options: RuleOptions {
        package var consecutive: Int = 3

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .count("consecutive", \.consecutive, "how many slow segments in a row make a finding")
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "slow-segment-download", name: "Slow Segment Download",
        summary: "Segments took longer to download than their duration, several in a row.",
        rationale: """
            A segment that downloads slower than it plays drains the buffer; a run of them ends in a \
            stall or a down-switch. The URLs and hosts show whether one CDN edge is slow.
            """,
        kind: .playback, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "three 6 s segments taking 7–8 s each",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://cdn.example.com/a/v8/s2.ts 200 7.0 dur=6 ◀
                    17.00 segment https://cdn.example.com/a/v8/s3.ts 200 8.0 dur=6
                    25.00 segment https://cdn.example.com/a/v8/s4.ts 200 7.5 dur=6
                    """),
            RuleExample(
                "four slow 2 s segments",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://cdn.example.com/a/v8/s2.ts 200 2.5 dur=2 ◀
                    12.50 segment https://cdn.example.com/a/v8/s3.ts 200 2.5 dur=2
                    15.00 segment https://cdn.example.com/a/v8/s4.ts 200 2.5 dur=2
                    17.50 segment https://cdn.example.com/a/v8/s5.ts 200 2.5 dur=2
                    """),
            RuleExample(
                "HAR capture only: three 6 s segments of the captured media playlist taking 7 s each",
                files: [
                    ExampleFixtures.har([
                        ExampleFixtures.HAREntry(
                            at: 0, url: "https://cdn.example.com/a/v8/index.m3u8",
                            body: ExampleFixtures.mediaPlaylist(["s1.ts", "s2.ts", "s3.ts", "s4.ts"])),
                        ExampleFixtures.HAREntry(
                            at: 0.1, url: "https://cdn.example.com/a/v8/s1.ts", seconds: 7, bytes: 6_000_000,
                            anchor: true),
                        ExampleFixtures.HAREntry(
                            at: 7.1, url: "https://cdn.example.com/a/v8/s2.ts", seconds: 7, bytes: 6_000_000),
                        ExampleFixtures.HAREntry(
                            at: 14.1, url: "https://cdn.example.com/a/v8/s3.ts", seconds: 7, bytes: 6_000_000),
                    ])
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: a fast segment breaks the run",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://cdn.example.com/a/v8/s2.ts 200 7.0 dur=6
                    17.00 segment https://cdn.example.com/a/v8/s3.ts 200 8.0 dur=6
                    25.00 segment https://cdn.example.com/a/v8/s4.ts 200 5.9 dur=6
                    31.00 segment https://cdn.example.com/a/v8/s5.ts 200 7.0 dur=6
                    """),
            RuleExample(
                "near miss, HAR capture only: the same segments in 5 s each",
                files: [
                    ExampleFixtures.har([
                        ExampleFixtures.HAREntry(
                            at: 0, url: "https://cdn.example.com/a/v8/index.m3u8",
                            body: ExampleFixtures.mediaPlaylist(["s1.ts", "s2.ts", "s3.ts", "s4.ts"])),
                        ExampleFixtures.HAREntry(
                            at: 0.1, url: "https://cdn.example.com/a/v8/s1.ts", seconds: 5, bytes: 6_000_000),
                        ExampleFixtures.HAREntry(
                            at: 5.1, url: "https://cdn.example.com/a/v8/s2.ts", seconds: 5, bytes: 6_000_000),
                        ExampleFixtures.HAREntry(
                            at: 10.1, url: "https://cdn.example.com/a/v8/s3.ts", seconds: 5, bytes: 6_000_000),
                    ])
                ]),
            RuleExample(
                "fast segments",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://cdn.example.com/a/v8/s2.ts 200 1.0 dur=6
                    17.00 segment https://cdn.example.com/a/v8/s3.ts 200 1.0 dur=6
                    25.00 segment https://cdn.example.com/a/v8/s4.ts 200 1.0 dur=6
                    """),
        ])

    package func findings(in session: Session) -> [Finding] {
        var out: [Finding] = []
        var run: [(TimelineEntry, Double, Double)] = []
        func flush() {
            if run.count >= options.consecutive, let first = run.first {
                let worst = run.map { $0.1 / $0.2 }.max() ?? 0
                out.append(
                    finding(
                        start: first.0.time, end: run.last?.0.endTime,
                        title:
                            "\(run.count) segments in a row downloaded slower than real time (worst \(NumberFormat.trimmed(worst, decimals: 2))× their duration)",
                        details: [
                            "segments": .integer(run.count), "worst_ratio": .number((worst * 100).rounded() / 100),
                        ],
                        evidence: run.map { Finding.Evidence($0.0) },
                        advice:
                            "The network or CDN edge could not sustain this variant: check the host's throughput, and make sure lower variants exist for such networks."
                    ))
            }
            run = []
        }
        // A capture without player events (a HAR) knows segment durations from the media
        // playlists it captured.
        let captured = SegmentDurations(session)
        for item in session.requestEntries where item.request.kind == .segment {
            guard let r = session.mergedRequest(item.entry), !r.failed, let d = r.duration,
                let sd = r.segmentDuration ?? captured.duration(of: r.url), sd > 0
            else { continue }
            // A load the client gave up (a seek, a player abandoning a slow fragment): longer than
            // its segment plays, it was slower than real time all the same; shorter, it shows
            // nothing either way — no fast download to end a slow run.
            if r.error?.isCancellation == true {
                if d > sd { run.append((item.entry, d, sd)) }
                continue
            }
            if d > sd { run.append((item.entry, d, sd)) } else { flush() }
        }
        flush()
        return out
    }
}
