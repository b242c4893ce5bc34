import ForensicsCore

/// Computes a session's KPIs (definitions in Documentation/KPIs.md, after CTA-2066), from the
/// best source available for each, and records which source that was in `provenance`.
struct KPICalculator {
    func compute(_ s: Session) -> KPIs {
        var k = KPIs()
        let summary = s.entries.lazy.compactMap { e -> PlaybackSummary? in
            if case .summary(let x) = e.record.payload { return x }
            return nil
        }.last
        let accessRows = s.entries.compactMap { e -> AVPlayerAccessLogEntry? in
            if case .accessLog(let a) = e.record.payload { return a }
            return nil
        }
        // Startup.
        if let begin = s.analysis.startupBegin, let end = s.analysis.startupEnd, end.time >= begin.time {
            k.startupTime = end.time - begin.time
            k.provenance[.startupTime] = .timeline
        } else if let t = s.entries.lazy.compactMap({ $0.record.playerEvent }).first(where: {
            $0.kind == .initialLikelyToKeepUp
        })?.timeTaken {
            k.startupTime = t
            k.provenance[.startupTime] = .metricEvents
        } else if let t = summary?.timeSpentInInitialStartup {
            k.startupTime = t
            k.provenance[.startupTime] = .summaryEvent
        } else if let t = accessRows.first?.startupTime {
            k.startupTime = t
            k.provenance[.startupTime] = .accessLog
        }
        // Stalls: the player's events when a source records them, its summary, else the access log.
        let stalls = s.analysis.stalls
        let sessionEnd = s.end
        // A player's own stall events (metric events, ijkplayer's buffering lines) are timed.
        let timedStalls = !stalls.isEmpty && !stalls.contains(where: \.fromAccessLog)
        let rowStalls = accessRows.reduce(0) { Int.saturatingSum($0, max(0, $1.stalls ?? 0)) }
        if timedStalls
            || (s.capabilities.contains(.playerEvents) && s.stallEventsRecorded && summary?.stallCount == nil
                && rowStalls == 0)
        {
            k.stallCount = stalls.count
            // A stall that never ended lasted at least until the last record: the total is then
            // a lower bound, and says so. With no record after it (or a stall whose start or end
            // has no date) there is no bound at all: unknown, never 0.
            var total: Double? = 0
            for st in stalls {
                if let d = st.duration {
                    total = total.map { $0 + d }
                } else if st.recovered == false, st.placed, let end = sessionEnd, end - st.start > 0 {
                    total = total.map { $0 + (end - st.start) }
                    k.stallDurationIsLowerBound = true
                } else {
                    total = nil
                }
            }
            k.stallDuration = total
            if total == nil { k.stallDurationIsLowerBound = false }
            k.provenance[.stallCount] = .timeline
        } else if let c = summary?.stallCount {
            k.stallCount = max(0, c)
            k.stallDuration = c == 0 ? 0 : summary?.timeSpentRecoveringFromStall
            k.provenance[.stallCount] = .summaryEvent
        } else if accessRows.contains(where: { $0.stalls != nil }) {
            // Rows whose `c-stalls` is missing or out of range tell nothing: with none that
            // tells, the count stays unknown, not 0; with some untold, a count of 0 is unknown
            // too (a higher one is at least that). Every row counts, dated or not.
            let untold = accessRows.contains { $0.stalls == nil && ($0.durationWatched ?? 1) > 0 }
            if !(untold && rowStalls == 0) {
                k.stallCount = rowStalls
                // The access log counts stalls, it does not time them.
                k.stallDuration = rowStalls == 0 ? 0 : nil
                k.provenance[.stallCount] = .accessLog
            }
        }
        // One story when the sources disagree: the player's own counters (its summary, the
        // access log's `c-stalls`) say how many stalls there were when the timed events, or the
        // summary, count fewer — an app keeps the event types it chooses. The larger count
        // stands. The summary gives its total time; the access log times nothing, so what was
        // timed is then a lower bound (a summary's time of 0 bounds nothing: unknown).
        if let counted = k.stallCount {
            let summaryCount = max(0, summary?.stallCount ?? 0)
            if summaryCount > counted, summaryCount >= rowStalls {
                k.stallCount = summaryCount
                k.provenance[.stallCount] = .summaryEvent
                if let total = summary?.timeSpentRecoveringFromStall {
                    k.stallDuration = total
                    k.stallDurationIsLowerBound = false
                } else if k.stallDuration != nil {
                    k.stallDurationIsLowerBound = true
                }
            } else if rowStalls > counted {
                k.stallCount = rowStalls
                k.provenance[.stallCount] = .accessLog
                if let d = k.stallDuration, d > 0 || timedStalls {
                    k.stallDurationIsLowerBound = true
                } else {
                    k.stallDuration = nil
                    k.stallDurationIsLowerBound = false
                }
            }
        }
        // Playing time.
        if let d = summary?.playbackDuration {
            k.playingTime = d
            k.provenance[.playingTime] = .summaryEvent
        } else if accessRows.contains(where: { $0.durationWatched != nil }) {
            k.playingTime = accessRows.reduce(0) { $0 + ($1.durationWatched ?? 0) }
            k.provenance[.playingTime] = .accessLog
        } else if let start = s.analysis.startupEnd?.time, let end = Self.lastKnownTime(s), end >= start {
            k.playingTime = max(0, (end - start) - (k.stallDuration ?? 0))
            k.provenance[.playingTime] = .timeline
        }
        if let playing = k.playingTime, let stalled = k.stallDuration, playing + stalled > 0 {
            k.rebufferRatio = stalled / (playing + stalled)
        }
        // Variant switches: the player's (or its summary's) count, else whatever source can tell.
        let switches = s.analysis.variantSwitches
        if let summaryCount = summary?.variantSwitchCount, switches?.isEmpty ?? true {
            k.variantSwitchCount = max(0, summaryCount)
            if summaryCount <= 0 { k.downswitchCount = 0 }
            k.provenance[.variantSwitchCount] = .summaryEvent
        } else if let switches {
            k.variantSwitchCount = switches.count
            k.downswitchCount = switches.filter(\.isDown).count
            k.provenance[.variantSwitchCount] = (switches.first?.basis ?? Self.switchBasis(s)).provenance
        }
        // Errors: known wherever a source reports failures (an access log alone does not).
        // A console's error lines, once per code and second (the app and the media daemon often
        // log one failure each): errors too, which a dump or HAR beside it may not have kept
        // (review: two timeouts in the console beside a dump read "0 errors"). The larger of the
        // two counts, never their sum: they may tell of the same failures.
        // One failure surfaces several times within seconds (the request's error, then the
        // item's failure wrapping it: -11800 ← -12938): a line sharing a code of its chain with
        // one counted in the 2 s before is the same failure.
        // Undated lines (a Console.app copy) cannot be timed: one sharing a code with an earlier
        // undated error line is counted as the same failure. The count is then a lower bound that
        // never exceeds what the same lines with dates give (probe P: "at least 6" for 2); a
        // failure repeated with the same code is undercounted, which a lower bound allows.
        var stated: [Int] = []
        var lastSeen: [Int: Double] = [:]
        var undatedCodes: Set<Int> = []
        for e in s.entries {
            guard let line = e.record.consoleLine, let err = line.error, line.isAboutPlayback, !err.isCancellation
            else { continue }
            let codes = err.chain.compactMap(\.code)
            let repeated: Bool
            if let t = e.time?.secondsSince1970 {
                repeated = codes.contains { c in lastSeen[c].map { abs(t - $0) <= 2 } ?? false }
                for c in codes { lastSeen[c] = t }
            } else {
                repeated = codes.contains { undatedCodes.contains($0) }
                undatedCodes.formUnion(codes)
            }
            if !repeated { stated.append(stated.count) }
        }
        if s.capabilities.contains(.failures) {
            k.errorCount = max(s.analysis.failures.count, stated.count)
            k.provenance[.errorCount] = .timeline
        } else {
            // No source here reports every failure (a console states those it logged): the ones
            // seen are a lower bound, not the count — and never "unknown" beside findings that
            // count them (probe G).
            let seen = max(s.analysis.failures.count, stated.count)
            if seen > 0 {
                k.errorCount = seen
                k.errorCountIsLowerBound = true
                k.provenance[.errorCount] = .timeline
            }
        }
        // The player's own count of the errors it recovered from (and the one that ended it):
        // when it says more than the timeline shows (a dump that kept no error events), it
        // stands. The larger of the two, never their sum: they count the same errors.
        if let recovered = summary?.recoverableErrorCount, recovered >= 0 {
            let fatal = summary?.error.map { $0.didRecover != true } ?? false
            let counted = Int.saturatingSum(recovered, fatal ? 1 : 0)
            if counted > (k.errorCount ?? -1) {
                k.errorCount = counted
                k.provenance[.errorCount] = .summaryEvent
            }
        }
        if s.capabilities.contains(.fatalErrors) {
            k.fatalError =
                s.entries.contains { e in
                    if case .error(let err) = e.record.payload { return err.didRecover == false }
                    return false
                } || (summary?.error.map { $0.didRecover != true } ?? false)
        }
        // Bitrate.
        if let b = summary?.timeWeightedAverageBitrate {
            k.timeWeightedAverageBitrate = b
            k.provenance[.timeWeightedAverageBitrate] = .summaryEvent
        } else if accessRows.contains(where: { ($0.durationWatched ?? 0) > 0 && $0.indicatedBitrate != nil }) {
            var weighted = 0.0
            var total = 0.0
            for a in accessRows {
                guard let d = a.durationWatched, d > 0, let b = a.indicatedBitrate else { continue }
                weighted += d * b
                total += d
            }
            k.timeWeightedAverageBitrate = (weighted / total).rounded()
            k.provenance[.timeWeightedAverageBitrate] = .accessLog
        } else if let b = Self.timelineBitrate(s) {
            k.timeWeightedAverageBitrate = b
            k.provenance[.timeWeightedAverageBitrate] = .timeline
        }
        return k
    }

    /// The time of the last record this tool understood: an event of a type it does not know
    /// says nothing of playback, so it does not stretch the time played (probe A).
    static func lastKnownTime(_ s: Session) -> Timestamp? {
        s.entries.lazy.filter {
            if case .unknown = $0.record.payload { return false } else { return true }
        }.compactMap { $0.endTime ?? $0.time }.max()
    }

    /// Which source a count of no switches comes from.
    static func switchBasis(_ s: Session) -> Session.VariantSwitch.Basis {
        if s.capabilities.contains(.playerEvents) { return .player }
        return s.capabilities.contains(.variantPeriods) ? .accessLog : .requests
    }

    /// Time-weighted bandwidth of the playing variant over the timeline, when variants are known.
    static func timelineBitrate(_ s: Session) -> Double? {
        guard let start = s.analysis.startupEnd?.time, let end = s.end, end > start else { return nil }
        var points: [(Timestamp, Double)] = []
        for e in s.entries {
            guard let t = e.time, let p = e.record.playerEvent else { continue }
            if p.kind == .variantSwitch, p.didSucceed != false, let b = p.toVariant?.bandwidth { points.append((t, b)) }
            if p.kind == .likelyToKeepUp || p.kind == .initialLikelyToKeepUp, let b = p.variant?.bandwidth {
                points.append((t, b))
            }
        }
        guard let first = points.first else { return nil }
        var weighted = 0.0
        var current = first.1
        var from = max(first.0, start)
        for (t, b) in points.dropFirst() {
            if t > from {
                weighted += (t - from) * current
                from = t
            }
            current = b
        }
        weighted += (end - from) * current
        let total = end - max(first.0, start)
        return total > 0 ? (weighted / total).rounded() : nil
    }
}
