import ForensicsCore

/// `playlist-unavailable`: a playlist the player asked for never loaded — every request for it
/// failed (an HTTP error or no response) and none succeeded in the session.
///
/// Why a rule of its own: a capture in which every variant playlist answers 404 shows a stream
/// that cannot start, yet no segment failed (`segment-errors` counts media requests), no playlist
/// body is there to check (`stream-defects`) and a HAR has no player event to call it fatal
/// (`playback-failed`). Without this rule such a session showed errors that no finding explained.
///
/// A playlist that failed and later loaded (a retry, a live reload that recovered) is no finding:
/// the player got it. A request whose outcome no source recorded counts neither way.
package struct PlaylistUnavailableRule: Rule {
    package struct Options: RuleOptions {
        package init() {}
        package static var declarations: [RuleOption<Options>] { [] }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    static let master = "https://cdn.example.com/a/master.m3u8"
    static let variants = ExampleFixtures.multivariant([
        (8_000_000, "v8/index.m3u8"), (4_000_000, "v4/index.m3u8"),
    ])

    package static let description = RuleDescription(
        identifier: "playlist-unavailable", name: "Playlist Unavailable",
        summary:
            "A playlist the player requested never loaded: every request for it failed. An error when no playlist of the stream loaded (playback could not start).",
        rationale: """
            A missing variant or rendition playlist is a publishing or CDN fault that the player \
            reports only as a generic failure. When every variant playlist (or the multivariant \
            playlist) fails, the stream cannot start; when only some fail, the player plays \
            without those variants. Either way the URLs, times and statuses are what the origin \
            owner needs.
            """,
        kind: .stream, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "HAR only: the multivariant playlist loads, both variant playlists answer 404",
                files: [
                    ExampleFixtures.har([
                        .init(at: 0, url: master, body: variants),
                        .init(at: 0.1, url: "https://cdn.example.com/a/v8/index.m3u8", status: 404, anchor: true),
                        .init(at: 0.2, url: "https://cdn.example.com/a/v4/index.m3u8", status: 404),
                    ])
                ], severity: .error),
            RuleExample(
                "the multivariant playlist itself fails twice",
                timeline: """
                    0.000 play
                    0.020 multivariant https://cdn.example.com/a/master.m3u8 503 0.10 ◀
                    1.020 multivariant https://cdn.example.com/a/master.m3u8 503 0.10
                    """, severity: .error),
            RuleExample(
                "one variant playlist never loads, the other plays",
                timeline: """
                    0.020 multivariant https://cdn.example.com/a/master.m3u8 200 0.10
                    0.150 playlist https://cdn.example.com/a/v8/index.m3u8 404 0.05 ◀
                    0.250 playlist https://cdn.example.com/a/v4/index.m3u8 200 0.05
                    0.400 segment https://cdn.example.com/a/v4/s1.ts 200 0.2 dur=6
                    0.700 initial-ltku variant=4M
                    """, severity: .warning),
            RuleExample(
                "no response at all for the only variant requested",
                timeline: """
                    0.020 multivariant https://cdn.example.com/a/master.m3u8 200 0.10
                    0.150 playlist https://cdn.example.com/a/v8/index.m3u8 - 30.0 error=-1001 ◀
                    """, severity: .error),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: a variant playlist fails once and loads on the retry",
                timeline: """
                    0.020 multivariant https://cdn.example.com/a/master.m3u8 200 0.10
                    0.150 playlist https://cdn.example.com/a/v8/index.m3u8 404 0.05
                    0.650 playlist https://cdn.example.com/a/v8/index.m3u8 200 0.05
                    0.900 initial-ltku variant=8M
                    """),
            RuleExample(
                "near miss: the rendition fails on one CDN and loads from the backup CDN",
                timeline: """
                    0.020 multivariant https://cdn.example.com/a/master.m3u8 200 0.10
                    0.150 playlist https://cdn.example.com/a/v8/index.m3u8 - 10.0 error=-1001
                    10.20 playlist https://cdn2.example.com/a/v8/index.m3u8 200 0.05
                    10.90 initial-ltku variant=8M
                    """),
            RuleExample(
                "near miss: a live reload fails after the playlist had loaded",
                timeline: """
                    0.150 playlist https://cdn.example.com/live/v8/index.m3u8 200 0.05
                    0.900 initial-ltku variant=8M
                    6.150 playlist https://cdn.example.com/live/v8/index.m3u8 503 0.05
                    """),
            RuleExample(
                "near miss: segments fail, every playlist loads",
                timeline: """
                    0.020 multivariant https://cdn.example.com/a/master.m3u8 200 0.10
                    0.150 playlist https://cdn.example.com/a/v8/index.m3u8 200 0.05
                    0.400 segment https://cdn.example.com/a/v8/s1.ts 404 0.05 dur=6
                    """),
            RuleExample(
                "near miss: error log only, one playlist row failed (successes are not logged)",
                files: [
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(
                            at: 10, uri: "https://cdn.example.com/a/v12/prog_index.m3u8", status: -12889,
                            comment: "HTTP 503: Service Unavailable")
                    ])
                ]),
            RuleExample(
                "near miss: HAR only, the variant playlists load",
                files: [
                    ExampleFixtures.har([
                        .init(at: 0, url: master, body: variants),
                        .init(at: 0.1, url: "https://cdn.example.com/a/v8/index.m3u8", status: 200),
                    ])
                ]),
        ])

    /// A playlist URL's requests: the failures (timeline order) and whether one succeeded.
    struct Attempts {
        var kind: MediaRequest.Kind
        var failures: [Session.Failure] = []
        var loaded = false
    }

    /// A request the client gave up itself: NSURLErrorCancelled, a browser's `ERR_ABORTED`.
    static func cancelled(_ f: Session.Failure) -> Bool {
        guard f.status == nil, let e = f.error else { return false }
        if e.code == -999 { return true }
        let text = (e.description ?? "").lowercased()
        return text.contains("aborted") || text.contains("cancel")
    }

    /// Whether anything shows media played: a likely-to-keep-up, an access-log row that watched
    /// something. (A rate of 1 is the user pressing play, not media playing.)
    static func played(_ session: Session) -> Bool {
        session.entries.contains { e in
            switch e.record.payload {
            case .player(let p):
                return p.kind == .likelyToKeepUp || p.kind == .initialLikelyToKeepUp
            case .accessLog(let a):
                return (a.durationWatched ?? 0) > 0
            default:
                return false
            }
        }
    }

    package func findings(in session: Session) -> [Finding] {
        var attempts: [String: Attempts] = [:]
        var order: [String] = []
        // By path: the same rendition loaded from a backup host (another CDN) is loaded.
        func key(_ url: String) -> String { URLCanonicalizer.path(url) }
        for item in session.requestEntries
        where item.value.kind == .multivariantPlaylist || item.value.kind == .mediaPlaylist {
            guard let r = session.mergedRequest(item.entry), !r.failed, let status = r.status, status < 400 else {
                continue
            }
            let k = key(r.url)
            if attempts[k] == nil { order.append(k) }
            attempts[k, default: Attempts(kind: r.kind)].loaded = true
        }
        for f in session.analysis.failures {
            // Only a source that records each request, the loaded ones too, can show that none
            // loaded: an error-log row beside an access log says one request failed, not that
            // every one did. A load the client cancelled (a HAR's aborted entry) is no failure.
            guard let url = f.url, session.entries[f.index].record.request != nil, !Self.cancelled(f) else { continue }
            let kind = f.kind == .other || f.kind == nil ? MediaRequest.guessKind(url: url) : (f.kind ?? .other)
            guard kind == .multivariantPlaylist || kind == .mediaPlaylist else { continue }
            let k = key(url)
            if attempts[k] == nil { order.append(k) }
            attempts[k, default: Attempts(kind: kind)].failures.append(f)
        }
        let missing = order.compactMap { k in attempts[k].flatMap { $0.loaded || $0.failures.isEmpty ? nil : $0 } }
        guard !missing.isEmpty else { return [] }
        // Did anything play? A loaded media playlist, or a segment that arrived, shows the player
        // had a playlist to play from (perhaps one no source recorded).
        let anyPlaylistLoaded = attempts.values.contains { $0.loaded && $0.kind == .mediaPlaylist }
        let anySegmentLoaded = session.requestEntries.contains { item in
            (item.value.kind == .segment || item.value.kind == .map) && !item.value.failed
                && (item.value.status.map { $0 < 400 } ?? false)
        }
        let multivariantOnly = attempts.values.allSatisfy { $0.kind == .multivariantPlaylist }
        let startBlocked =
            !anySegmentLoaded && !anyPlaylistLoaded && !Self.played(session)
            && (missing.contains { $0.kind == .mediaPlaylist } || multivariantOnly)
        let failures = missing.flatMap(\.failures)
        let statuses = Array(Set(failures.map(\.statusText))).sorted()
        let urls = missing.compactMap { $0.failures.first?.url }
        let media = missing.filter { $0.kind == .mediaPlaylist }.count
        let requestedMedia = attempts.values.filter { $0.kind == .mediaPlaylist }.count
        let title: String
        if startBlocked, media > 0 {
            title =
                "Every variant playlist requested failed (\(media) of \(requestedMedia), \(statuses.joined(separator: ", "))): playback could not start"
        } else if startBlocked {
            title =
                "The multivariant playlist never loaded (\(failures.count) request\(failures.count == 1 ? "" : "s"), \(statuses.joined(separator: ", "))): playback could not start"
        } else {
            title =
                "\(missing.count) playlist\(missing.count == 1 ? "" : "s") never loaded (\(statuses.joined(separator: ", "))): the player went on without \(missing.count == 1 ? "it" : "them")"
        }
        let entries = failures.map { session.entries[$0.index] }
        return [
            finding(
                severity: startBlocked ? .error : nil, start: entries.first?.time,
                end: entries.compactMap { $0.endTime ?? $0.time }.max(), title: title,
                details: [
                    "playlists": .integer(missing.count), "failed_requests": .integer(failures.count),
                    "statuses": .strings(statuses), "urls": .strings(Array(urls.prefix(20))),
                    "playback_could_start": .bool(!startBlocked),
                ],
                evidence: entries.prefix(20).flatMap { Finding.Evidence.all($0) },
                subject: Finding.Subject(urls: Array(urls.prefix(20))),
                advice:
                    "Request these playlist URLs as the player did (the evidence has times and statuses): a 404 means the path was not published or the multivariant playlist names the wrong URI; a 5xx or no response points at the origin or CDN. Fix the publishing, or remove the variant from the multivariant playlist."
            )
        ]
    }
}
