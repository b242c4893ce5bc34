import ForensicsCore

/// `timeline`: each session's aligned timeline — relative and wall time, source file:line, the
/// record and the other sources' views of it — as text, JSON, or JSON Lines (one entry per line).
/// Within a time window only the entries in it are shown (untimed ones stay: they cannot be placed).
package struct TimelineReporter: Sendable {
    package var redactor: Redactor
    package var since: Timestamp?
    package var until: Timestamp?

    package init(redactor: Redactor = Redactor(), since: Timestamp? = nil, until: Timestamp? = nil) {
        self.redactor = redactor
        self.since = since
        self.until = until
    }

    func inWindow(_ e: TimelineEntry) -> Bool {
        guard let t = e.time else { return true }
        if let since, t < since { return false }
        if let until, t > until { return false }
        return true
    }

    /// Times in the session's basis: device local times of an unknown zone carry no `Z`
    /// (probe G: `timeline --json` wrote them as UTC while `analyze` did not).
    ///
    /// Another source's view of the entry keeps its own reading: on a UTC timeline, a view from a
    /// file the session moved by a clock offset was read on the device's clock, of no stated zone.
    func entryJSON(
        _ e: TimelineEntry, start: Timestamp?, basis: TimeBasis, offsets: [ClockOffset]
    ) -> [(String, JSONOut)] {
        func viewBasis(_ r: Record) -> TimeBasis {
            guard basis == .utc, let o = offsets.first(where: { $0.file == r.location.file }) else { return basis }
            return o.offset != 0 || o.clock != .utc ? .deviceLocalZoneUnknown : .utc
        }
        return [
            ("time", .time(e.time, basis)),
            ("relative", .optional(e.time.flatMap { t in start.map { (((t - $0) * 1000).rounded()) / 1000 } })),
            ("file", .string(redactor.redact(e.location.file))), ("line", .integer(e.location.line)),
            ("source", .string(e.record.format.rawValue)),
            ("summary", .string(redactor.redact(e.record.summary))),
            ("other_views", .array(e.otherViews.map { .string(redactor.redact($0.location)) })),
            (
                "record",
                RecordJSON.record(
                    e.record, basis: RecordJSON.rawBasis(of: e.record, placedAt: e.time, in: basis), redactor: redactor)
            ),
            ("views", .array(e.otherViews.map { RecordJSON.record($0, basis: viewBasis($0), redactor: redactor) })),
        ]
    }

    package func jsonLines(_ sessions: [Session]) -> String {
        var lines = ""
        for s in sessions {
            for e in s.entries where inWindow(e) {
                lines += JSONOut.object(
                    [
                        ("schema_version", .integer(JSONReporter.schemaVersion)), ("session_id", .string(s.id)),
                        ("time_basis", .string(s.timeBasis.rawValue)),
                    ] + entryJSON(e, start: s.start, basis: s.timeBasis, offsets: s.clockOffsets)
                ).renderLine()
            }
        }
        return lines
    }

    package func json(_ sessions: [Session]) -> String {
        JSONOut.object([
            ("schema_version", .integer(JSONReporter.schemaVersion)),
            (
                "sessions",
                .array(
                    sessions.map { s in
                        let start = s.start
                        return .object([
                            ("session_id", .string(s.id)), ("time_basis", .string(s.timeBasis.rawValue)),
                            (
                                "entries",
                                .array(
                                    s.entries.filter(inWindow).map {
                                        .object(
                                            entryJSON($0, start: start, basis: s.timeBasis, offsets: s.clockOffsets))
                                    })
                            ),
                        ])
                    })
            ),
        ]).render()
    }

    package func text(_ sessions: [Session]) -> String {
        var out: [String] = []
        for s in sessions {
            out.append(
                "Session \(s.id)  (\(s.sources.map(\.rawValue).joined(separator: ", ")))  times: \(s.timeBasis.label)")
            for o in s.clockOffsets where o.matches > 0 && o.offset != 0 {
                out.append(
                    "  clock offset \(redactor.redact(o.file)): \(NumberFormat.trimmed(o.offset, decimals: 3)) s (\(o.matches) matches, \(o.confidence))"
                )
            }
            let start = s.start
            for e in s.entries where inWindow(e) {
                let rel = e.time.flatMap { t in start.map { "+" + NumberFormat.trimmed(t - $0, decimals: 3) } } ?? "?"
                let wall = e.time?.clockTime ?? "--:--:--.---"
                var line =
                    "  \(rel.padded(10)) \(wall)  \(redactor.redact(e.location).padded(36))  \(redactor.redact(e.record.summary))"
                if !e.otherViews.isEmpty {
                    line +=
                        "  [also: \(e.otherViews.map { redactor.redact($0.location) }.joined(separator: ", "))]"
                }
                out.append(line)
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }
}

extension String {
    /// The string with spaces added up to `width` characters (never cut).
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
