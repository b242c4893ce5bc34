import ForensicsCore

/// `playback-failed`: the session ended in a fatal (unrecovered) error.
package struct PlaybackFailedRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "playback-failed", name: "Playback Failed",
        summary: "The session ended in a fatal error the player did not recover from.",
        rationale:
            "A fatal error ends the viewer's session: the most severe outcome, to be explained before anything else.",
        kind: .playback, defaultSeverity: .critical,
        triggeringExamples: [
            RuleExample(
                "a fatal 404 on the multivariant playlist",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 404 0.100
                    0.200 error -12938 "HTTP 404: File Not Found" fatal ◀
                    """),
            RuleExample(
                "a summary that ends with an unrecovered error",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    90.00 summary stalls=0 switches=0 duration=89 fatal ◀
                    """),
            RuleExample(
                "access and error logs only: a 403 after playing had stopped",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v8/index.m3u8", watched: 30, observed: 20_000_000,
                            indicated: 8_000_000, startup: 0.8)
                    ]),
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(
                            at: 45, uri: "https://cdn.example.com/a/v8/s9.m4s", status: -12660,
                            comment: "HTTP 403: Forbidden", anchor: true)
                    ]),
                ]),
            RuleExample(
                "access and error logs only: the content key refused (HTTP 403) until playback stopped",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v8/index.m3u8", watched: 40, observed: 20_000_000,
                            indicated: 8_000_000, startup: 0.8)
                    ]),
                    ExampleFixtures.errorLog(
                        [20, 24, 28].map { t in
                            ExampleFixtures.errorRow(
                                at: t, uri: "https://keys.example.com/key/asset42", status: -12660,
                                comment: "HTTP 403: Forbidden", anchor: t == 28)
                        }),
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "a recovered error",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    24.00 error -12938 "HTTP 404: File Not Found" recovered
                    """),
            RuleExample(
                "near miss: a failed request the player recovered from",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    24.00 segment https://cdn.example.com/a/v5/s4.ts 503 0.050 dur=6
                    90.00 summary stalls=0 switches=0 duration=89
                    """),
            RuleExample(
                "near miss: access and error logs only, the error came after the access log was dumped",
                files: [
                    RuleExample.File(
                        "access.log",
                        ExampleFixtures.accessLog([
                            ExampleFixtures.accessRow(
                                at: 0, uri: "https://cdn.example.com/a/v8/index.m3u8", watched: 30,
                                observed: 20_000_000, indicated: 8_000_000, startup: 0.8)
                        ]).text.replacingOccurrences(
                            of: "#Date: 2026/11/21 11:00:00.000", with: "#Date: 2026/11/21 10:00:31.000")),
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(
                            at: 45, uri: "https://cdn.example.com/a/v8/s9.m4s", status: -12660,
                            comment: "HTTP 403: Forbidden")
                    ]),
                ]),
            RuleExample(
                "near miss: access and error logs only, a key refused once while playing went on for minutes",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v8/index.m3u8", watched: 300, observed: 20_000_000,
                            indicated: 8_000_000, startup: 0.8)
                    ]),
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(
                            at: 20, uri: "https://keys.example.com/key/asset42", status: -12660,
                            comment: "HTTP 403: Forbidden")
                    ]),
                ]),
            RuleExample(
                "near miss: access and error logs only, a 403 while playing went on",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v8/index.m3u8", watched: 30, observed: 20_000_000,
                            indicated: 8_000_000, startup: 0.8)
                    ]),
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(
                            at: 20, uri: "https://cdn.example.com/a/v8/s9.m4s", status: -12660,
                            comment: "HTTP 403: Forbidden")
                    ]),
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        var evidence: [Finding.Evidence] = []
        var first: Timestamp?
        var text: String?
        var firstError: ErrorInfo?
        // The first error of the chain that led to a fatal line, when it is another error, and
        // how many errors that chain held.
        var root: (error: ErrorInfo, count: Int)?
        /// A fatal line whose chain is the errors before it.
        func fatal(at i: Int, error: ErrorInfo?, title: String?) {
            let before = Self.chainBefore(i, in: session)
            evidence.append(contentsOf: before.map(\.evidence))
            evidence.append(Finding.Evidence(session, i))
            // The chain told is the first failure's: a later fatal line's earlier errors came
            // after that failure, not before it (probe Q: "after 4 earlier errors" logged three
            // minutes later).
            let isFirst = firstError == nil && text == nil
            first = first ?? before.first?.evidence.time ?? session.entries[i].time
            text = text ?? title
            firstError = firstError ?? error
            if isFirst, root == nil, let r = before.first?.error { root = (r, before.count) }
        }
        for (i, e) in session.entries.enumerated() {
            // A row whose comment says the item cannot go on (-12880 "Can not proceed after
            // removing variants"), also when it was folded into the request it failed: fatal
            // whatever else the log holds.
            if let err = e.statedErrors.first(where: {
                if case .errorLog = $0.view.payload {
                    return $0.error.statesPlaybackEnded && $0.error.didRecover != true
                }
                return false
            })?.error {
                fatal(at: i, error: err, title: err.shortText)
                continue
            }
            switch e.record.payload {
            case .error(let err) where err.didRecover == false:
                evidence.append(Finding.Evidence(session, i))
                first = first ?? e.time
                text = text ?? err.shortText
                firstError = firstError ?? err
            case .console(let line) where line.endsPlayback:
                // The console says the player gave up: its error, or the last one before it.
                let err = line.error ?? Self.lastError(before: i, in: session)
                fatal(at: i, error: err, title: err.map(Self.chainTitle) ?? "the player gave up")
            case .summary(let s):
                if let err = s.error, err.didRecover != true {
                    evidence.append(Finding.Evidence(session, i))
                    first = first ?? e.time
                    text = text ?? err.shortText
                    firstError = firstError ?? err
                }
            default:
                break
            }
        }
        if evidence.isEmpty, !session.sources.contains(.metricEvents), let f = fromErrorLog(session) {
            return [Self.withStreamDefects(f, session)]
        }
        guard !evidence.isEmpty else { return [] }
        // One piece of evidence per entry, in timeline order.
        var seen: Set<Int> = []
        evidence = evidence.filter { $0.timelineIndex.map { seen.insert($0).inserted } ?? true }
        // What each code of the chain means, from the sourced catalogue (nothing when it is not there).
        let rootError = root.flatMap { $0.error == firstError ? nil : $0.error }
        var codes: [ErrorInfo] = []
        for err in (firstError?.chain ?? []) + (rootError?.chain ?? [])
        where !codes.contains(where: { $0.code == err.code }) {
            codes.append(err)
        }
        let meanings = codes.compactMap { err in
            err.code.flatMap {
                ErrorCodeCatalogue.lookup(code: $0, domain: err.domain).first?.sentence(withAdvice: true)
            }
        }
        var meaning = meanings.isEmpty ? nil : meanings.joined(separator: " ")
        if let chain = firstError, chain.underlying.count > 0 {
            meaning = "Error chain: \(chain.chainText)." + (meaning.map { " " + $0 } ?? "")
        }
        if let rootError, let count = root?.count {
            meaning =
                "It came after \(count) earlier error\(count == 1 ? "" : "s"), the first: \(Self.chainTitle(rootError))."
                + (meaning.map { " " + $0 } ?? "")
        }
        meaning = meaning.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        let causes = [firstError, rootError].compactMap { $0 }
        let advice: String
        if causes.contains(where: \.isContentKeyError) {
            advice =
                "The failure follows a content key that could not be had: start from the content-key-failed finding (the key server's answer, or FairPlay on the device)."
        } else if causes.contains(where: \.isPlaylistParseError) {
            advice =
                "The failure follows a playlist the player refused: start from the playlist-parse-error finding (the player's comment names the tag; the stream checks name the rule)."
        } else {
            advice =
                "Start from the first fatal error: its domain and code (CoreMediaErrorDomain codes map to HTTP statuses, e.g. -12938 is 404) name the failing resource; check that it exists and is reachable from the viewer's network."
        }
        return [
            Self.withStreamDefects(
                finding(
                    start: first, end: session.end, title: "Playback failed: \(text ?? "fatal error")",
                    explanation: meaning, details: ["error": .string(text ?? "")], evidence: evidence, advice: advice
                ), session)
        ]
    }

    /// How far before a fatal line the errors that led to it are looked for.
    static let chainWindow = 120.0

    /// The errors of the same file in the `chainWindow` before a fatal entry (the retries, the
    /// underlying failures), as evidence: the chain a console or an error log tells. Walks back
    /// from the entry (the timeline is in time order), so a session of many fatal lines costs a
    /// window each, not the whole timeline.
    static func chainBefore(_ index: Int, in session: Session) -> [(evidence: Finding.Evidence, error: ErrorInfo)] {
        let fatal = session.entries[index]
        guard let t = fatal.time else { return [] }
        var out: [(evidence: Finding.Evidence, error: ErrorInfo)] = []
        var j = index - 1
        while j >= 0, out.count < 10 {
            let e = session.entries[j]
            j -= 1
            guard let et = e.time else { continue }
            if t.secondsSince1970 - et.secondsSince1970 > chainWindow { break }
            guard et <= t, e.location.file == fatal.location.file, let err = e.statedErrors.first?.error else {
                continue
            }
            out.append((Finding.Evidence(session, j + 1), err))
        }
        return out.reversed()
    }

    /// The last error stated before an entry, in any source.
    static func lastError(before index: Int, in session: Session) -> ErrorInfo? {
        session.entries[..<index].last { !$0.statedErrors.isEmpty }?.statedErrors.first?.error
    }

    /// `AVFoundationErrorDomain -11800 ← NSOSStatusErrorDomain -42669: The operation could not be completed`.
    static func chainTitle(_ err: ErrorInfo) -> String {
        guard err.underlying.count > 0 else { return err.shortText }
        let said = err.chain.reversed().compactMap(\.description).first { !$0.isEmpty }
        return err.chainText + (said.map { ": \($0)" } ?? "")
    }

    /// A failure in a session whose playlists break a requirement at error level (a key the
    /// player cannot use, nothing to play): the stream defect is evidence for it, named first.
    static func withStreamDefects(_ f: Finding, _ session: Session) -> Finding {
        var f = f
        var named: [String] = []
        for (i, e) in session.entries.enumerated() {
            guard case .playlist(let p) = e.record.payload else { continue }
            let broken = p.defects.filter { $0.severity >= .error }
            guard let d = broken.first else { continue }
            f.evidence.append(Finding.Evidence(session, i))
            if named.count < 2 {
                named.append(
                    "\(p.url ?? e.location.file): \(d.requirement.isEmpty ? d.message : d.requirement) (\(d.check))")
            }
        }
        guard !named.isEmpty else { return f }
        let sentence = "The stream itself is broken — " + named.joined(separator: "; ")
        f.explanation = f.explanation.map { sentence + ". " + $0 } ?? sentence
        return f
    }

    /// An error-log row (or a request it was folded into) refusing a content key: HTTP 401/403 on
    /// a key URI (`-12660` is CoreMedia's HTTP 403).
    static func isKeyRefusal(_ e: TimelineEntry) -> Bool {
        guard case .errorLog(let err, let uri) = e.record.payload else {
            if let r = e.record.request, r.kind == .contentKey, let s = r.effectiveStatus {
                return s == 401 || s == 403
            }
            return false
        }
        guard let uri, MediaRequest.guessKind(url: uri) == .contentKey else { return false }
        let status = err.httpStatus ?? (err.code == -12660 ? 403 : nil)
        return status == 401 || status == 403
    }

    /// The error log does not say whether an error was fatal. With the access log beside it, it
    /// can be read off: the last error came after the last period of playing had ended (the last
    /// row's start plus the time it was watched), or nothing was ever watched.
    func fromErrorLog(_ session: Session) -> Finding? {
        var lastError: TimelineEntry?
        var lastPlaying: Timestamp?
        var watched = 0.0
        var rows = 0
        for e in session.entries {
            switch e.record.payload {
            case .errorLog(let err, _):
                // A request the client cancelled, a segment above its declared bandwidth: no
                // failure, so never the error playback ended on (one story with the failures).
                if e.time != nil, !err.isCancellation, !err.isBandwidthAdvisory { lastError = e }
            case .accessLog(let a):
                rows += 1
                let w = a.durationWatched ?? 0
                watched += w
                if let t = e.time { lastPlaying = max(lastPlaying ?? t, t + w) }
            default: break
            }
            for v in e.otherViews where v.format == .errorLog {
                if case .errorLog(let err, _) = v.payload, err.isCancellation || err.isBandwidthAdvisory { continue }
                if e.time != nil { lastError = e }
            }
        }
        guard rows > 0, let error = lastError, let t = error.time else { return nil }
        // The access log knows only what happened before it was dumped (`#Date`): an error after
        // the last dump says nothing about whether playing went on.
        let accessOffset = session.clockOffsets.first { $0.format == .accessLog }?.offset ?? 0
        let lastDump = session.entries.compactMap { e -> Timestamp? in
            if case .accessLog(let a) = e.record.payload, let d = a.dump?.date { return d + accessOffset }
            return nil
        }.max()
        if let lastDump, t > lastDump + 2 { return nil }
        let ended = watched == 0 || (lastPlaying.map { $0 + 2 < t } ?? false)
        // A code that ends the item (rules.md): a content key refused is the last thing the error
        // log says — without its key, no segment of the item can be decrypted, however long the
        // buffer lasted.
        // …unless playing went on well past it (the key was fetched again and the item played on):
        // the buffer lasts a minute at most, and no new stretch (row) may start after it.
        let rowAfter = session.entries.contains { e in
            if case .accessLog = e.record.payload, let rt = e.time { return rt > t }
            return false
        }
        let keyRefused =
            Self.isKeyRefusal(error) && !rowAfter
            && (lastPlaying.map { $0.secondsSince1970 - t.secondsSince1970 <= 60 } ?? true)
        guard ended || keyRefused else { return nil }
        let text: String
        if case .errorLog(let err, _) = error.record.payload {
            text = err.shortText
        } else {
            text = error.record.summary
        }
        let why =
            ended
            ? (watched == 0
                ? "the access log shows nothing was ever played"
                : "the access log shows playing had stopped at \(lastPlaying.map { $0.clockTime } ?? "?") before this error")
            : "the last error is a content key refused, and nothing plays without its key"
        return finding(
            start: t, end: t, title: "Playback failed: \(text)",
            explanation: why + "; the error log itself does not mark errors as fatal",
            details: ["error": .string(text)],
            evidence: [Finding.Evidence(error)],
            advice:
                "Start from the last error: its domain and code (CoreMediaErrorDomain codes map to HTTP statuses, e.g. -12938 is 404) name the failing resource; check that it exists and is reachable from the viewer's network."
        )
    }
}
