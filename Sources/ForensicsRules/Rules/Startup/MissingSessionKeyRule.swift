import ForensicsCore

/// `missing-session-key`: keys fetched during startup, but the multivariant playlist declares no
/// `EXT-X-SESSION-KEY`, so they could not be fetched earlier.
package struct MissingSessionKeyRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "missing-session-key", name: "Missing Session Key",
        summary:
            "Content keys were fetched during startup but the multivariant playlist declares no EXT-X-SESSION-KEY.",
        rationale: """
            With EXT-X-SESSION-KEY in the multivariant playlist, the player (and preloadsEligibleContentKeys) \
            can fetch keys while it still chooses a variant, taking the key round trip off the startup path.
            """,
        kind: .startup, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "key during startup, multivariant playlist without session key",
                files: [
                    .init(
                        "events.timeline",
                        """
                        0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                        0.190 key https://keys.example.com/fps 200 0.300 ◀
                        0.600 segment https://cdn.example.com/a/v20/s1.ts 200 0.200 dur=6
                        0.900 initial-ltku variant=20M
                        """),
                    .init(
                        "master.m3u8",
                        """
                        #EXTM3U
                        #EXT-X-STREAM-INF:BANDWIDTH=20000000,RESOLUTION=3840x2160
                        v20/index.m3u8
                        #EXT-X-STREAM-INF:BANDWIDTH=15000000,RESOLUTION=1920x1080
                        v15/index.m3u8
                        """),
                ]),
            RuleExample(
                "two keys during startup",
                files: [
                    .init(
                        "events.timeline",
                        """
                        0.000 multivariant https://cdn.example.com/b/master.m3u8 200 0.100
                        0.150 key https://keys.example.com/video 200 0.200 ◀
                        0.160 key https://keys.example.com/audio 200 0.200
                        0.500 segment https://cdn.example.com/b/v1/s1.ts 200 0.200 dur=6
                        0.800 initial-ltku variant=5M
                        """),
                    .init(
                        "master.m3u8",
                        """
                        #EXTM3U
                        #EXT-X-STREAM-INF:BANDWIDTH=5000000
                        v1/index.m3u8
                        """),
                ]),
            RuleExample(
                "a capture alone (no player events): the key is requested before the first segment",
                files: [
                    ExampleFixtures.har([
                        .init(
                            at: 0, url: "https://cdn.example.com/c/master.m3u8",
                            body: ExampleFixtures.multivariant([(5_000_000, "v5/index.m3u8")])),
                        .init(
                            at: 0.1, url: "https://cdn.example.com/c/v5/index.m3u8",
                            body:
                                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/c/k1.key\"\n#EXTINF:6.0,\ns1.ts\n#EXT-X-ENDLIST\n"
                        ),
                        .init(at: 0.2, url: "https://keys.example.com/c/k1.key", seconds: 1.5, bytes: 16, anchor: true),
                        .init(at: 1.75, url: "https://cdn.example.com/c/v5/s1.ts", seconds: 0.4, bytes: 900_000),
                    ])
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss, a capture alone: the key is requested after the first segment (rotation)",
                files: [
                    ExampleFixtures.har([
                        .init(
                            at: 0, url: "https://cdn.example.com/c/master.m3u8",
                            body: ExampleFixtures.multivariant([(5_000_000, "v5/index.m3u8")])),
                        .init(
                            at: 0.1, url: "https://cdn.example.com/c/v5/index.m3u8",
                            body: ExampleFixtures.mediaPlaylist(["s1.ts", "s2.ts"])),
                        .init(at: 0.3, url: "https://cdn.example.com/c/v5/s1.ts", seconds: 0.4, bytes: 900_000),
                        .init(at: 30, url: "https://keys.example.com/c/k2.key", seconds: 0.2, bytes: 16),
                    ])
                ]),
            RuleExample(
                "session key declared",
                files: [
                    .init(
                        "events.timeline",
                        """
                        0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                        0.190 key https://keys.example.com/fps 200 0.300
                        0.600 segment https://cdn.example.com/a/v20/s1.ts 200 0.200 dur=6
                        0.900 initial-ltku variant=20M
                        """),
                    .init(
                        "master.m3u8",
                        """
                        #EXTM3U
                        #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key-42",KEYFORMAT="com.apple.streamingkeydelivery"
                        #EXT-X-STREAM-INF:BANDWIDTH=20000000
                        v20/index.m3u8
                        """),
                ]),
            RuleExample(
                "near miss: the key is fetched after startup (rotation)",
                files: [
                    .init(
                        "events.timeline",
                        """
                        0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                        0.300 segment https://cdn.example.com/a/v20/s1.ts 200 0.200 dur=6
                        0.600 initial-ltku variant=20M
                        30.00 key https://keys.example.com/fps 200 0.300
                        """),
                    .init(
                        "master.m3u8",
                        """
                        #EXTM3U
                        #EXT-X-STREAM-INF:BANDWIDTH=20000000
                        v20/index.m3u8
                        """),
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        guard let master = session.multivariantSnapshot, !master.hasSessionKey, let end = startupEnd(session) else {
            return []
        }
        let keys = session.requestEntries.filter { item in
            item.request.kind == .contentKey && (item.entry.time.map { $0 <= end } ?? false)
        }
        guard let first = keys.first else { return [] }
        let fromCapture = session.analysis.startupEnd == nil
        let masterEntry = session.entries.first {
            if case .playlist(let p) = $0.record.payload { return p.isMultivariant } else { return false }
        }
        var evidence = keys.map { Finding.Evidence($0.entry) }
        if let masterEntry { evidence.append(Finding.Evidence(masterEntry)) }
        // rules.md: a warning when the key wait lengthened a startup of more than 1 s, else info
        // (a 50 ms key in a 0.6 s startup is advice, not a problem). The startup runs from its
        // first request (or play) to its end.
        let begin =
            session.analysis.startupBegin?.time
            ?? session.requestEntries.first { $0.entry.time != nil }?.entry.time
        let startup = begin.map { end.secondsSince1970 - $0.secondsSince1970 }
        let keyWait = keys.compactMap(\.request.duration).max() ?? 0
        let lengthened = (startup ?? 0) > 1 && keyWait >= 0.1
        return [
            finding(
                severity: lengthened ? .warning : .info, start: first.entry.time, end: end,
                title:
                    "\(keys.count) content key request\(keys.count == 1 ? "" : "s") during startup, but the multivariant playlist declares no EXT-X-SESSION-KEY",
                explanation: fromCapture
                    ? "no player event marks the end of startup (a capture alone): the keys were requested before the first media segment, which cannot play until they arrive"
                    : nil,
                details: [
                    "key_requests_during_startup": .integer(keys.count), "longest_key_wait": .seconds(keyWait),
                    "startup_time": startup.map { .seconds($0) } ?? .string("unknown"),
                ], evidence: evidence,
                advice:
                    "Declare the keys in the multivariant playlist with EXT-X-SESSION-KEY (same METHOD, KEYFORMAT and URI as the media playlists' EXT-X-KEY) and set preloadsEligibleContentKeys on the AVContentKeySession."
            )
        ]
    }

    /// The end of startup: the first likely-to-keep-up; in a capture with no player events (a HAR,
    /// a proxy log: rules.md, "Deciding from a proxy capture alone"), the first media segment's
    /// request — a key fetched before it is on the startup path, since nothing plays without it.
    func startupEnd(_ session: Session) -> Timestamp? {
        if let end = session.analysis.startupEnd?.time { return end }
        guard !session.capabilities.contains(.playerEvents) else { return nil }
        return session.requestEntries.first { $0.request.kind == .segment && !$0.request.failed }?.entry.time
    }
}
