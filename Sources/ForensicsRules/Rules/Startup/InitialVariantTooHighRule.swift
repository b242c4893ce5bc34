import ForensicsCore

/// `initial-variant-too-high`: the first variant played needs more bandwidth than the network
/// delivered at startup.
public struct InitialVariantTooHighRule: Rule {
    public struct Options: Codable, Sendable, Equatable {
        /// The first variant's bandwidth may exceed the observed throughput by this factor.
        public var tolerance: Double = 1.0
        enum CodingKeys: String, CodingKey { case tolerance }
    }

    public static let defaultOptions = Options()
    public static let optionDocs = ["tolerance": "flag when first-variant bandwidth > tolerance × observed throughput (1.0)"]
    public let options: Options
    public init(options: Options) { self.options = options }

    public static let description = RuleDescription(
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
                    .init("events.timeline", """
                        0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                        0.300 segment https://cdn.example.com/a/v8/s1.ts 200 2.000 dur=2 bytes=500000
                        2.400 initial-ltku ◀
                        """),
                    .init("master.m3u8", """
                        #EXTM3U
                        #EXT-X-STREAM-INF:BANDWIDTH=8000000
                        v8/index.m3u8
                        #EXT-X-STREAM-INF:BANDWIDTH=1000000
                        v1/index.m3u8
                        """),
                ]),
        ],
        nonTriggeringExamples: [
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
        ])

    public func findings(in session: Session) -> [Finding] {
        guard let end = session.startupEnd else { return [] }
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
                bytes > 0
            else { continue }
            bits += Double(bytes) * 8
            intervals.append((s.secondsSince1970, f.secondsSince1970))
            evidence.append(Finding.Evidence(item.entry))
        }
        let seconds = unionLength(intervals)
        var observed: Double?
        if seconds > 0 { observed = bits / seconds }
        if observed == nil {
            observed = session.entries.lazy.compactMap { e -> Double? in
                if case .accessLog(let a) = e.record.payload { return a.observedBitrate }
                return nil
            }.first
        }
        guard let throughput = observed, throughput > 0, bandwidth > throughput * options.tolerance else { return [] }
        evidence.append(Finding.Evidence(session.entries[end.index]))
        return [
            finding(
                start: session.startupBegin?.time, end: end.time,
                title: "Started on a \(BitRateFormat.text(bandwidth)) variant while the network delivered \(BitRateFormat.text(throughput))",
                details: [
                    "first_variant_bandwidth": .number(bandwidth), "observed_throughput": .number(throughput.rounded()),
                    "variant_source": .string(variantSource),
                ],
                evidence: evidence,
                advice: "List a moderate variant first in the multivariant playlist (AVFoundation starts with the first one), or set preferredPeakBitRate from the previous session's observed bitrate.")
        ]
    }
}
