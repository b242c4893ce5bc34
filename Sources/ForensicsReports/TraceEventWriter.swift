import ForensicsCore

/// `timeline --trace FILE`: sessions as a Chrome Trace Event Format document (its JSON object
/// form), which ui.perfetto.dev and chrome://tracing open as they are.
///
/// One process per session; in it tracks for the player (startup, stalls, variant switches), the
/// failures, and as many lanes of findings and of requests as overlap: slices on one track must
/// not overlap, and requests in flight together do, so each goes to the first lane free at its
/// start (a Gantt chart's rows). Times are microseconds after the earliest shown entry of the
/// sessions on the same clock: a session in device local time of unknown zone is never lined up
/// against UTC ones, its process says so, and `otherData.origins` gives each clock's origin. A
/// request, finding or stall without an end is an instant event: its length is unknown, never
/// drawn as a guess. Written event by event, never held whole.
package struct TraceEventWriter: Sendable {
    package var redactor: Redactor
    package var since: Timestamp?
    package var until: Timestamp?
    /// Lanes per kind of track; what does not fit is drawn as an instant on the last lane.
    package static let maxLanes = 64

    package init(redactor: Redactor = Redactor(), since: Timestamp? = nil, until: Timestamp? = nil) {
        self.redactor = redactor
        self.since = since
        self.until = until
    }

    /// Thread ids: fixed tracks, then the lanes.
    enum Track {
        static let failures = 2
        static let player = 10
        static let findings = 100
        static let requests = 1000
    }

    func inWindow(_ t: Timestamp) -> Bool {
        if let since, t < since { return false }
        if let until, t > until { return false }
        return true
    }

    /// Writes the trace through `write`, a piece at a time.
    package func trace(
        _ sessions: [(session: Session, findings: [Finding])], into write: (String) throws -> Void
    ) rethrows {
        var origins: [TimeBasis: Timestamp] = [:]
        for item in sessions {
            for t in item.session.entries.lazy.compactMap(\.time) where inWindow(t) {
                let basis = item.session.timeBasis
                origins[basis] = min(origins[basis] ?? t, t)
            }
        }
        let clocks = [TimeBasis.utc, .deviceLocalZoneUnknown].compactMap { basis in
            origins[basis].map { JSONOut.object([("time_basis", .string(basis.label)), ("origin", .time($0, basis))]) }
        }
        var head: [UInt8] = []
        JSONOut.object([
            ("tool", .string("playback-forensics")), ("origins", .array(clocks)),
        ]).writeCompact(into: &head)
        try write(
            "{\"displayTimeUnit\":\"ms\",\"otherData\":\(String(decoding: head, as: UTF8.self)),\"traceEvents\":[\n")
        var first = true
        for (n, item) in sessions.enumerated() {
            guard let origin = origins[item.session.timeBasis] else { continue }
            for event in session(item.session, findings: item.findings, pid: n + 1, origin: origin) {
                var line: [UInt8] = first ? [] : Array(",\n".utf8)
                first = false
                event.writeCompact(into: &line)
                try write(String(decoding: line, as: UTF8.self))
            }
        }
        try write("\n]}\n")
    }

    /// Microseconds after the origin.
    func micros(_ t: Timestamp, _ origin: Timestamp) -> Double { ((t - origin) * 1_000_000).rounded() }

    func metadata(_ name: String, pid: Int, tid: Int? = nil, _ value: String) -> JSONOut {
        var fields: [(String, JSONOut)] = [("name", .string(name)), ("ph", .string("M")), ("pid", .integer(pid))]
        if let tid { fields.append(("tid", .integer(tid))) }
        fields.append(("args", .object([("name", .string(value))])))
        return .object(fields)
    }

    /// A slice from `start` to `end`, or an instant when the end is unknown.
    func event(
        _ name: String, category: String, pid: Int, tid: Int, start: Timestamp, end: Timestamp?, origin: Timestamp,
        args: [(String, JSONOut)]
    ) -> JSONOut {
        var fields: [(String, JSONOut)] = [
            ("name", .string(name)), ("cat", .string(category)), ("pid", .integer(pid)), ("tid", .integer(tid)),
            ("ts", .number(micros(start, origin))),
        ]
        if let end, end >= start {
            fields.append(("ph", .string("X")))
            fields.append(("dur", .number(max(0, micros(end, origin) - micros(start, origin)))))
        } else {
            fields.append(("ph", .string("i")))
            fields.append(("s", .string("t")))
        }
        fields.append(("args", .object(args)))
        return .object(fields)
    }

    /// The first lane whose last slice has ended by `start` (lanes hold their end times), or nil
    /// when every lane is busy and no more may be opened.
    static func lane(for start: Timestamp, end: Timestamp?, in lanes: inout [Timestamp]) -> Int? {
        let until = end ?? start
        if let free = lanes.firstIndex(where: { $0 <= start }) {
            lanes[free] = until
            return free
        }
        guard lanes.count < maxLanes else { return nil }
        lanes.append(until)
        return lanes.count - 1
    }

    func session(_ s: Session, findings: [Finding], pid: Int, origin: Timestamp) -> [JSONOut] {
        let clock = s.timeBasis == .utc ? "" : " (\(s.timeBasis.label))"
        var out: [JSONOut] = [
            metadata("process_name", pid: pid, "session \(redactor.redact(s.id))\(clock)"),
            .object([
                ("name", .string("process_sort_index")), ("ph", .string("M")), ("pid", .integer(pid)),
                ("args", .object([("sort_index", .integer(pid))])),
            ]),
            metadata("thread_name", pid: pid, tid: Track.failures, "Failures"),
        ]
        let a = s.analysis
        // The player: startup and stalls in lanes (a stall may begin before startup ends), switches.
        var playerLanes: [Timestamp] = []
        func playerSlice(
            _ name: String, _ category: String, _ start: Timestamp, _ end: Timestamp?, _ args: [(String, JSONOut)]
        ) {
            let lane = Self.lane(for: start, end: end, in: &playerLanes)
            out.append(
                event(
                    name, category: category, pid: pid, tid: Track.player + (lane ?? max(0, playerLanes.count - 1)),
                    start: start, end: lane == nil ? nil : end, origin: origin, args: args))
        }
        if let begin = a.startupBegin?.time, inWindow(begin) {
            playerSlice("startup", "player", begin, a.startupEnd?.time, [])
        }
        for stall in a.stalls where stall.placed && inWindow(stall.start) {
            playerSlice(
                stall.end == nil ? "stall (duration unknown)" : "stall", "stall", stall.start, stall.end,
                [("recovered", stall.recovered.map { .bool($0) } ?? .null), ("count", .integer(stall.reportedCount))])
        }
        for sw in a.variantSwitches ?? [] where inWindow(sw.time) {
            out.append(
                event(
                    "switch \(BitRateFormat.text(sw.from)) → \(BitRateFormat.text(sw.to))", category: "switch",
                    pid: pid, tid: Track.player, start: sw.time, end: nil, origin: origin, args: []))
        }
        for lane in 0..<max(1, playerLanes.count) {
            out.append(
                metadata("thread_name", pid: pid, tid: Track.player + lane, lane == 0 ? "Player" : "Player \(lane + 1)")
            )
        }
        for f in a.failures {
            guard let t = f.time, inWindow(t) else { continue }
            out.append(
                event(
                    "failed \(f.statusText)", category: "failure", pid: pid, tid: Track.failures, start: t, end: nil,
                    origin: origin, args: [("url", .optional(f.url.map(redactor.redact)))]))
        }
        // Findings, in lanes.
        var findingLanes: [Timestamp] = []
        for f in findings.sorted(by: { ($0.start?.secondsSince1970 ?? 0) < ($1.start?.secondsSince1970 ?? 0) }) {
            guard let start = f.start, inWindow(start) else { continue }
            let lane = Self.lane(for: start, end: f.end, in: &findingLanes)
            out.append(
                event(
                    "\(f.ruleID): \(redactor.redact(f.title))", category: "finding", pid: pid,
                    tid: Track.findings + (lane ?? max(0, findingLanes.count - 1)), start: start,
                    end: lane == nil ? nil : f.end, origin: origin,
                    args: [("severity", .string(f.severity.rawValue)), ("cause", .optional(f.cause))]))
        }
        for lane in findingLanes.indices {
            out.append(metadata("thread_name", pid: pid, tid: Track.findings + lane, "Findings \(lane + 1)"))
        }
        // Requests, in lanes (the timeline is in time order).
        var requestLanes: [Timestamp] = []
        for e in s.entries {
            guard let r = e.record.request, let start = e.time, inWindow(start) else { continue }
            let end = e.endTime.flatMap { $0 >= start ? $0 : nil }
            let lane = Self.lane(for: start, end: end, in: &requestLanes)
            let status = s.mergedRequest(e)?.effectiveStatus
            out.append(
                event(
                    "\(r.kind.rawValue) \(status.map(String.init) ?? (r.error == nil ? "" : "error"))",
                    category: "request", pid: pid, tid: Track.requests + (lane ?? max(0, requestLanes.count - 1)),
                    start: start, end: lane == nil ? nil : end, origin: origin,
                    args: [
                        ("url", .string(redactor.redact(r.url))), ("status", .optional(status)),
                        ("source", .string(redactor.redact(e.location))),
                        ("views", .integer(1 + e.otherViews.count)),
                    ]))
        }
        for lane in requestLanes.indices {
            out.append(metadata("thread_name", pid: pid, tid: Track.requests + lane, "Requests \(lane + 1)"))
        }
        return out
    }
}
