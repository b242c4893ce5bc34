/// Derived playback intervals of a session's timeline, shared by the KPIs and the rules.
extension Session {
    /// The start of startup: the first request (or the first rate change to playing) on the timeline.
    public var startupBegin: (index: Int, time: Timestamp)? {
        for (i, e) in entries.enumerated() {
            guard let t = e.time else { continue }
            if e.record.request != nil { return (i, t) }
            if let p = e.record.playerEvent, p.kind == .rateChange, (p.rate ?? 0) > 0 { return (i, t) }
        }
        return nil
    }

    /// The first likely-to-keep-up: playback could start.
    public var startupEnd: (index: Int, time: Timestamp)? {
        for (i, e) in entries.enumerated() {
            guard let t = e.time, let p = e.record.playerEvent else { continue }
            if p.kind == .initialLikelyToKeepUp || p.kind == .likelyToKeepUp { return (i, t) }
        }
        return nil
    }

    /// Every stall with its end: the next likely-to-keep-up or rate change to playing.
    /// `end` is nil when playback never recovered.
    public var stalls: [Stall] {
        var out: [Stall] = []
        for (i, e) in entries.enumerated() {
            guard let p = e.record.playerEvent, p.kind == .stall, let t = e.time else { continue }
            var end: (Int, Timestamp)?
            var j = i + 1
            while j < entries.count {
                if let q = entries[j].record.playerEvent, let tj = entries[j].time {
                    if q.kind == .likelyToKeepUp || q.kind == .initialLikelyToKeepUp
                        || (q.kind == .rateChange && (q.rate ?? 0) > 0)
                    {
                        end = (j, tj)
                        break
                    }
                    if q.kind == .stall { break }
                }
                j += 1
            }
            out.append(Stall(index: i, start: t, endIndex: end?.0, end: end?.1))
        }
        return out
    }

    /// A stall on the timeline.
    public struct Stall: Sendable, Hashable {
        public var index: Int
        public var start: Timestamp
        public var endIndex: Int?
        public var end: Timestamp?

        public var duration: Double? { end.map { $0 - start } }
    }

    /// The variant playing just before the entry at `index`: scans back to the last successful
    /// switch or likely-to-keep-up that names one.
    public func variant(before index: Int) -> Variant? {
        var k = min(index, entries.count) - 1
        while k >= 0 {
            if let p = entries[k].record.playerEvent {
                if p.kind == .variantSwitch, p.didSucceed != false, let v = p.toVariant { return v }
                if p.kind == .likelyToKeepUp || p.kind == .initialLikelyToKeepUp, let v = p.variant { return v }
            }
            k -= 1
        }
        return nil
    }
}
