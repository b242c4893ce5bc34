import ForensicsCore

/// `stall`: every stall, its duration, and its best-supported cause from the look-back window.
package struct StallRule: Rule {
    package struct Options: RuleOptions {
        package var lookBackSeconds: Double = 30
        package var errorSeconds: Double = 5
        package var slowKeySeconds: Double = 0.5
        package var seekSeconds: Double = 5
        package var slowServerSeconds: Double = 1
        package var serverShare: Double = 0.5

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .seconds("look-back-seconds", \.lookBackSeconds, "how far before the stall to look for its cause"),
                .seconds("error-seconds", \.errorSeconds, "a stall longer than this, or unrecovered, is an error"),
                .seconds("slow-key-seconds", \.slowKeySeconds, "a key request slower than this can cause a stall"),
                .seconds("seek-seconds", \.seekSeconds, "a seek this close before the stall explains it"),
                .seconds(
                    "slow-server-seconds", \.slowServerSeconds,
                    "with CDN logs joined: a wait on the origin (miss) or the edge (hit) this long can cause a stall"),
                .ratio(
                    "server-share", \.serverShare,
                    "with CDN logs joined: the share of the client's download time the server's wait must take"),
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "stall", name: "Stall",
        summary: "Playback stalled (ran out of buffer); the finding names the best-supported cause and its evidence.",
        rationale: """
            Rebuffering is what viewers hate most. A stall alone says nothing; the records before it \
            (failed segments, slow downloads, a slow key, a stuck live playlist, a failing local proxy, \
            a seek) say why, and who must act.
            """,
        kind: .playback, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "only the player's summary counts the stalls (no stall event times them)",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    300.0 summary stalls=3 recovering=12.5 duration=300 ◀
                    """),
            RuleExample(
                "the summary counts more stalls than the stall events time (the rest in one finding)",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    30.00 stall
                    34.00 ltku variant=5M
                    300.0 summary stalls=3 recovering=12 duration=300 ◀
                    """),
            RuleExample(
                "404 → 15 Mbit/s → 404 → stall (segment errors)",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=20M
                    24.00 segment https://cdn.example.com/a/v20/s5.ts 404 0.050 dur=6
                    25.00 switch 20M -> 15M
                    28.00 segment https://cdn.example.com/a/v15/s6.ts 404 0.050 dur=6
                    31.00 stall ◀
                    35.10 ltku variant=15M
                    """, cause: "segment-errors"),
            RuleExample(
                "slow downloads (insufficient bandwidth), 7 s stall",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=20M
                    10.00 segment https://cdn.example.com/a/v20/s2.ts 200 9.000 dur=6 bytes=15000000
                    19.00 segment https://cdn.example.com/a/v20/s3.ts 200 9.000 dur=6 bytes=15000000
                    28.00 stall ◀
                    35.00 ltku variant=20M
                    """, cause: "insufficient-bandwidth", severity: .error),
            RuleExample(
                "a seek outside the buffer",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    40.00 seek
                    40.20 stall ◀
                    41.00 ltku variant=5M
                    """, cause: "seek", severity: .info),
            RuleExample(
                "waiting on a slow key rotation",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    58.00 key https://keys.example.com/fps2 200 4.000
                    60.00 stall ◀
                    62.10 ltku variant=5M
                    """, cause: "slow-content-key"),
            RuleExample(
                "a seek the player completed inside the buffer explains nothing",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    40.00 seek
                    40.10 seek-done inbuffer
                    40.20 stall ◀
                    46.60 ltku variant=5M
                    """, cause: "unknown", severity: .error),
            RuleExample(
                "nothing explains it",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    60.00 stall ◀
                    61.00 ltku variant=5M
                    """, cause: "unknown"),
            RuleExample(
                "access and error logs only: 404 → lower variant → 404 → a row counting a stall",
                files: ExampleFixtures.cdn404Logs(stallsInLowerRow: 1, anchor: .lowerRow), cause: "segment-errors",
                severity: .warning),
            RuleExample(
                "access log only: a row counting 2 stalls, observed throughput below the variant's bitrate",
                files: [
                    ExampleFixtures.accessLog([
                        ExampleFixtures.accessRow(
                            at: 0, uri: "https://cdn.example.com/a/v8/index.m3u8", watched: 60, observed: 3_000_000,
                            indicated: 8_000_000, stalls: 2, startup: 1.1, anchor: true)
                    ])
                ], cause: "insufficient-bandwidth"),
            RuleExample(
                "access and error logs only: a live playlist unchanged (-12888) before a row counting a stall",
                files: ExampleFixtures.staleLiveLogs(anchor: true), cause: "stale-live-playlist"),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "smooth playback",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    24.00 segment https://cdn.example.com/a/v5/s5.ts 200 0.500 dur=6
                    90.00 pause
                    """),
            RuleExample(
                "near miss: a pause (rate 0) is not a stall",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    30.00 pause
                    40.00 play
                    """),
            RuleExample(
                "near miss: access and error logs with 404s but every row counts 0 stalls",
                files: ExampleFixtures.cdn404Logs(stallsInLowerRow: 0)),
            RuleExample(
                "near miss: the player's summary counts no stall",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    300.0 summary stalls=0 recovering=0 duration=300
                    """),
        ])

    package func findings(in session: Session) -> [Finding] {
        var out: [Finding] = []
        let stalls = session.analysis.stalls
        if stalls.isEmpty, let counted = summaryStalls(in: session) { return [counted] }
        // Computed once for every stall (each looks up its window in it).
        let failures = stalls.isEmpty ? [] : session.analysis.failures
        let variantBefore = stalls.isEmpty ? [] : session.variantsBefore()
        for (n, stall) in stalls.enumerated() {
            // Past `maxStallFindings`, the rest are one finding: a session with thousands of
            // stalls (often a broken dump) must not make thousands of findings and causes.
            if n == Self.maxStallFindings {
                out.append(Self.remainder(Array(stalls[n...]), in: session, rule: self))
                break
            }
            let stallEntry = session.entries[stall.index]
            // A row with no time on the session's clock (device local time nothing aligned, or
            // no date): counted, but there is no "before" to look back into for a cause.
            let timed = stall.placed
            let candidates = timed ? causes(for: stall, in: session, failures: failures) : []
            let chosen = candidates.first
            let cause = chosen?.cause ?? .unknown
            let duration = stall.duration
            var severity: Severity = .warning
            if stall.recovered == false || (duration ?? 0) > options.errorSeconds { severity = .error }
            if let fixed = cause.severity { severity = fixed }
            var evidence = [Finding.Evidence(stallEntry)]
            evidence.append(contentsOf: (chosen?.entries ?? []).flatMap(Finding.Evidence.all))
            // The server rows behind the cause, quoted: what a CDN partner asks for.
            evidence.append(contentsOf: (chosen?.serverRows ?? []).map(Finding.Evidence.init(serverRow:)))
            if let end = stall.endIndex { evidence.append(Finding.Evidence(session, end)) }
            var details: [String: DetailValue] = [
                "duration": .seconds(duration), "recovered": stall.recovered.map { .bool($0) } ?? .null,
                "look_back_seconds": .number(options.lookBackSeconds),
            ]
            if stall.fromAccessLog { details["stall_count"] = .integer(stall.reportedCount) }
            if variantBefore.indices.contains(stall.index), let v = variantBefore[stall.index]?.bandwidth {
                details["variant_bandwidth"] = .number(v)
            }
            var explanation =
                chosen?.why
                ?? (timed
                    ? "nothing in the \(NumberFormat.trimmed(options.lookBackSeconds, decimals: 1)) s before the stall explains it"
                    : "its row has no time on the session's clock (device local time of an unknown zone, or no date), so nothing before it can be looked at for a cause")
            if candidates.count > 1, let c = chosen {
                // A server-side cause found on the same requests as the client's slow download
                // is where that download's time went, not a competing explanation.
                let serverSide: Set<StallCause> = [.slowOrigin, .slowCDNEdge]
                let same = candidates.dropFirst().filter { o in
                    serverSide.contains(c.cause) && o.cause == .insufficientBandwidth
                        && Set(o.entries.map(\.index)).isSubset(of: Set(c.entries.map(\.index)))
                }
                if !same.isEmpty {
                    explanation +=
                        "; the client saw the same download as slow (insufficient-bandwidth, by its view alone): the server rows show where that time went"
                }
                let others = candidates.dropFirst().filter { o in !same.contains { $0.cause == o.cause } }
                details["competing_causes"] = .strings(others.map(\.cause.rawValue))
                let earliest = candidates.min { $0.first < $1.first }
                let order =
                    earliest?.cause == c.cause
                    ? "it came first (\(c.first.clockTime))"
                    : "\(earliest?.cause.rawValue ?? "") came first (\(earliest?.first.clockTime ?? "")), but \(c.cause.rawValue) is the more direct explanation"
                if !others.isEmpty {
                    explanation +=
                        "; also seen: \(others.map(\.cause.rawValue).joined(separator: ", ")) — chose \(c.cause.rawValue) because \(order)"
                }
            }
            if cause == .unknown {
                let missing = session.missingSources([.metricEvents, .har, .cacheLog, .accessLog, .errorLog])
                details["missing_sources"] = .strings(missing)
                if !missing.isEmpty { explanation += "; missing sources: \(missing.joined(separator: ", "))" }
            }
            let title: String
            if stall.fromAccessLog {
                let times = stall.reportedCount == 1 ? "once" : "\(stall.reportedCount) times"
                let variant =
                    Self.accessRow(session, stall.index)?.indicatedBitrate.map {
                        " on the \(BitRateFormat.text($0)) variant"
                    } ?? ""
                title = "Playback stalled \(times)\(variant) (access log: duration unknown) — cause: \(cause.rawValue)"
                explanation += "; the access log counts stalls per row, not when they began or how long they lasted"
            } else {
                let durationText =
                    duration.map { "for \(NumberFormat.seconds($0))" }
                    ?? (stall.recovered == false
                        ? "and never recovered" : "(how long is unknown: its start or end has no date)")
                title =
                    cause == .seek
                    ? "Playback waited \(durationText) after a seek outside the buffer — cause: seek (not counted as a stall)"
                    : "Playback stalled \(durationText) — cause: \(cause.rawValue)"
            }
            out.append(
                finding(
                    severity: severity, start: timed ? stall.start : nil,
                    end: timed ? stall.end ?? stall.periodEnd : nil,
                    title: title, cause: cause.rawValue, explanation: explanation, details: details,
                    evidence: evidence, subject: Self.subject(chosen), advice: cause.advice))
        }
        // The player's counters saying more than its timed events: the rest in one finding, so
        // that the findings add up to the key figures.
        if let untimed = untimedStalls(in: session, timed: stalls) { out.append(untimed) }
        return out
    }

    /// Stalls the player's summary or access log counts beyond its timed stall events (an app
    /// keeps the event types it chooses): one finding for the rest, when and why unknown.
    func untimedStalls(in session: Session, timed stalls: [Session.Stall]) -> Finding? {
        guard !stalls.isEmpty, !stalls.contains(where: \.fromAccessLog), let total = session.kpis.stallCount,
            total > stalls.count
        else { return nil }
        let fromSummary = session.kpis.provenance[.stallCount] == .summaryEvent
        let evidence = session.entries.indices.filter { i in
            switch session.entries[i].record.payload {
            case .summary: return fromSummary
            case .accessLog(let a): return !fromSummary && (a.stalls ?? 0) > 0
            default: return false
            }
        }.prefix(20).map { Finding.Evidence(session.entries[$0]) }
        guard !evidence.isEmpty else { return nil }
        let more = total - stalls.count
        let counter = fromSummary ? "the player's playback summary" : "the access log"
        return finding(
            severity: .warning, start: nil, end: nil,
            title:
                "\(more) more stall\(more == 1 ? "" : "s") than the stall events show (\(total) in all, as \(counter) counts them) — cause: unknown",
            cause: StallCause.unknown.rawValue,
            explanation:
                "\(counter) counts \(total) stalls, the dump's stall events time \(stalls.count): the rest are counted without saying when, so no cause can be looked for",
            details: ["stall_count": .integer(more)], evidence: evidence, subject: Finding.Subject(),
            advice:
                "Record the player's stall events (AVMetricPlayerItemStallEvent) for the whole playback: they say when each stall began, so its cause can be found."
        )
    }

    /// Stalls only the player's playback summary counts (the dump kept no stall event): one
    /// finding with their count and total time, as the summary gives them — when and why are not
    /// known, and not guessed.
    func summaryStalls(in session: Session) -> Finding? {
        guard let count = session.kpis.stallCount, count > 0, session.kpis.provenance[.stallCount] == .summaryEvent,
            let index = session.entries.lastIndex(where: {
                if case .summary = $0.record.payload { return true } else { return false }
            })
        else { return nil }
        let total = session.kpis.stallDuration
        let severity: Severity =
            (total ?? 0) > options.errorSeconds * Double(count) ? .error : .warning
        let times = count == 1 ? "once" : "\(count) times"
        let spent = total.map { ", \(NumberFormat.seconds($0)) in all" } ?? ""
        return finding(
            severity: severity, start: nil, end: nil,
            title: "Playback stalled \(times)\(spent), as the player's playback summary counts them — cause: unknown",
            cause: StallCause.unknown.rawValue,
            explanation:
                "the playback summary counts stalls without saying when they happened, and the dump holds no stall event that times them, so no cause can be looked for",
            details: ["stall_count": .integer(count), "duration": .seconds(total)],
            evidence: [Finding.Evidence(session.entries[index])], subject: Finding.Subject(),
            advice:
                "Record the player's stall events (AVMetricPlayerItemStallEvent) with the summary, or keep its access log: they say when each stall began, so its cause can be found."
        )
    }

    /// What a stall is about for the fleet view: with server rows behind its cause, the POP that
    /// served them when there is one (one POP bad for many sessions is one problem).
    static func subject(_ chosen: StallCauseEvidence?) -> Finding.Subject {
        var subject = Finding.Subject()
        subject.servedBy((chosen?.serverRows ?? []).compactMap(\.serverRequest))
        return subject
    }

    /// The most stalls of one session that get a finding each.
    package static let maxStallFindings = 100

    /// One finding for the stalls past `maxStallFindings`: how many, and how long in all.
    static func remainder(_ rest: [Session.Stall], in session: Session, rule: StallRule) -> Finding {
        let count = rest.reduce(0) {
            $0.addingReportingOverflow($1.reportedCount).overflow ? Int.max : $0 + $1.reportedCount
        }
        let known = rest.compactMap(\.duration)
        let total = known.reduce(0, +)
        let evidence = rest.prefix(20).map { Finding.Evidence(session, $0.index) }
        return rule.finding(
            severity: .error, start: rest.first?.start, end: rest.last?.end ?? rest.last?.start,
            title: "\(count) more stalls, not listed one by one (\(maxStallFindings) are above)"
                + (known.isEmpty ? "" : " — \(NumberFormat.seconds(total)) stalled in all"),
            cause: StallCause.unknown.rawValue,
            explanation:
                "more than \(maxStallFindings) stalls in one session; their causes are not searched one by one",
            details: ["stall_count": .integer(count), "duration": known.isEmpty ? .null : .number(total)],
            evidence: evidence,
            advice:
                "So many stalls in one session usually means a broken player state or a broken dump: look at the first stalls above and at the KPI table."
        )
    }

    static func accessRow(_ session: Session, _ index: Int) -> AVPlayerAccessLogEntry? {
        guard session.entries.indices.contains(index), case .accessLog(let a) = session.entries[index].record.payload
        else { return nil }
        return a
    }

    /// The most timeline entries a stall's look-back (and its in-flight search) reads.
    package static let maxWindowEntries = 1000

    /// Every cause the detectors find in the stall's look-back window, most direct first.
    /// `failures` is `session.analysis.failures`, in timeline order.
    func causes(for stall: Session.Stall, in session: Session, failures: [Session.Failure]) -> [StallCauseEvidence] {
        var from = stall.start + -options.lookBackSeconds
        // Entries are in time order: walk back from the stall to the start of the window.
        var first = stall.index
        // An access-log stall happened somewhere in its row's period: the window reaches from the
        // preceding row (or the look-back) to the period's end.
        var last = stall.index
        if stall.fromAccessLog {
            var k = stall.index - 1
            while k >= 0 {
                if case .accessLog = session.entries[k].record.payload, let t = session.entries[k].time {
                    from = min(from, t)
                    break
                }
                k -= 1
            }
            if let periodEnd = stall.periodEnd {
                while last + 1 < session.entries.count, let t = session.entries[last + 1].time, t <= periodEnd {
                    last += 1
                }
            }
        }
        // At most `maxWindowEntries` entries before the stall: thousands of events at one instant
        // (a hostile or broken dump) must not make every stall rescan all of them.
        while first > 0, stall.index - first < Self.maxWindowEntries, let t = session.entries[first - 1].time, t >= from
        { first -= 1 }
        last = min(last, stall.index + Self.maxWindowEntries)
        var window = Array(session.entries[first..<stall.index])
        if last > stall.index { window += session.entries[(stall.index + 1)...last] }
        // Requests still in flight when the window opens (a slow key started earlier) count too;
        // looked for among a bounded number of earlier entries.
        var inFlight: [TimelineEntry] = []
        var k = first - 1
        while k >= 0, first - k <= Self.maxWindowEntries, let t = session.entries[k].time, t >= from + -600 {
            let e = session.entries[k]
            if e.record.request != nil, let end = e.endTime, end >= from { inFlight.append(e) }
            k -= 1
        }
        inFlight.reverse()
        // The window's distinct failures of media requests (one per request, however many
        // sources saw it), or error-log rows about media. Binary search for the window's first
        // failure: no rescan of the session per stall.
        var lo = 0
        var hi = failures.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if failures[mid].index < first { lo = mid + 1 } else { hi = mid }
        }
        let windowEnd = last
        let media = failures[lo...].prefix { $0.index <= windowEnd }.filter { f in
            guard f.index != stall.index else { return false }
            if f.isMedia { return true }
            // Error-log rows about playlists are not failed media requests (rules.md).
            if case .errorLog = session.entries[f.index].record.payload {
                return f.kind != .contentKey && f.kind != .mediaPlaylist && f.kind != .multivariantPlaylist
            }
            return false
        }
        let context = StallContext(
            session: session, stall: stall, options: options, window: window, inFlight: inFlight, mediaFailures: media)
        let found = StallCauseDetectors.all.compactMap { $0.detect(context) }
        return found.sorted { $0.cause.precedence < $1.cause.precedence }
    }
}
