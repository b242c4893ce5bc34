import ForensicsCore

/// One capture of a live media playlist: when it was fetched, what it said, where it is.
package struct PlaylistCapture: Sendable {
    package var time: Double
    package var snapshot: PlaylistSnapshot
    package var location: SourceLocation
    /// The capture's place on a session's timeline, when it has one.
    package var timelineIndex: Int?

    package init(time: Double, snapshot: PlaylistSnapshot, location: SourceLocation, timelineIndex: Int? = nil) {
        self.time = time
        self.snapshot = snapshot
        self.location = location
        self.timelineIndex = timelineIndex
    }
}

/// A requirement on how a live media playlist changes between reloads (RFC 8216bis §6.2.1,
/// §6.2.2), judged over successive captures of one playlist (several responses in a HAR, proxy
/// log bodies): declared like a stream check, its examples are series of captures.
package struct PlaylistSeriesCheck: Sendable {
    package var id: String
    package var title: String
    package var source: String
    package var level: String
    package var severity: Severity
    package var effect: String
    package var advice: String
    /// Series that break it: each capture a time (seconds) and a playlist.
    package var fires: [[(seconds: Double, playlist: String)]]
    package var passes: [[(seconds: Double, playlist: String)]]
    /// Judges two successive captures of one playlist (time order): the defect's message, or nil.
    package var judge: @Sendable (PlaylistCapture, PlaylistCapture) -> String?
    /// Judged against the first capture since the playlist last gained a segment, not the one
    /// just before: six identical reloads 6 s apart are 30 s without a new segment.
    package var sinceLastChange = false
}

/// What the series checks found: the check, the captures it is about, why.
package struct PlaylistSeriesDefect: Sendable {
    package var check: PlaylistSeriesCheck
    package var captures: [PlaylistCapture]
    package var message: String
}

package enum PlaylistSeriesChecks {
    /// The segment URI at a media sequence number, if the capture lists it.
    static func uri(_ s: PlaylistSnapshot, at sequence: Int64) -> String? {
        // A delta update lists its segments from after the skipped ones.
        guard let base = s.mediaSequence, case let (first, false) = base.addingReportingOverflow(s.skippedSegments),
            sequence >= first
        else { return nil }
        let (offset, overflow) = sequence.subtractingReportingOverflow(first)
        guard !overflow, offset < Int64(s.segmentURIs.count) else { return nil }
        return s.segmentURIs[Int(offset)]
    }

    static func duration(_ s: PlaylistSnapshot) -> Double { s.segmentDurations.reduce(0, +) }

    static func next(_ s: PlaylistSnapshot) -> Int64 {
        (s.mediaSequence ?? 0) &+ s.skippedSegments &+ Int64(s.segmentCount)
    }

    static func live(
        _ msn: Int, _ n: Int, target: Int = 6, end: Bool = false, dsn: Int? = nil, rename: Int? = nil, skip: Int = 0
    ) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(msn)\n"
        if let dsn { text += "#EXT-X-DISCONTINUITY-SEQUENCE:\(dsn)\n" }
        if skip > 0 { text += "#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skip)\n" }
        for i in (msn + skip)..<(msn + n) { text += "#EXTINF:\(target).0,\ns\(i == rename ? "\(i)b" : "\(i)").ts\n" }
        return text + (end ? "#EXT-X-ENDLIST\n" : "")
    }

    package static let all: [PlaylistSeriesCheck] = [
        PlaylistSeriesCheck(
            id: "media-sequence-went-back", title: "The media sequence never goes back", source: "RFC 8216bis §6.2.2",
            level: "MUST", severity: .error,
            effect:
                "A reload that starts at an earlier sequence number makes the player replay or drop segments, or give up on the playlist.",
            advice:
                "Check the packager's or origin's state after a restart, and that all origins behind the CDN serve one playlist.",
            fires: [[(0, live(10, 4)), (6, live(8, 4))]],
            passes: [[(0, live(10, 4)), (6, live(11, 4))]],
            judge: { a, b in
                guard let x = a.snapshot.mediaSequence, let y = b.snapshot.mediaSequence, y < x else { return nil }
                return "EXT-X-MEDIA-SEQUENCE went from \(x) to \(y)"
            }),
        PlaylistSeriesCheck(
            id: "media-sequence-uri-changed", title: "A sequence number keeps its segment",
            source: "RFC 8216bis §6.2.1, §6.3.4",
            level: "MUST", severity: .error,
            effect:
                "The same sequence number naming another segment makes the player skip or repeat media: a jump, a glitch, or a stall.",
            advice: "Only append segments and remove them from the start; never rename or reorder them.",
            fires: [[(0, live(10, 4)), (6, live(11, 4, rename: 12))]],
            passes: [[(0, live(10, 4)), (6, live(11, 4))], [(0, live(10, 6)), (6, live(11, 6, skip: 3))]],
            judge: { a, b in
                guard let first = b.snapshot.mediaSequence else { return nil }
                let to = min(next(a.snapshot), next(b.snapshot))
                // The newest 4,096 numbers both list (a bound on hostile captures: at most
                // `maxCapturesPerPlaylist` × 4,096 comparisons in all).
                let from = max(first, to &- 4096)
                guard from < to else { return nil }
                for n in from..<to {
                    if let x = uri(a.snapshot, at: n), let y = uri(b.snapshot, at: n), x != y {
                        return "sequence number \(n) was \(x), then \(y)"
                    }
                }
                return nil
            }),
        PlaylistSeriesCheck(
            id: "segments-removed-under-three-target-durations",
            title: "Segments are removed only from a window of three target durations", source: "RFC 8216bis §6.2.2",
            level: "MUST", severity: .warning,
            effect:
                "A live window shorter than three target durations leaves the player no room behind the live edge: it reloads, rebuffers and may fail over.",
            advice:
                "Keep at least three target durations (Apple: six segments) in the live window before removing any.",
            fires: [[(0, live(10, 2, target: 10)), (10, live(11, 2, target: 10))]],
            passes: [[(0, live(10, 4, target: 10)), (10, live(11, 4, target: 10))]],
            judge: { a, b in
                guard !a.snapshot.endList, let x = a.snapshot.mediaSequence, let y = b.snapshot.mediaSequence, y > x,
                    let target = b.snapshot.targetDuration, target > 0, duration(b.snapshot) + 1 < 3 * target
                else { return nil }
                return
                    "\(y - x) segment\(y - x == 1 ? "" : "s") removed, leaving \(NumberFormat.trimmed(duration(b.snapshot), decimals: 1)) s (under 3 × \(NumberFormat.trimmed(target, decimals: 1)) s)"
            }),
        PlaylistSeriesCheck(
            id: "live-playlist-not-advancing", title: "A live playlist gains a segment every target duration",
            source: "RFC 8216bis §6.2.1, §6.3.4", level: "MUST", severity: .warning,
            effect:
                "A live playlist unchanged for more than 1.5 × its target duration starves the player: it stalls at the live edge (AVPlayer -12888).",
            advice:
                "Check the encoder and packager feeding this rendition, and that the CDN does not cache the playlist longer than half a target duration.",
            fires: [
                [(0, live(10, 4)), (10, live(10, 4))],
                [(0, live(10, 4)), (6, live(10, 4)), (12, live(10, 4)), (18, live(10, 4))],
            ],
            passes: [
                [(0, live(10, 4)), (6, live(10, 4))], [(0, live(10, 4, end: true)), (30, live(10, 4, end: true))],
                [(0, live(10, 4)), (6, live(10, 4)), (8, live(11, 4)), (14, live(11, 4))],
            ],
            judge: { a, b in
                guard !a.snapshot.endList, !b.snapshot.endList, next(a.snapshot) == next(b.snapshot),
                    let target = a.snapshot.targetDuration, target > 0, b.time - a.time > 1.5 * target
                else { return nil }
                return
                    "no new segment for \(NumberFormat.seconds(b.time - a.time)), over 1.5 × the target duration (\(NumberFormat.seconds(1.5 * target)))"
            }, sinceLastChange: true),
        PlaylistSeriesCheck(
            id: "discontinuity-sequence-went-back", title: "The discontinuity sequence never goes back",
            source: "RFC 8216bis §6.2.2", level: "MUST", severity: .error,
            effect:
                "Players align timestamps across discontinuities by this number: going back misplaces media in time.",
            advice: "Increment EXT-X-DISCONTINUITY-SEQUENCE as discontinuities leave the window; never lower it.",
            fires: [[(0, live(10, 4, dsn: 3)), (6, live(11, 4, dsn: 2))]],
            passes: [[(0, live(10, 4, dsn: 3)), (6, live(11, 4, dsn: 3))]],
            judge: { a, b in
                let x = a.snapshot.discontinuitySequence
                let y = b.snapshot.discontinuitySequence
                return y < x ? "EXT-X-DISCONTINUITY-SEQUENCE went from \(x) to \(y)" : nil
            }),
        PlaylistSeriesCheck(
            id: "ended-playlist-changed", title: "No segment is added after EXT-X-ENDLIST",
            source: "RFC 8216bis §4.4.3.4", level: "MUST", severity: .error,
            effect:
                "EXT-X-ENDLIST says no more segments will be added: the player stops reloading, so what came after is never played, or a restarted event is seen as over.",
            advice: "Add EXT-X-ENDLIST only when the stream has ended; start a new playlist URL for a new event.",
            fires: [[(0, live(10, 4, end: true)), (6, live(11, 4))]],
            passes: [
                [(0, live(10, 4)), (6, live(10, 5, end: true))],
                [(0, live(10, 4, end: true)), (6, live(11, 3, end: true))],
            ],
            judge: { a, b in
                guard a.snapshot.endList else { return nil }
                if next(b.snapshot) > next(a.snapshot) {
                    return "\(next(b.snapshot) - next(a.snapshot)) segments added after EXT-X-ENDLIST was served"
                }
                if !b.snapshot.endList { return "EXT-X-ENDLIST removed after it was served" }
                return nil
            }),
    ]

    /// Every series check over the captures: each media playlist's captures (by URL without
    /// query) in time order, each pair of successive ones judged; one defect per check and
    /// playlist, citing the pair (the first that broke it) and counting the others.
    /// Captures of one playlist judged at most (the first by time): a bound on the work a
    /// hostile capture of a million reloads can cause.
    package static let maxCapturesPerPlaylist = 2000

    package static func check(_ captures: [PlaylistCapture]) -> [PlaylistSeriesDefect] {
        var byURL: [String: [PlaylistCapture]] = [:]
        for c in captures where !c.snapshot.isMultivariant {
            guard let url = c.snapshot.url else { continue }
            byURL[URLCanonicalizer.withoutQuery(url), default: []].append(c)
        }
        var out: [PlaylistSeriesDefect] = []
        for (url, list) in byURL.sorted(by: { $0.key < $1.key }) where list.count > 1 {
            let series = list.sorted { $0.time != $1.time ? $0.time < $1.time : $0.location < $1.location }
                .prefix(maxCapturesPerPlaylist)
            for check in all {
                var first: (PlaylistCapture, PlaylistCapture, String)?
                var count = 0
                var runStart = series.startIndex
                for (i, (a, b)) in zip(series.indices.dropFirst(), zip(series, series.dropFirst())) {
                    let from = check.sinceLastChange ? series[runStart] : a
                    if next(b.snapshot) != next(a.snapshot) { runStart = i }
                    guard let message = check.judge(from, b) else { continue }
                    count += 1
                    if first == nil { first = (from, b, message) }
                }
                if let (a, b, message) = first {
                    out.append(
                        PlaylistSeriesDefect(
                            check: check, captures: [a, b],
                            message: "\(url): \(message)" + (count > 1 ? " (and \(count - 1) more reloads)" : "")))
                }
            }
        }
        return out
    }
}
