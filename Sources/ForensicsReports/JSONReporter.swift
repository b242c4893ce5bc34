import ForensicsCore

/// The JSON report, per `Documentation/report-json.md` (the team's `shared/spec/report-json.md`, extended; schema_version 1). Every
/// log-derived string goes through the redactor.
package struct JSONReporter: Sendable {
    /// The one schema version of every JSON output (reports, timeline, parse, triage, JSON Lines).
    package static let schemaVersion = 1

    /// The `tool` member every JSON document carries.
    package static func tool(version: String) -> (String, JSONOut) {
        ("tool", .object([("name", .string("playback-forensics")), ("version", .string(version))]))
    }

    package var redactor: Redactor
    package var toolVersion: String

    package init(redactor: Redactor = Redactor(), toolVersion: String) {
        self.redactor = redactor
        self.toolVersion = toolVersion
    }

    package func render(_ report: AnalysisReport) -> String {
        document(report).render()
    }

    package func document(_ report: AnalysisReport) -> JSONOut {
        let (full, rest) = ReportLimits.split(report.sessions, keep: ReportLimits.jsonSessions)
        let verdict = report.verdict
        var members: [(String, JSONOut)] = [
            ("schema_version", .integer(Self.schemaVersion)),
            Self.tool(version: toolVersion),
            (
                "verdict",
                .object(
                    [
                        ("status", .string(verdict.status.rawValue)),
                        ("could_not_judge", .array(verdict.couldNotJudge.map { .string(redactor.redact($0)) })),
                    ]
                        // Present only when --session, --since or --until left sessions out.
                        + (report.sessions.isEmpty
                            ? [] : report.narrowedAway.map { [("scope", .string(redactor.redact($0)))] } ?? []))
            ),
            ("inputs", .array(report.inputs.map(input))),
            ("sessions", .array(full.map(session))),
        ]
        // Present only when sessions were left out (README, Limits): how many, and the ids of those
        // left out, so a consumer can ask for any of them with `--session`.
        if !rest.isEmpty {
            members.append(
                (
                    "sessions_summarised",
                    .object([
                        ("total", .integer(report.sessions.count)), ("in_full", .integer(full.count)),
                        ("left_out", .integer(rest.count)),
                        ("left_out_ids", .array(rest.map { .string($0.session.id) })),
                    ])
                ))
        }
        members.append(("unassigned_records", .integer(report.unassignedRecords)))
        members.append(("diagnostics", .array(report.diagnostics.map(diagnostic))))
        return .object(members)
    }

    func input(_ i: AnalysisReport.Input) -> JSONOut {
        var members: [(String, JSONOut)] = [
            ("path", .string(redactor.redact(i.path))), ("format", .optional(i.format?.rawValue)),
            ("records", .integer(i.records)),
            ("diagnostics", .integer(i.diagnostics)), ("producer", .optional(i.producer)),
        ]
        if let n = i.rowsRead { members.append(("rows_read", .integer(n))) }
        members.append(("not_read", .optional(i.notRead.map { redactor.redact($0.reason) })))
        return .object(members)
    }

    func diagnostic(_ d: Diagnostic) -> JSONOut {
        .object([
            ("file", .string(redactor.redact(d.location.file))), ("line", .integer(d.location.line)),
            ("severity", .string(d.severity.rawValue)),
            ("message", .string(redactor.redact(d.message))),
        ])
    }

    package func session(_ r: AnalysisReport.SessionResult) -> JSONOut {
        let s = r.session
        return .object(
            [
                ("session_id", .string(s.id)),
                ("session_id_source", .string(s.idIsFromLogs ? "logs" : "derived")),
                ("start", .time(s.start, s.timeBasis)), ("end", .time(s.end, s.timeBasis)),
                ("time_basis", .string(s.timeBasis.rawValue)),
                ("asset_url", .optional(s.assetURL.map(redactor.redact))),
                ("sources", .array(s.sources.map { .string($0.rawValue) })),
                ("kpis", kpis(s.kpis)),
                (
                    "clock_offsets",
                    .array(
                        s.clockOffsets.map { o in
                            .object([
                                ("file", .string(redactor.redact(o.file))), ("format", .string(o.format.rawValue)),
                                ("offset", .number((o.offset * 1000).rounded() / 1000)),
                                ("matches", .integer(o.matches)),
                                ("confidence", .string(o.confidence)),
                                ("clock", .string(o.clock.rawValue)),
                                ("inferred_utc_offset", o.inferredZone.map { .integer($0) } ?? .null),
                                ("placed", .bool(!o.unaligned)), ("stated_zone_kept", .bool(o.statedZoneKept)),
                            ])
                        })
                ),
                ("findings", .array(r.findings.map { finding($0, basis: s.timeBasis) })),
            ] + (s.serverJoin.map { [("server_join", serverJoin($0, s))] } ?? []))
    }

    /// What joining server logs found: the offset, the counts, the caveats, and per request the
    /// rows joined to it with their label, key and own time (present only with server logs).
    package func serverJoin(_ j: ServerJoin, _ s: Session) -> JSONOut {
        func ms(_ v: Double?) -> JSONOut { .optional(v.map { ($0 * 1000).rounded() / 1000 }) }
        let requests: [JSONOut] = s.serverViews.keys.sorted().compactMap { i in
            guard s.entries.indices.contains(i), let views = s.serverViews[i], !views.isEmpty else { return nil }
            let e = s.entries[i]
            return .object([
                ("url", .optional(e.record.request.map { redactor.redact($0.url) })),
                ("time", .time(e.time, s.timeBasis)), ("file", .string(redactor.redact(e.location.file))),
                ("line", .integer(e.location.line)),
                (
                    "rows",
                    .array(
                        views.map { v in
                            .object([
                                ("confidence", .string(v.confidence.rawValue)), ("key", .string(v.key.rawValue)),
                                ("aligned_start", .time(v.alignedStart, s.timeBasis)),
                                ("aligned_end", .time(v.alignedEnd, s.timeBasis)),
                                (
                                    "record",
                                    RecordJSON.record(v.record, basis: s.timeBasis, redactor: redactor)
                                ),
                            ])
                        })
                ),
            ])
        }
        return .object([
            ("offset", ms(j.offset)), ("spread", ms(j.spread)), ("pairs", .integer(j.pairs)),
            (
                "joined",
                .object(JoinConfidence.allCases.map { ($0.rawValue, .integer(j.joined[$0] ?? 0)) })
            ),
            ("unmatched_requests", .integer(j.unmatchedRequests)), ("server_rows", .integer(j.serverRows)),
            ("rows_in_window", .integer(j.rowsInWindow)),
            ("caveats", .array(j.caveats.map { .string(redactor.redact($0)) })),
            ("no_match", .optional(j.noMatch.map(redactor.redact))), ("requests", .array(requests)),
        ])
    }

    package func kpis(_ k: KPIs) -> JSONOut {
        var fields: [(String, JSONOut)] = [
            ("startup_time", .optional(k.startupTime.map { ($0 * 1000).rounded() / 1000 })),
            ("stall_count", .optional(k.stallCount)),
            ("stall_duration", .optional(k.stallDuration.map { ($0 * 1000).rounded() / 1000 })),
        ]
        // Only when true: a stall that never ended makes the duration (and ratio) a lower bound.
        if k.stallDurationIsLowerBound { fields.append(("stall_duration_is_lower_bound", .bool(true))) }
        // Only when there were some: waits after a seek outside the buffer, not counted as stalls.
        if k.seekWaitCount > 0 {
            fields.append(("seek_wait_count", .integer(k.seekWaitCount)))
            fields.append(("seek_wait_duration", .optional(k.seekWaitDuration.map { ($0 * 1000).rounded() / 1000 })))
        }
        fields += [
            ("rebuffer_ratio", .optional(k.rebufferRatio.map { ($0 * 10000).rounded() / 10000 })),
            ("variant_switch_count", .optional(k.variantSwitchCount)),
            ("downswitch_count", .optional(k.downswitchCount)),
            ("error_count", .optional(k.errorCount)),
        ]
        // Only when true: the sources state some errors but cannot count them all.
        if k.errorCountIsLowerBound { fields.append(("error_count_is_lower_bound", .bool(true))) }
        fields += [
            ("fatal_error", k.fatalError.map { .bool($0) } ?? .null),
            ("time_weighted_average_bitrate", .optional(k.timeWeightedAverageBitrate.map { $0.rounded() })),
            ("playing_time", .optional(k.playingTime.map { ($0 * 1000).rounded() / 1000 })),
            ("provenance", .object(k.provenanceByName.map { ($0.0, .string($0.1)) })),
        ]
        return .object(fields)
    }

    package func finding(_ f: Finding, basis: TimeBasis = .utc) -> JSONOut {
        .object([
            ("rule_id", .string(f.ruleID)), ("severity", .string(f.severity.rawValue)),
            ("start", .time(f.start, basis)), ("end", .time(f.end, basis)),
            ("title", .string(redactor.redact(f.title))),
            ("cause", .optional(f.cause)),
            ("details", .object(Self.details(f).sorted { $0.key < $1.key }.map { ($0.key, detail($0.value)) })),
            (
                "evidence",
                .array(
                    f.evidence.map { e in
                        .object([
                            ("file", .string(redactor.redact(e.location.file))), ("line", .integer(e.location.line)),
                            ("time", .time(e.time, basis)),
                            ("summary", .string(redactor.redact(e.summary))),
                        ])
                    })
            ),
            ("advice", .string(f.advice)),
        ])
    }

    /// A finding's details as the JSON contract has them: the explanation is one of them.
    static func details(_ f: Finding) -> [String: DetailValue] {
        var all = f.details
        if let e = f.explanation { all["explanation"] = .string(e) }
        return all
    }

    func detail(_ v: DetailValue) -> JSONOut {
        switch v {
        case .number(let d): .number(d)
        case .integer(let i): .integer(i)
        case .string(let s): .string(redactor.redact(s))
        case .bool(let b): .bool(b)
        case .strings(let a): .array(a.map { .string(redactor.redact($0)) })
        case .null: .null
        }
    }
}
