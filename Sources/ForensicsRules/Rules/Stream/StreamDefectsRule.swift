import ForensicsCore

/// `stream-defects`: a playlist the session used breaks a requirement of RFC 8216bis or Apple's
/// authoring rules in a way that affects playback (the stream checks at warning or above), or a
/// live playlist changed between the session's reloads in a way it must not (the series checks).
/// One finding per check, at the check's severity, citing the playlist records.
package struct StreamDefectsRule: Rule {
    package struct Options: RuleOptions {
        package init() {}
        package static var declarations: [RuleOption<Options>] { [] }
    }

    /// Stream checks below this (Apple's recommendations, harmless deviations) are listed by
    /// `check`, not made findings of a session.
    static let minimumSeverity: Severity = .warning

    package let options: Options
    package init(options: Options) { self.options = options }

    static let live = "https://cdn.example.com/live/v5/index.m3u8"
    static func livePlaylist(_ msn: Int, _ n: Int, target: Int = 6) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(msn)\n"
        for i in msn..<(msn + n) { text += "#EXTINF:\(target).0,\ns\(i).ts\n" }
        return text
    }

    package static let description = RuleDescription(
        identifier: "stream-defects", name: "Stream Defects",
        summary:
            "A playlist the session used breaks a requirement of RFC 8216bis or Apple's HLS authoring rules that affects playback, or a live playlist changed between reloads as it must not.",
        rationale: """
            A broken stream is one of the commonest causes of "it won't start" and "it keeps \
            buffering", and the player says little about it. Each defect names the stream check, \
            the requirement, the playlist line and what it does to playback \
            (`Documentation/StreamChecks.md`).
            """,
        kind: .stream, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "segments longer than the target duration",
                files: [
                    ExampleFixtures.har([
                        .init(
                            at: 0, url: live,
                            body:
                                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:7.1,\ns1.ts\n#EXTINF:8.1,\ns2.ts\n#EXTINF:7.7,\ns3.ts\n#EXT-X-ENDLIST\n",
                            anchor: true)
                    ])
                ]),
            RuleExample(
                "a live playlist that did not advance for 12 s under a target duration of 6",
                files: [
                    ExampleFixtures.har([
                        .init(at: 0, url: live, body: livePlaylist(10, 4), anchor: true),
                        .init(at: 12, url: live, body: livePlaylist(10, 4)),
                    ])
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "a valid playlist",
                files: [
                    ExampleFixtures.har([
                        .init(
                            at: 0, url: live,
                            body:
                                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXTINF:7.1,\ns1.ts\n#EXTINF:8.1,\ns2.ts\n#EXT-X-ENDLIST\n"
                        )
                    ])
                ]),
            RuleExample(
                "near miss: a live playlist reloaded after one target duration, advancing",
                files: [
                    ExampleFixtures.har([
                        .init(at: 0, url: live, body: livePlaylist(10, 4)),
                        .init(at: 6, url: live, body: livePlaylist(11, 4)),
                    ])
                ]),
            RuleExample(
                "near miss: only an Apple recommendation (no CODECS) — below the finding level",
                files: [
                    ExampleFixtures.har([
                        .init(
                            at: 0, url: "https://cdn.example.com/live/master.m3u8",
                            body: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv5/index.m3u8\n"),
                        .init(at: 0.2, url: live, body: livePlaylist(10, 4) + "#EXT-X-ENDLIST\n"),
                    ])
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        var captures: [PlaylistCapture] = []
        // Each check: the playlists that break it, with the first defect's words.
        var byCheck: [String: (severity: Severity, entries: [Int], messages: [String], defect: StreamDefect)] = [:]
        for (i, entry) in session.entries.enumerated() {
            guard case .playlist(let p) = entry.record.payload else { continue }
            if let t = entry.time?.secondsSince1970 {
                captures.append(PlaylistCapture(time: t, snapshot: p, location: entry.location, timelineIndex: i))
            }
            for d in p.defects where d.severity >= Self.minimumSeverity {
                var slot = byCheck[d.check] ?? (d.severity, [], [], d)
                if slot.entries.last != i { slot.entries.append(i) }
                if slot.messages.count < 3 {
                    let place = d.line > 0 ? "line \(d.line)" : "the playlist"
                    slot.messages.append("\(p.url ?? entry.location.file) \(place): \(d.message)")
                }
                slot.severity = max(slot.severity, d.severity)
                byCheck[d.check] = slot
            }
        }
        var out: [Finding] = []
        for (check, slot) in byCheck.sorted(by: { $0.key < $1.key }) {
            out.append(
                finding(
                    severity: slot.severity, start: session.entries[slot.entries[0]].time, end: nil,
                    title:
                        "Stream defect (\(check)): \(slot.defect.requirement.isEmpty ? slot.defect.message : slot.defect.requirement) — not so in \(slot.entries.count) playlist\(slot.entries.count == 1 ? "" : "s")",
                    explanation: (slot.defect.effect.isEmpty ? "" : slot.defect.effect + " ")
                        + slot.messages.joined(separator: "; "),
                    details: ["check": .string(check), "playlists": .integer(slot.entries.count)],
                    evidence: slot.entries.prefix(20).map { Finding.Evidence(session, $0) },
                    subject: Finding.Subject(
                        urls: slot.entries.prefix(20).compactMap { i in
                            if case .playlist(let p) = session.entries[i].record.payload { return p.url }
                            return nil
                        }),
                    advice: "See Documentation/StreamChecks.md#\(check) for the requirement and the fix."))
        }
        for defect in PlaylistSeriesChecks.check(captures) where defect.check.severity >= Self.minimumSeverity {
            let indices = defect.captures.compactMap(\.timelineIndex)
            out.append(
                finding(
                    severity: defect.check.severity, start: defect.captures.first.map { Timestamp($0.time) },
                    end: defect.captures.last.map { Timestamp($0.time) },
                    title: "Stream defect (\(defect.check.id)): \(defect.check.title) — not so between two reloads",
                    explanation:
                        "\(defect.check.effect) \(defect.message) (\(defect.check.source), \(defect.check.level))",
                    details: ["check": .string(defect.check.id)],
                    evidence: indices.map { Finding.Evidence(session, $0) },
                    subject: Finding.Subject(url: defect.captures.first?.snapshot.url),
                    advice: defect.check.advice))
        }
        return out
    }
}
