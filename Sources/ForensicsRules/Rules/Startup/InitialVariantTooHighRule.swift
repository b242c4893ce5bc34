import ForensicsCore

/// `initial-variant-too-high`: the first variant played needs more bandwidth than the network
/// delivered at startup.
package struct InitialVariantTooHighRule: Rule {
    package struct Options: RuleOptions {
        package var tolerance: Double = 1.0
        /// What an access-log row must have downloaded for its observed bitrate to count (rules.md).
        package var minimumDownloadedSeconds: Double = 2
        package var minimumBytes: Int = 256 << 10

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .factor(
                    "tolerance", \.tolerance, "flag when first-variant bandwidth > tolerance × observed throughput"),
                .seconds(
                    "minimum-downloaded-seconds", \.minimumDownloadedSeconds,
                    "an access-log row's throughput counts only when it downloaded at least this much media"),
                .count(
                    "minimum-bytes", \.minimumBytes,
                    "an access-log row's throughput counts only when it transferred at least this many bytes"),
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "initial-variant-too-high", name: "Initial Variant Too High",
        summary: "The first variant played needs more bandwidth than the session's observed throughput at startup.",
        rationale: """
            AVFoundation starts with the first variant listed in the multivariant playlist. When that \
            variant is above what the network delivers, the first segments download slowly, startup \
            is long and an early down-switch or stall follows.
            """,
        kind: .startup, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "20 Mbit/s first variant over a 4 Mbit/s network",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.150 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v20/s1.ts 200 3.000 dur=2 bytes=1500000
                    3.400 initial-ltku variant=20M ◀
                    """),
            RuleExample(
                "first variant listed is 8 Mbit/s, network 2 Mbit/s",
                files: [
                    .init(
                        "events.timeline",
                        """
                        0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                        0.300 segment https://cdn.example.com/a/v8/s1.ts 200 2.000 dur=2 bytes=500000
                        2.400 initial-ltku ◀
                        """),
                    .init(
                        "master.m3u8",
                        """
                        #EXTM3U
                        #EXT-X-STREAM-INF:BANDWIDTH=8000000
                        v8/index.m3u8
                        #EXT-X-STREAM-INF:BANDWIDTH=1000000
                        v1/index.m3u8
                        """),
                ]),
            RuleExample(
                "access log only: the first row plays 20 Mbit/s while 6 Mbit/s was observed",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v20/index.m3u8", watched: 60, observed: 6_000_000,
                            indicated: 20_000_000, startup: 1.4, anchor: true),
                        ExampleFixtures.accessRow(
                            at: 61, uri: "https://cdn.example.com/a/v5/index.m3u8", watched: 300, observed: 6_500_000,
                            indicated: 5_000_000),
                    ])
                ]),
            RuleExample(
                "HAR capture only: first variant 20 Mbit/s, its first segment arrived at 6 Mbit/s",
                files: [
                    ExampleFixtures.har([
                        ExampleFixtures.HAREntry(
                            at: 0, url: "https://cdn.example.com/a/master.m3u8",
                            body: ExampleFixtures.multivariant([
                                (20_000_000, "v20/index.m3u8"), (5_000_000, "v5/index.m3u8"),
                            ])),
                        ExampleFixtures.HAREntry(
                            at: 0.2, url: "https://cdn.example.com/a/v20/index.m3u8",
                            body: ExampleFixtures.mediaPlaylist(["s1.m4s", "s2.m4s"]), anchor: true),
                        ExampleFixtures.HAREntry(
                            at: 0.4, url: "https://cdn.example.com/a/v20/s1.m4s", seconds: 4.0, bytes: 3_000_000),
                    ])
                ]),
            RuleExample(
                "HAR capture only, bodies not kept (content.size 0): the bytes on the wire are the response's bodySize",
                files: [
                    ExampleFixtures.har([
                        ExampleFixtures.HAREntry(
                            at: 0, url: "https://cdn.example.com/a/master.m3u8",
                            body: ExampleFixtures.multivariant([
                                (20_000_000, "v20/index.m3u8"), (5_000_000, "v5/index.m3u8"),
                            ])),
                        ExampleFixtures.HAREntry(
                            at: 0.2, url: "https://cdn.example.com/a/v20/index.m3u8",
                            body: ExampleFixtures.mediaPlaylist(["s1.m4s", "s2.m4s"]), anchor: true),
                        ExampleFixtures.HAREntry(
                            at: 0.4, url: "https://cdn.example.com/a/v20/s1.m4s", seconds: 4.0, bytes: 3_000_000,
                            contentSize: 0),
                        ExampleFixtures.HAREntry(
                            at: 4.5, url: "https://cdn.example.com/a/v20/s2.m4s", seconds: 4.0, bytes: 3_000_000,
                            contentSize: 0),
                    ])
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: a progressive (FILE) playback whose first row downloaded 2 bytes in no time",
                files: [
                    RuleExample.File(
                        "access.log",
                        ExampleFixtures.accessLog([
                            ExampleFixtures.accessRow(
                                at: 0, uri: "https://cdn.example.com/a/movie.mp4", watched: 0, observed: 12_000,
                                indicated: 2_200_000, startup: 0.4)
                        ]).text.replacingOccurrences(of: " VOD ", with: " FILE "))
                ]),
            RuleExample(
                "near miss: the first row is a probe (2 bytes, nothing downloaded), the next rows keep up",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v20/index.m3u8", watched: 0, observed: 12_000,
                            indicated: 2_200_000, startup: 0.4),
                        ExampleFixtures.accessRow(
                            at: 1, uri: "https://cdn.example.com/a/v20/index.m3u8", watched: 120, observed: 9_000_000,
                            indicated: 2_200_000),
                    ])
                ]),
            RuleExample(
                "network faster than the first variant",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v5/s1.ts 200 0.500 dur=2 bytes=1500000
                    0.900 initial-ltku variant=5M
                    """),
            RuleExample(
                "near miss: 5 Mbit/s variant, 5.2 Mbit/s observed",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.300 segment https://cdn.example.com/a/v5/s1.ts 200 1.000 dur=2 bytes=650000
                    1.400 initial-ltku variant=5M
                    """),
            RuleExample(
                "near miss: access log only, the first row plays 5 Mbit/s and 6 Mbit/s was observed",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v5/index.m3u8", watched: 60, observed: 6_000_000,
                            indicated: 5_000_000, startup: 1.4)
                    ])
                ]),
            RuleExample(
                "near miss: HAR capture only, the first segment arrived at 120 Mbit/s",
                files: [
                    ExampleFixtures.har([
                        ExampleFixtures.HAREntry(
                            at: 0, url: "https://cdn.example.com/a/master.m3u8",
                            body: ExampleFixtures.multivariant([
                                (20_000_000, "v20/index.m3u8"), (5_000_000, "v5/index.m3u8"),
                            ])),
                        ExampleFixtures.HAREntry(
                            at: 0.2, url: "https://cdn.example.com/a/v20/index.m3u8",
                            body: ExampleFixtures.mediaPlaylist(["s1.m4s", "s2.m4s"])),
                        ExampleFixtures.HAREntry(
                            at: 0.4, url: "https://cdn.example.com/a/v20/s1.m4s", seconds: 1.0, bytes: 15_000_000),
                    ])
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        guard let end = session.analysis.startupEnd else {
            // No player events: decide from the access log, else from the captured requests.
            return fromAccessLog(session) ?? fromRequests(session) ?? []
        }
        let ltku = session.entries[end.index].record.playerEvent
        var variantBandwidth = ltku?.variant?.bandwidth
        var variantSource = "the first likely-to-keep-up event"
        if variantBandwidth == nil, let first = session.multivariantSnapshot?.variants.first?.bandwidth {
            variantBandwidth = first
            variantSource = "the first variant of the multivariant playlist"
        }
        guard let bandwidth = variantBandwidth else { return [] }
        // Observed throughput: bytes of the segments downloaded during startup over their time.
        var bits = 0.0
        var intervals: [(Double, Double)] = []
        var evidence: [Finding.Evidence] = []
        for item in session.requestEntries where item.request.kind == .segment {
            guard let s = item.entry.time, s <= end.time, let f = item.entry.endTime, let bytes = item.request.bytes,
                bytes > 2
            else { continue }
            bits += Double(bytes) * 8
            intervals.append((s.secondsSince1970, f.secondsSince1970))
            evidence.append(item.evidence)
        }
        let seconds = unionLength(intervals)
        var observed: Double?
        if seconds > 0 { observed = bits / seconds }
        if observed == nil {
            observed =
                session.entries.lazy.compactMap { e -> Double? in
                    if case .accessLog(let a) = e.record.payload { return a.observedBitrate }
                    return nil
                }.first
        }
        guard let throughput = observed, throughput > 0, bandwidth > throughput * options.tolerance else { return [] }
        evidence.append(Finding.Evidence(session, end.index))
        return [
            finding(
                start: session.analysis.startupBegin?.time, end: end.time,
                title:
                    "Started on a \(BitRateFormat.text(bandwidth)) variant while the network delivered \(BitRateFormat.text(throughput))",
                details: [
                    "first_variant_bandwidth": .number(bandwidth), "observed_throughput": .number(throughput.rounded()),
                    "variant_source": .string(variantSource),
                ],
                evidence: evidence,
                subject: Finding.Subject(variantBandwidth: Finding.Subject.bandwidth(bandwidth)),
                advice:
                    "List a moderate variant first in the multivariant playlist (AVFoundation starts with the first one), or set preferredPeakBitRate from the previous session's observed bitrate."
            )
        ]
    }

    /// Access log alone: the first row's indicated bitrate (the variant played first) above the
    /// throughput observed in that row — or, when that row is short (under 10 s watched, too few
    /// requests to measure), above the next rows' observed throughput.
    func fromAccessLog(_ session: Session) -> [Finding]? {
        let rows = session.entries.indices.compactMap { i -> (Int, AVPlayerAccessLogEntry)? in
            if case .accessLog(let a) = session.entries[i].record.payload { return (i, a) }
            return nil
        }
        guard let (firstIndex, first) = rows.first, let indicated = first.indicatedBitrate, indicated > 0 else {
            return rows.isEmpty ? nil : []
        }
        // HLS only: a progressive (`FILE`) playback has no variants to start too high on.
        if rows.contains(where: { Self.isProgressive($0.1) }) { return [] }
        // The throughput must come from enough data to mean something (rules.md): the first row
        // if it downloaded at least `minimumDownloadedSeconds` and `minimumBytes`, else the next
        // rows that did; a probe or a row with nothing downloaded is no evidence.
        var used = [firstIndex]
        var observed: Double?
        if Self.isEvidence(first, options), let o = first.observedBitrate {
            observed = o
        } else {
            let later = rows.dropFirst().prefix(3).filter { Self.isEvidence($0.1, options) }
            guard !later.isEmpty else { return [] }
            let values = later.compactMap(\.1.observedBitrate)
            observed = values.reduce(0, +) / Double(values.count)
            used += later.map(\.0)
        }
        guard let throughput = observed, throughput > 0, indicated > throughput * options.tolerance else { return [] }
        return [
            finding(
                start: session.entries[firstIndex].time, end: session.entries[firstIndex].time,
                title:
                    "Started on a \(BitRateFormat.text(indicated)) variant while the network delivered \(BitRateFormat.text(throughput))",
                details: [
                    "first_variant_bandwidth": .number(indicated), "observed_throughput": .number(throughput.rounded()),
                    "variant_source": .string("the first access-log row's indicated bitrate"),
                ],
                evidence: used.map { Finding.Evidence(session, $0) },
                subject: Finding.Subject(variantBandwidth: Finding.Subject.bandwidth(indicated)),
                advice:
                    "List a moderate variant first in the multivariant playlist (AVFoundation starts with the first one), or set preferredPeakBitRate from the previous session's observed bitrate."
            )
        ]
    }

    /// A capture alone (HAR, proxy): the first media playlist or segment requested belongs to a
    /// variant (by the captured multivariant playlist) whose BANDWIDTH exceeds what the first
    /// segment downloads achieved.
    /// Whether an access-log row downloaded enough to measure throughput by.
    static func isEvidence(_ row: AVPlayerAccessLogEntry, _ options: Options) -> Bool {
        guard let observed = row.observedBitrate, observed > 0, let bytes = row.bytesTransferred,
            bytes >= Int64(options.minimumBytes), let downloaded = Double(row.fields["c-duration-downloaded"] ?? "")
        else { return false }
        return downloaded >= options.minimumDownloadedSeconds
    }

    /// A progressive download: AVPlayer's `s-playback-type` says `FILE`.
    static func isProgressive(_ row: AVPlayerAccessLogEntry) -> Bool {
        row.playbackType?.uppercased() == "FILE"
    }

    func fromRequests(_ session: Session) -> [Finding]? {
        guard let first = session.firstRequestedVariant else { return nil }
        var bits = 0.0
        var intervals: [(Double, Double)] = []
        var evidence = [Finding.Evidence(session, first.index)]
        var lastEnd: Timestamp?
        for item in session.requestEntries where item.request.kind == .segment && !item.request.failed {
            guard let s = item.entry.time, let f = item.entry.endTime, f > s, let bytes = item.request.bytes, bytes > 2
            else { continue }
            bits += Double(min(bytes, 1 << 40)) * 8
            intervals.append((s.secondsSince1970, f.secondsSince1970))
            evidence.append(item.evidence)
            lastEnd = f
            if intervals.count == 3 { break }
        }
        let seconds = unionLength(intervals)
        guard seconds > 0 else { return [] }
        let throughput = bits / seconds
        guard first.bandwidth > throughput * options.tolerance else { return [] }
        return [
            finding(
                start: session.entries[first.index].time, end: lastEnd,
                title:
                    "Started on a \(BitRateFormat.text(first.bandwidth)) variant while the network delivered \(BitRateFormat.text(throughput))",
                details: [
                    "first_variant_bandwidth": .number(first.bandwidth),
                    "observed_throughput": .number(throughput.rounded()),
                    "variant_source": .string("the first media request, by the captured multivariant playlist"),
                ],
                evidence: evidence,
                subject: Finding.Subject(variantBandwidth: Finding.Subject.bandwidth(first.bandwidth)),
                advice:
                    "List a moderate variant first in the multivariant playlist (AVFoundation starts with the first one), or set preferredPeakBitRate from the previous session's observed bitrate."
            )
        ]
    }
}
