import ForensicsCore

/// `playlist-parse-error`: the player refused a playlist it could not read (CoreMedia -12642
/// "Playlist parse error", with the offending tag in the comment when the source keeps it), from
/// any source that states errors. When the playlist itself is in the bundle, the stream checks'
/// defects are named as the reason; when it is not, the finding says how to check it.
package struct PlaylistParseErrorRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "playlist-parse-error", name: "Playlist Parse Error",
        summary: "The player refused a playlist it could not parse (CoreMedia -12642).",
        rationale: """
            AVFoundation rejects a playlist that breaks the HLS rules it enforces (a partial segment longer than \
            PART-TARGET, a malformed attribute, a missing tag): the variant, or the whole item, is dropped. The \
            player's comment names the rule; the stream checks show every break in a captured copy.
            """,
        kind: .stream, defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "an app's print of its error log: a partial segment longer than PART-TARGET",
                files: [
                    RuleExample.File(
                        "errorlog.txt",
                        "errorStatusCode: -12642 | errorDomain: CoreMediaErrorDomain | errorComment: #EXT-X-PART Partial Segment duration 2.002 exceeds PART-TARGET 1.001 | URI: https://live.example.com/ll/v3/index.m3u8 | date: 2026-11-21 10:00:03.000 +0000 ◀"
                    )
                ]),
            RuleExample(
                "an NSLog console: the media player cannot parse the playlist",
                files: [
                    ExampleFixtures.console([
                        ExampleFixtures.consoleLine(
                            at: 0.9,
                            #"The media player could not resolve the stream: Error Domain=CoreMediaErrorDomain Code=-12642 "Playlist parse error" UserInfo={NSDescription=Playlist parse error}"#,
                            anchor: true)
                    ])
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: a live playlist that stopped changing (-12888) is no parse error",
                files: [ExampleFixtures.staleLivePlaylistRow()]),
            RuleExample(
                "near miss: a segment 404",
                files: [
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(at: 20, uri: "https://cdn.example.com/a/v8/s9.m4s")
                    ])
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        let errors = session.errorEntries.filter { $0.error.isPlaylistParseError }
        guard let first = errors.first else { return [] }
        // What the player said, once each: the comments name the rule broken.
        var said: [String] = []
        var uris: [String] = []
        for item in errors {
            let text = item.error.chain.compactMap(\.description).first { !$0.isEmpty } ?? item.error.shortText
            if !said.contains(text), said.count < 3 { said.append(text) }
            if let u = item.uri, !uris.contains(u) { uris.append(u) }
        }
        // The captured playlists' own defects, when the bundle holds them.
        var defects: [String] = []
        var captured = false
        for e in session.entries {
            guard case .playlist(let p) = e.record.payload else { continue }
            captured = true
            for d in p.defects where d.severity >= .warning && defects.count < 3 {
                defects.append(
                    "\(p.url ?? e.location.file): \(d.check) — \(d.requirement.isEmpty ? d.message : d.requirement)")
            }
        }
        var explanation = "The player said: " + said.map { "“\($0)”" }.joined(separator: "; ") + "."
        if !defects.isEmpty {
            explanation +=
                " The captured playlists break: " + defects.joined(separator: "; ") + " (see stream-defects)."
        } else if captured {
            explanation +=
                " The captured playlists pass the stream checks: the playlist the player refused may be another version of it (a live update)."
        } else {
            explanation +=
                " No playlist of this session was captured, so the stream checks could not say which line broke."
        }
        return [
            finding(
                start: first.entry.time, end: errors.last?.entry.time,
                title: "Playlist refused: \(said.first ?? "parse error")",
                explanation: explanation.hasSuffix(".") ? String(explanation.dropLast()) : explanation,
                details: ["errors": .integer(errors.count)],
                evidence: errors.prefix(20).map(\.evidence), subject: Finding.Subject(url: uris.first, urls: uris),
                advice: captured
                    ? "Fix the playlist's breaks the stream checks list (the player's comment names the one it refused on), then check again with `playback-forensics check`."
                    : "Save the playlist the player refused (its URI is in the evidence) as it was served at that time, and run `playback-forensics check` on it: the player's comment names the tag, the checks name the rule of RFC 8216 it breaks."
            )
        ]
    }
}
