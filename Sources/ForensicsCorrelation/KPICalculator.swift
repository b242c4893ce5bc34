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
        let accessRows = s.entries.compactMap { e -> AccessLogEntry? in
            if case .accessLog(let a) = e.record.payload { return a }
            return nil
        }
        // Startup.
        if let begin = s.startupBegin, let end = s.startupEnd, end.time >= begin.time {
            k.startupTime = end.time - begin.time
            k.provenance["startup_time"] = "timeline"
        } else if let t = s.entries.lazy.compactMap({ $0.record.playerEvent }).first(where: { $0.kind == .initialLikelyToKeepUp })?.timeTaken {
            k.startupTime = t
            k.provenance["startup_time"] = "metric-events"
        } else if let t = summary?.timeSpentInInitialStartup {
            k.startupTime = t
            k.provenance["startup_time"] = "summary-event"
        } else if let t = accessRows.first?.startupTime {
            k.startupTime = t
            k.provenance["startup_time"] = "access-log"
        }
        // Stalls.
        let stalls = s.stalls
        let sessionEnd = s.end
        if !stalls.isEmpty || s.sources.contains(.metricEvents) && summary == nil && accessRows.isEmpty {
            k.stallCount = stalls.count
            k.stallDuration = stalls.reduce(0) { acc, st in
                acc + (st.duration ?? sessionEnd.map { max(0, $0 - st.start) } ?? 0)
            }
            k.provenance["stall_count"] = "timeline"
        } else if let c = summary?.stallCount {
            k.stallCount = c
            k.stallDuration = summary?.timeSpentRecoveringFromStall ?? 0
            k.provenance["stall_count"] = "summary-event"
        } else if !accessRows.isEmpty {
            k.stallCount = accessRows.reduce(0) { $0 + max(0, $1.stalls ?? 0) }
            k.provenance["stall_count"] = "access-log"
        }
        // Playing time.
        if let d = summary?.playbackDuration {
            k.playingTime = d
            k.provenance["playing_time"] = "summary-event"
        } else if accessRows.contains(where: { $0.durationWatched != nil }) {
            k.playingTime = accessRows.reduce(0) { $0 + max(0, $1.durationWatched ?? 0) }
            k.provenance["playing_time"] = "access-log"
        } else if let start = s.startupEnd?.time, let end = sessionEnd, end >= start {
            k.playingTime = max(0, (end - start) - k.stallDuration)
            k.provenance["playing_time"] = "timeline"
        }
        if let playing = k.playingTime, playing + k.stallDuration > 0 {
            k.rebufferRatio = k.stallDuration / (playing + k.stallDuration)
        }
        // Variant switches.
        let switches = s.entries.compactMap { e -> PlayerEvent? in
            guard let p = e.record.playerEvent, p.kind == .variantSwitch, p.didSucceed != false else { return nil }
            return p
        }
        if !switches.isEmpty || s.sources.contains(.metricEvents) && summary?.variantSwitchCount == nil {
            k.variantSwitchCount = switches.count
            k.downswitchCount = switches.filter { p in
                guard let from = p.fromVariant?.bandwidth, let to = p.toVariant?.bandwidth else { return false }
                return to < from
            }.count
            k.provenance["variant_switch_count"] = "timeline"
        } else if let c = summary?.variantSwitchCount {
            k.variantSwitchCount = c
            k.provenance["variant_switch_count"] = "summary-event"
        } else if accessRows.count > 1 {
            var count = 0
            var down = 0
            for (a, b) in zip(accessRows, accessRows.dropFirst()) where a.indicatedBitrate != b.indicatedBitrate {
                count += 1
                if let x = a.indicatedBitrate, let y = b.indicatedBitrate, y < x { down += 1 }
            }
            k.variantSwitchCount = count
            k.downswitchCount = down
            k.provenance["variant_switch_count"] = "access-log"
        }
        // Errors.
        let failures = Self.failures(s)
        k.errorCount = failures.count
        k.fatalError = s.entries.contains { e in
            if case .error(let err) = e.record.payload { return err.didRecover == false }
            return false
        } || (summary?.error.map { $0.didRecover != true } ?? false)
        // Bitrate.
        if let b = summary?.timeWeightedAverageBitrate {
            k.timeWeightedAverageBitrate = b
            k.provenance["time_weighted_average_bitrate"] = "summary-event"
        } else if accessRows.contains(where: { ($0.durationWatched ?? 0) > 0 && $0.indicatedBitrate != nil }) {
            var weighted = 0.0
            var total = 0.0
            for a in accessRows {
                guard let d = a.durationWatched, d > 0, let b = a.indicatedBitrate else { continue }
                weighted += d * b
                total += d
            }
            k.timeWeightedAverageBitrate = (weighted / total).rounded()
            k.provenance["time_weighted_average_bitrate"] = "access-log"
        } else if let b = Self.timelineBitrate(s) {
            k.timeWeightedAverageBitrate = b
            k.provenance["time_weighted_average_bitrate"] = "timeline"
        }
        return k
    }

    /// Distinct failures: failed requests, error events and error-log rows, with an error event
    /// or row that reports a request failure already counted (same URL or within a second) not
    /// counted twice.
    static func failures(_ s: Session) -> [Int] {
        var out: [Int] = []
        var failedRequestTimes: [(Double, String)] = []
        for (i, e) in s.entries.enumerated() {
            if let r = e.record.request, r.failed || e.otherViews.contains(where: { $0.request?.failed == true }) {
                out.append(i)
                failedRequestTimes.append((e.time?.secondsSince1970 ?? 0, URLCanonicalizer.withoutQuery(r.url)))
            }
        }
        for (i, e) in s.entries.enumerated() {
            let t = e.time?.secondsSince1970 ?? 0
            switch e.record.payload {
            case .error(let err):
                let near = failedRequestTimes.contains { abs($0.0 - t) <= 1.5 && err.httpStatus != nil }
                if !near { out.append(i) }
            case .errorLog(_, let uri):
                let u = uri.map(URLCanonicalizer.withoutQuery)
                let near = failedRequestTimes.contains { abs($0.0 - t) <= 2.5 || $0.1 == u }
                if !near { out.append(i) }
            default:
                break
            }
        }
        return out.sorted()
    }

    /// Time-weighted bandwidth of the playing variant over the timeline, when variants are known.
    static func timelineBitrate(_ s: Session) -> Double? {
        guard let start = s.startupEnd?.time, let end = s.end, end > start else { return nil }
        var points: [(Timestamp, Double)] = []
        for e in s.entries {
            guard let t = e.time, let p = e.record.playerEvent else { continue }
            if p.kind == .variantSwitch, p.didSucceed != false, let b = p.toVariant?.bandwidth { points.append((t, b)) }
            if p.kind == .likelyToKeepUp || p.kind == .initialLikelyToKeepUp, let b = p.variant?.bandwidth { points.append((t, b)) }
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
