import ForensicsCore

/// `timeline --trace FILE`: sessions as a Chrome Trace Event Format document (its JSON object
/// form), which ui.perfetto.dev and chrome://tracing open as they are.
///
/// One process per session; in it a thread ("track") each for the player (startup, stalls,
/// variant switches), the failures, and as many lanes of findings and of requests as overlap:
/// slices on one thread must nest, and requests in flight together do not, so each goes to the
/// first lane free at its start (a Gantt chart's rows). Times are microseconds after the earliest
/// timed entry of the export, so sessions line up; the wall time of that origin is in `otherData`.
/// A request, finding or stall without an end is an instant event: its length is unknown, never
/// drawn as a guess.
package struct TraceEventWriter: Sendable {
    package var redactor: Redactor
    /// Lanes per kind of track; what does not fit is drawn as an instant on the last lane.
    package static let maxLanes = 64

    package init(redactor: Redactor = Redactor()) { self.redactor = redactor }

    /// Thread ids: fixed tracks, then the lanes.
    enum Track {
        static let player = 1
        static let failures = 2
        static let findings = 100
        static let requests = 1000
    }

    package func trace(_ sessions: [(session: Session, findings: [Finding])]) -> String {
        let origin = sessions.flatMap { $0.session.entries.compactMap(\.time) }.min()
        var events: [JSONOut] = []
        for (n, item) in sessions.enumerated() {
            guard let origin else { break }
            events.append(contentsOf: session(item.session, findings: item.findings, pid: n + 1, origin: origin))
        }
        return JSONOut.object([
            ("displayTimeUnit", .string("ms")),
            ("traceEvents", .array(events)),
            (
                "otherData",
                .object([
                    ("tool", .string("playback-forensics")),
                    ("origin", .time(origin, sessions.first?.session.timeBasis ?? .utc)),
                    ("time_basis", .string((sessions.first?.session.timeBasis ?? .utc).label)),
                ])
            ),
        ]).renderLine()
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
        var out: [JSONOut] = [
            metadata("process_name", pid: pid, "session \(redactor.redact(s.id))"),
            .object([
                ("name", .string("process_sort_index")), ("ph", .string("M")), ("pid", .integer(pid)),
                ("args", .object([("sort_index", .integer(pid))])),
            ]),
            metadata("thread_name", pid: pid, tid: Track.player, "Player"),
            metadata("thread_name", pid: pid, tid: Track.failures, "Failures"),
        ]
        let a = s.analysis
        // The player: startup, stalls, switches.
        if let begin = a.startupBegin?.time {
            out.append(
                event(
                    "startup", category: "player", pid: pid, tid: Track.player, start: begin, end: a.startupEnd?.time,
                    origin: origin, args: []))
        }
        for stall in a.stalls {
            out.append(
                event(
                    stall.end == nil ? "stall (duration unknown)" : "stall", category: "stall", pid: pid,
                    tid: Track.player, start: stall.start, end: stall.end, origin: origin,
                    args: [
                        ("recovered", stall.recovered.map { .bool($0) } ?? .null),
                        ("count", .integer(stall.reportedCount)),
                    ]))
        }
        for sw in a.variantSwitches ?? [] {
            out.append(
                event(
                    "switch \(BitRateFormat.text(sw.from)) → \(BitRateFormat.text(sw.to))", category: "switch",
                    pid: pid, tid: Track.player, start: sw.time, end: nil, origin: origin, args: []))
        }
        for f in a.failures {
            guard let t = f.time else { continue }
            out.append(
                event(
                    "failed \(f.statusText)", category: "failure", pid: pid, tid: Track.failures, start: t, end: nil,
                    origin: origin, args: [("url", .optional(f.url.map(redactor.redact)))]))
        }
        // Findings, in lanes.
        var findingLanes: [Timestamp] = []
        for f in findings.sorted(by: { ($0.start?.secondsSince1970 ?? 0) < ($1.start?.secondsSince1970 ?? 0) }) {
            guard let start = f.start else { continue }
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
            guard let r = e.record.request, let start = e.time else { continue }
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
                        ("source", .string(redactor.redact("\(e.location)"))),
                        ("views", .integer(1 + e.otherViews.count)),
                    ]))
        }
        for lane in requestLanes.indices {
            out.append(metadata("thread_name", pid: pid, tid: Track.requests + lane, "Requests \(lane + 1)"))
        }
        return out
    }
}
