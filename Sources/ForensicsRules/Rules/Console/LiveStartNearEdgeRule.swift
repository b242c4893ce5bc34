import ForensicsCore

/// `live-start-near-edge`: the player (re)started a live stream too close to the end of its
/// playlist — CoreMedia's -16832 "restarting N s from end of live playlist; target duration T s —
/// stall danger". RFC 8216 §6.3.3: a client SHOULD NOT choose a segment that starts less than
/// three target durations from the end of the playlist; closer than that, the next reload that
/// comes late leaves nothing to play.
package struct LiveStartNearEdgeRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "live-start-near-edge", name: "Live Start Near Edge",
        summary:
            "Playback of a live stream (re)started closer to the playlist's end than three target durations (CoreMedia -16832).",
        rationale: """
            Starting a few seconds from the live edge leaves the buffer at the mercy of every playlist reload: \
            a reload that is late, or a segment published late, is a stall. RFC 8216 §6.3.3 asks clients to \
            start at least three target durations from the end; the stream can ask for that with EXT-X-START \
            or HOLD-BACK.
            """,
        kind: .playback, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "an error-log event: restarting 8 s from the end with a 3-s target duration",
                files: [
                    ExampleFixtures.console([
                        ExampleFixtures.consoleLine(
                            at: 12, process: "LiveTV", level: "Default",
                            "errorStatusCode=-16832 errorDomain=CoreMediaErrorDomain errorComment=\"restarting 8 s from end of live playlist; target duration 3 s — stall danger\" URI=https://live.example.com/news/v5/index.m3u8",
                            anchor: true)
                    ])
                ]),
            RuleExample(
                "AVPlayer's own error log: -16832 with no distance in its comment",
                files: [
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(
                            at: 30, uri: "https://cdn.example.com/live/v5/index.m3u8", status: -16832,
                            comment: "restarting near end of live playlist", anchor: true)
                    ])
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: a live playlist that stopped changing (-12888) is a stall cause, not a start point",
                files: [ExampleFixtures.staleLivePlaylistRow()]),
            RuleExample(
                "near miss: restarted 12 s from the end with a 3-s target duration (three target durations is 9 s)",
                files: [
                    ExampleFixtures.console([
                        ExampleFixtures.consoleLine(
                            at: 12, process: "LiveTV", level: "Default",
                            "errorStatusCode=-16832 errorDomain=CoreMediaErrorDomain errorComment=\"restarting 12 s from end of live playlist; target duration 3 s\" URI=https://live.example.com/news/v5/index.m3u8"
                        )
                    ])
                ]),
        ])

    /// The first number before `marker` in `text` (`8` of "restarting 8 s from end").
    static func seconds(before marker: String, in text: String) -> Double? {
        guard let r = text.range(of: marker) else { return nil }
        let head = text[..<r.lowerBound].trimmingCharacters(in: " s")
        let digits = head.reversed().prefix { $0.isNumber || $0 == "." }
        return Double(String(digits.reversed()))
    }

    /// The number after `marker` (`3` of "target duration 3 s").
    static func seconds(after marker: String, in text: String) -> Double? {
        guard let r = text.range(of: marker) else { return nil }
        let digits = text[r.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }

    package func findings(in session: Session) -> [Finding] {
        // Where the player states the distance and the target duration, a start at least three
        // target durations from the end is what RFC 8216 asks for: no finding.
        let events = session.errorEntries.filter { item in
            guard item.error.isLiveEdgeWarning else { return false }
            let text = item.error.chain.compactMap(\.description).first ?? ""
            guard let d = Self.seconds(before: "from end", in: text),
                let t = Self.seconds(after: "target duration", in: text),
                t > 0
            else { return true }
            return d < 3 * t
        }
        guard let first = events.first else { return [] }
        let text = first.error.chain.compactMap(\.description).first ?? first.error.shortText
        let distance = Self.seconds(before: "from end", in: text)
        let target = Self.seconds(after: "target duration", in: text)
        var explanation = "The player said: “\(text)”."
        var details: [String: DetailValue] = ["events": .integer(events.count)]
        if let distance, let target, target > 0 {
            details["distance_from_end"] = .number(distance)
            details["target_duration"] = .number(target)
            explanation +=
                " \(NumberFormat.seconds(distance)) from the end is less than three target durations (\(NumberFormat.seconds(3 * target))), the least RFC 8216 §6.3.3 allows a client to start at."
        }
        if events.count > 1 { explanation += " It happened \(events.count) times." }
        return [
            finding(
                start: first.entry.time, end: events.last?.entry.time,
                title: "Live playback restarted near the playlist's end",
                explanation: explanation.hasSuffix(".") ? String(explanation.dropLast()) : explanation,
                details: details,
                evidence: events.prefix(20).map(\.evidence),
                subject: Finding.Subject(url: first.uri),
                advice:
                    "Give the player room at the live edge: declare EXT-X-START:TIME-OFFSET (negative, at least three target durations) or a HOLD-BACK of at least three target durations (PART-HOLD-BACK for LL-HLS), and check that the packager publishes each segment and playlist update on time (a late update is what made the player fall back to the edge)."
            )
        ]
    }
}
