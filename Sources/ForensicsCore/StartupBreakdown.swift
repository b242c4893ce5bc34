/// Where startup time went: the window from the first request (or play) to the first
/// likely-to-keep-up, split into playlist, key and segment phases (each the union of its
/// requests' intervals inside the window, so parallel requests count once) and idle (no request
/// in flight). Phases can overlap each other; the dominant phase is the longest.
public struct StartupBreakdown: Sendable {
    public enum Phase: String, Sendable, CaseIterable {
        case playlist, key, segment, idle
    }

    public var begin: Timestamp
    public var end: Timestamp
    public var beginIndex: Int
    public var endIndex: Int
    public var phases: [Phase: Double]
    /// The longest request of each phase, as evidence.
    public var longest: [Phase: Int]

    public var total: Double { end - begin }

    public var dominant: Phase {
        Phase.allCases.max { (phases[$0] ?? 0) < (phases[$1] ?? 0) } ?? .idle
    }

    /// Computed once per session by the correlator (`SessionAnalysis`); read it there.
    init?(
        _ session: Session, begin window: (index: Int, time: Timestamp)?, end windowEnd: (index: Int, time: Timestamp)?
    ) {
        guard let b = window, let e = windowEnd, e.time >= b.time else { return nil }
        // Without request timing (a proxy console alone) the phases are unknown, not "idle".
        guard session.entries.contains(where: { $0.record.request != nil }) else { return nil }
        begin = b.time
        end = e.time
        beginIndex = b.index
        endIndex = e.index
        var intervals: [Phase: [(Double, Double)]] = [:]
        var longestDuration: [Phase: Double] = [:]
        longest = [:]
        let lo = begin.secondsSince1970
        let hi = end.secondsSince1970
        for (i, entry) in session.entries.enumerated() {
            guard let r = entry.record.request, let s = entry.time?.secondsSince1970 else { continue }
            let f = entry.endTime?.secondsSince1970 ?? s
            guard s < hi, f > lo else { continue }
            let phase: Phase =
                switch r.kind {
                case .multivariantPlaylist, .mediaPlaylist: .playlist
                case .contentKey: .key
                case .segment, .map, .other: .segment
                }
            let clipped = (max(s, lo), min(f, hi))
            intervals[phase, default: []].append(clipped)
            if clipped.1 - clipped.0 > longestDuration[phase] ?? -1 {
                longestDuration[phase] = clipped.1 - clipped.0
                longest[phase] = i
            }
        }
        var phases: [Phase: Double] = [:]
        for p in [Phase.playlist, .key, .segment] { phases[p] = unionLength(intervals[p] ?? []) }
        let busy = unionLength(intervals.values.flatMap { $0 })
        phases[.idle] = max(0, (hi - lo) - busy)
        self.phases = phases
    }
}

/// Union length of intervals (seconds), so overlapping requests of one phase count once.
public func unionLength(_ intervals: [(Double, Double)]) -> Double {
    let sorted = intervals.filter { $0.1 > $0.0 }.sorted { $0.0 < $1.0 }
    var total = 0.0
    var current: (Double, Double)?
    for iv in sorted {
        if let c = current, iv.0 <= c.1 {
            current = (c.0, max(c.1, iv.1))
        } else {
            if let c = current { total += c.1 - c.0 }
            current = iv
        }
    }
    if let c = current { total += c.1 - c.0 }
    return total
}
