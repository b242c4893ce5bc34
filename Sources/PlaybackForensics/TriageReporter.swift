import ForensicsCore
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
