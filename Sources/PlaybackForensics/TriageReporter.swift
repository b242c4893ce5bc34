import ForensicsCore
import ForensicsIndex
import ForensicsReports

/// Writes the triage overview: `index.md` (sessions ranked worst first, counts per rule and
/// severity, KPI distributions, errors per CDN host and status) and `triage.json`.
public struct TriageReporter: Sendable {
    /// The same redactor as the run's (`--no-redact` must hold for the overview too).
    public var redactor: Redactor

    public init(redactor: Redactor = Redactor()) { self.redactor = redactor }

    struct Row {
        var bundle: BundleSummary
        var session: BundleSummary.SessionLine
    }

    func rows(_ t: TriageSummary) -> [Row] {
        var rows: [Row] = []
        for b in t.bundles { for s in b.sessions { rows.append(Row(bundle: b, session: s)) } }
        return rows.sorted { a, b in
            let sa = a.session.worst.map { Severity.allCases.firstIndex(of: $0) ?? 0 } ?? -1
            let sb = b.session.worst.map { Severity.allCases.firstIndex(of: $0) ?? 0 } ?? -1
            if sa != sb { return sa > sb }
            if a.session.seriousCount != b.session.seriousCount {
                return a.session.seriousCount > b.session.seriousCount
            }
            let da = a.session.kpis.stallDuration ?? 0
            let db = b.session.kpis.stallDuration ?? 0
            if da != db { return da > db }
            return (a.bundle.name, a.session.id) < (b.bundle.name, b.session.id)
        }
    }

    func ruleCounts(_ t: TriageSummary) -> [(String, [Severity: Int])] {
        var counts: [String: [Severity: Int]] = [:]
        for b in t.bundles {
            for s in b.sessions {
                for (rule, bySeverity) in s.findingCounts {
                    for (sev, n) in bySeverity { counts[rule, default: [:]][sev, default: 0] += n }
                }
            }
        }
        return counts.sorted { $0.key < $1.key }
    }

    func failures(_ t: TriageSummary) -> [(host: String, status: String, count: Int, sessions: Int)] {
        var counts: [String: (Int, Int)] = [:]
        for b in t.bundles {
            for s in b.sessions {
                for (k, n) in s.failures {
                    let c = counts[k] ?? (0, 0)
                    counts[k] = (c.0 + n, c.1 + 1)
                }
            }
        }
        return counts.map { k, v in
            let parts = k.split(separator: "|", maxSplits: 1).map(String.init)
            return (parts.first ?? "", parts.count > 1 ? parts[1] : "", v.0, v.1)
        }.sorted { $0.count != $1.count ? $0.count > $1.count : ($0.host, $0.status) < ($1.host, $1.status) }
    }

    static let kpiNames: [(String, @Sendable (KPIs) -> Double?)] = [
        ("startup_time", { $0.startupTime }),
        ("stall_count", { $0.stallCount.map(Double.init) }),
        ("stall_duration", { $0.stallDuration }),
        ("rebuffer_ratio", { $0.rebufferRatio }),
        ("variant_switch_count", { $0.variantSwitchCount.map(Double.init) }),
        ("error_count", { $0.errorCount.map(Double.init) }),
        ("time_weighted_average_bitrate", { $0.timeWeightedAverageBitrate }),
    ]

    public func markdown(_ t: TriageSummary) -> String {
        let text = MarkdownText(redactor: redactor)
        let rows = rows(t)
        var out = ["# Triage", ""]
        let failed = t.bundles.filter { $0.error != nil && !$0.skipped }
        let skipped = t.bundles.filter(\.skipped)
        let bundles = t.bundles.count - skipped.count
        out.append(
            "\(bundles) bundle\(bundles == 1 ? "" : "s") · \(rows.count) session\(rows.count == 1 ? "" : "s") · \(failed.count) unreadable"
                + (skipped.isEmpty
                    ? ""
                    : " · \(skipped.count) other file\(skipped.count == 1 ? "" : "s") skipped (\(skipped.prefix(5).map { text.escape($0.name) }.joined(separator: ", ")))")
        )
        out.append("")
        out.append(contentsOf: problemsMarkdown(t, rows: rows.count, text: text))
        out.append("## Sessions, worst first")
        out.append("")
        out.append("| # | Bundle | Session | Worst | Top finding | Startup | Stalls |")
        out.append("| --- | --- | --- | --- | --- | --- | --- |")
        for (i, r) in rows.enumerated() {
            let k = r.session.kpis
            out.append(
                "| \(i + 1) | [\(text.escape(r.bundle.name))](bundles/\(r.bundle.file).md) | \(text.escape(r.session.id)) | \(r.session.worst?.rawValue ?? "—") | "
                    + "\(r.session.topRule.map { "`\($0)` " } ?? "")\(text.escape(r.session.topFinding ?? "none")) | \(k.startupTime.map(NumberFormat.seconds) ?? "—") | \(k.stallCount.map(String.init) ?? "unknown") |"
            )
        }
        out.append("")
        out.append("## Findings per rule and severity")
        out.append("")
        out.append("| Rule | critical | error | warning | info |")
        out.append("| --- | --- | --- | --- | --- |")
        for (rule, c) in ruleCounts(t) {
            out.append(
                "| `\(rule)` | \(c[.critical] ?? 0) | \(c[.error] ?? 0) | \(c[.warning] ?? 0) | \(c[.info] ?? 0) |")
        }
        out.append("")
        out.append("## KPI distributions")
        out.append("")
        out.append("| KPI | sessions | median | p90 | p99 |")
        out.append("| --- | --- | --- | --- | --- |")
        for (name, get) in Self.kpiNames {
            let values = rows.compactMap { get($0.session.kpis) }
            func f(_ v: Double?) -> String { v.map { NumberFormat.trimmed($0, decimals: 3) } ?? "—" }
            out.append(
                "| \(name) | \(values.count) | \(f(TriageStatistics.percentile(values, 50))) | \(f(TriageStatistics.percentile(values, 90))) | \(f(TriageStatistics.percentile(values, 99))) |"
            )
        }
        out.append("")
        out.append("## Errors by CDN host and status")
        out.append("")
        let fails = failures(t)
        if fails.isEmpty {
            out.append("No failed requests.")
        } else {
            out.append("| Host | Status | Failed requests | Sessions |")
            out.append("| --- | --- | --- | --- |")
            for f in fails {
                out.append("| \(text.escape(f.host)) | \(text.escape(f.status)) | \(f.count) | \(f.sessions) |")
            }
        }
        out.append("")
        let incomplete = t.bundles.filter { $0.incomplete != nil }
        if !incomplete.isEmpty {
            out.append("## Bundles read in part")
            out.append("")
            for b in incomplete { out.append("- \(text.escape(b.name)): \(text.escape(b.incomplete ?? ""))") }
            out.append("")
        }
        if !failed.isEmpty {
            out.append("## Unreadable bundles")
            out.append("")
            for b in failed { out.append("- \(text.escape(b.name)): \(text.escape(b.error ?? ""))") }
            out.append("")
        }
        return out.joined(separator: "\n") + "\n"
    }

    public func json(_ t: TriageSummary) -> String {
        let rows = rows(t)
        let reporter = JSONReporter(toolVersion: ToolInfo.version)
        return JSONOut.object([
            ("schema_version", .integer(JSONReporter.schemaVersion)),
            JSONReporter.tool(version: ToolInfo.version),
            (
                "bundles",
                .array(
                    t.bundles.map { b in
                        .object([
                            ("name", .string(redactor.redact(b.name))),
                            ("report", .string(b.error == nil ? "bundles/\(redactor.redact(b.file)).json" : "")),
                            ("error", .optional(b.error.map(redactor.redact))),
                            ("sessions", .integer(b.sessions.count)),
                            ("input_problems", .integer(b.inputProblems)), ("skipped", .bool(b.skipped)),
                            ("incomplete", .optional(b.incomplete)),
                        ])
                    })
            ),
            ("problems", .array(t.problems.map(problemJSON))),
            ("sessions_ranked", .array(rows.map { .object(rankedSession($0, reporter: reporter)) })),
            (
                "counts",
                .array(
                    ruleCounts(t).map { rule, c in
                        .object(
                            [("rule_id", .string(rule))] + Severity.allCases.map { ($0.rawValue, .integer(c[$0] ?? 0)) }
                        )
                    })
            ),
            (
                "kpi_distributions",
                .object(
                    Self.kpiNames.map { name, get in
                        let values = rows.compactMap { get($0.session.kpis) }
                        return (
                            name,
                            .object([
                                ("sessions", .integer(values.count)),
                                ("median", .optional(TriageStatistics.percentile(values, 50))),
                                ("p90", .optional(TriageStatistics.percentile(values, 90))),
                                ("p99", .optional(TriageStatistics.percentile(values, 99))),
                            ])
                        )
                    })
            ),
            (
                "errors_by_host",
                .array(
                    failures(t).map { f in
                        .object([
                            ("host", .string(f.host)), ("status", .string(f.status)), ("count", .integer(f.count)),
                            ("sessions", .integer(f.sessions)),
                        ])
                    })
            ),
        ]).render()
    }

    /// The problem groups, most sessions first: what hurts how many users, where, since when, at
    /// what cost, and which bundles to open first.
    func problemsMarkdown(_ t: TriageSummary, rows: Int, text: MarkdownText) -> [String] {
        var out = ["## Problems, most sessions first", ""]
        guard !t.problems.isEmpty else {
            return out + ["No finding in any of the \(rows) session\(rows == 1 ? "" : "s").", ""]
        }
        out.append(
            "A problem is one rule's findings that share their stall cause, CDN host, status, and asset and variant where the rule names them. Startup and rebuffering are medians over the sessions that measured them: affected · the others."
        )
        out.append("")
        out.append(
            "| # | Problem | Worst | Sessions | Bundles | First seen | Last seen | Startup | Rebuffering | Best examples |"
        )
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        func seconds(_ v: Double?) -> String { v.map(NumberFormat.seconds) ?? "—" }
        func percent(_ v: Double?) -> String { v.map { NumberFormat.trimmed($0 * 100, decimals: 1) + " %" } ?? "—" }
        for (i, p) in t.problems.enumerated() {
            let k = p.key
            var what = ["`\(k.ruleID)`"]
            if let c = k.cause { what.append("cause \(text.escape(c))") }
            if let h = k.host { what.append("host \(text.escape(h))") }
            if let s = k.status { what.append(text.escape(s)) }
            if let a = k.asset { what.append("asset \(text.escape(a))") }
            if let v = k.variant { what.append("variant \(BitRateFormat.text(Double(v)))") }
            let examples = p.examples.map { e in
                "[\(text.escape(e.bundle))](bundles/\(e.file).md) (\(e.evidence) record\(e.evidence == 1 ? "" : "s"))"
            }.joined(separator: ", ")
            out.append(
                "| \(i + 1) | \(what.joined(separator: " · ")) | \(p.worst.rawValue) | \(p.sessions) (\(percent(p.share))) | \(p.bundles) | \(p.firstSeen ?? "—") | \(p.lastSeen ?? "—") | \(seconds(p.medianStartupAffected)) · \(seconds(p.medianStartupUnaffected)) | \(percent(p.medianRebufferAffected)) · \(percent(p.medianRebufferUnaffected)) | \(examples) |"
            )
        }
        out.append("")
        return out
    }

    func problemJSON(_ p: ProblemGroup) -> JSONOut {
        let k = p.key
        func rounded(_ v: Double?, _ scale: Double) -> JSONOut { .optional(v.map { ($0 * scale).rounded() / scale }) }
        return .object([
            ("key", .string(k.text)), ("rule_id", .string(k.ruleID)), ("cause", .optional(k.cause)),
            ("host", .optional(k.host)), ("status", .optional(k.status)), ("asset", .optional(k.asset)),
            ("variant", .optional(k.variant)), ("worst_severity", .string(p.worst.rawValue)),
            ("sessions", .integer(p.sessions)), ("share", .number((p.share * 10000).rounded() / 10000)),
            ("bundles", .integer(p.bundles)), ("findings", .integer(p.findings)),
            ("first_seen", .optional(p.firstSeen)), ("last_seen", .optional(p.lastSeen)),
            ("median_startup_affected", rounded(p.medianStartupAffected, 1000)),
            ("median_startup_unaffected", rounded(p.medianStartupUnaffected, 1000)),
            ("median_rebuffer_affected", rounded(p.medianRebufferAffected, 10000)),
            ("median_rebuffer_unaffected", rounded(p.medianRebufferUnaffected, 10000)),
            (
                "examples",
                .array(
                    p.examples.map { e in
                        .object([
                            ("bundle", .string(e.bundle)), ("report", .string("bundles/\(e.file).json")),
                            ("session_id", .string(e.sessionID)), ("evidence", .integer(e.evidence)),
                        ])
                    })
            ),
        ])
    }

    func rankedSession(_ r: Row, reporter: JSONReporter) -> [(String, JSONOut)] {
        [
            ("bundle", .string(redactor.redact(r.bundle.name))), ("session_id", .string(r.session.id)),
            ("worst_severity", .optional(r.session.worst?.rawValue)), ("top_rule_id", .optional(r.session.topRule)),
            ("top_finding", .optional(r.session.topFinding)), ("kpis", reporter.kpis(r.session.kpis)),
        ]
    }

    /// JSON Lines: one ranked session per line, worst first (what `triage.json`'s
    /// `sessions_ranked` holds), each with the schema version and its bundle's report file.
    public func jsonLines(_ t: TriageSummary) -> String {
        let reporter = JSONReporter(toolVersion: ToolInfo.version)
        return rows(t).map { r in
            JSONOut.object(
                [("schema_version", .integer(JSONReporter.schemaVersion))] + rankedSession(r, reporter: reporter)
                    + [("report", .string("bundles/\(redactor.redact(r.bundle.file)).json"))]
            ).renderLine()
        }.joined()
    }
}
