import ForensicsCore
import ForensicsIndex
import Foundation
import ForensicsReports

/// Writes the triage overview from the triage index: `index.md` (problems grouped across
/// sessions, sessions worst first, counts per rule and severity, KPI distributions, errors per
/// CDN host and status), `triage.json` and its JSON Lines form.
///
/// Streaming: each writer hands its text to `write` piece by piece while it reads the index, so
/// the overview of 10,000 bundles costs no more memory than that of 1,000.
public struct TriageReporter: Sendable {
    /// The same redactor as the run's (`--no-redact` must hold for the overview too).
    public var redactor: Redactor

    /// The index's aggregates, read once for all the overview's files (`readSummary`); nil reads
    /// them from the index each time.
    public var summary: Summary?

    public init(redactor: Redactor = Redactor()) { self.redactor = redactor }

    /// What every overview file shows besides the ranked sessions: counts, problems, findings per
    /// rule, KPI distributions and failures by host. Why: `index.md`, `triage.json` and
    /// `index.html` each queried them again, and the KPI distributions alone sort every session
    /// once per KPI.
    public struct Summary: Sendable {
        var counts: TriageIndex.Counts
        var problems: [ProblemGroup]
        var ruleCounts: [(rule: String, counts: [Severity: Int])]
        var distributions: [String: (count: Int, values: [Double?])]
        var failures: [(host: String, status: String, count: Int, sessions: Int)]
        var lowerBounds: [String: Int]
    }

    /// Reads the summary once; the reporter then writes every file from it. Take it after the
    /// index's last change.
    public mutating func readSummary(_ index: TriageIndex) throws {
        let distributions = try index.distributions(percentiles: Self.percentiles)
        summary = Summary(
            counts: try index.counts(), problems: try index.problems(), ruleCounts: try index.ruleCounts(),
            distributions: distributions, failures: try index.failuresByHost(), lowerBounds: try index.lowerBounds())
    }

    func counts(_ index: TriageIndex) throws -> TriageIndex.Counts { try summary?.counts ?? index.counts() }
    func problems(_ index: TriageIndex) throws -> [ProblemGroup] { try summary?.problems ?? index.problems() }
    func ruleCounts(_ index: TriageIndex) throws -> [(rule: String, counts: [Severity: Int])] {
        try summary?.ruleCounts ?? index.ruleCounts()
    }
    func distribution(_ index: TriageIndex, _ name: String) throws -> (count: Int, values: [Double?]) {
        try summary?.distributions[name] ?? index.distribution(name, percentiles: Self.percentiles)
    }
    /// How many sessions' values of a KPI are lower bounds ("at least"), 0 for most KPIs.
    func lowerBounds(_ index: TriageIndex, _ name: String) throws -> Int {
        try (summary?.lowerBounds ?? index.lowerBounds())[name] ?? 0
    }
    func failuresByHost(_ index: TriageIndex) throws -> [(host: String, status: String, count: Int, sessions: Int)] {
        try summary?.failures ?? index.failuresByHost()
    }

    static let percentiles: [Double] = [50, 90, 99]

    /// The whole overview as one text (tests, small fleets).
    public func markdown(_ index: TriageIndex) throws -> String {
        var out = ""
        try markdown(index) { out += $0 }
        return out
    }

    /// How many ranked sessions the HTML overview lists (all of them are in `index.md`,
    /// `triage.json` and the index): the page stays small enough to open whatever the fleet.
    public static let htmlSessionLimit = 200

    /// `index.html`: the overview as one self-contained page — problems first, then the worst
    /// `htmlSessionLimit` sessions and the rest of `index.md`. Made from the same Markdown.
    public func html(_ index: TriageIndex) throws -> String {
        var text = ""
        try markdown(index, sessionLimit: Self.htmlSessionLimit, links: "html") { text += $0 }
        return HTMLReporter.page(markdown: text, title: "Playback forensics triage", toolVersion: ToolInfo.version)
    }

    /// `links`: the extension of the bundle reports linked (`md`, or `html` for the page).
    public func markdown(
        _ index: TriageIndex, sessionLimit: Int? = nil, links: String = "md", write: (String) throws -> Void
    ) throws {
        let text = MarkdownText(redactor: redactor)
        let c = try counts(index)
        var skipped: [String] = []
        try index.forEachBundle(.skipped) { if skipped.count < 5 { skipped.append(text.escape($0.name)) } }
        try write("# Triage\n\n")
        try write(
            "\(c.bundles) bundle\(c.bundles == 1 ? "" : "s") · \(c.sessions) session\(c.sessions == 1 ? "" : "s")"
                + (c.played == c.sessions ? "" : " (\(c.played) played or tried to; shares are of these)")
                + " · \(c.unreadable) unreadable"
                + (c.couldNotJudge == 0 ? "" : " · \(c.couldNotJudge) could not be judged")
                + (c.nothingRead == 0 ? "" : " · \(c.nothingRead) with nothing playback-related read")
                + (c.skipped == 0
                    ? ""
                    : " · \(c.skipped) other file\(c.skipped == 1 ? "" : "s") skipped (\(skipped.joined(separator: ", "))\(c.skipped > 5 ? ", …" : ""))")
                + "\n\n")
        try write(
            problemsMarkdown(try problems(index), sessions: c.sessions, text: text, links: links).joined(
                separator: "\n") + "\n")
        try write("## Sessions, worst first\n\n")
        try write("| # | Bundle | Session | Worst | Top finding | Startup | Stalls |\n")
        try write("| --- | --- | --- | --- | --- | --- | --- |\n")
        var rank = 0
        try index.forEachRankedSession(limit: sessionLimit) { r in
            rank += 1
            let k = r.kpis
            try write(
                "| \(rank) | [\(text.escape(r.bundle))](bundles/\(r.file).\(links)) | \(text.escape(r.sessionID)) | \(r.worst?.rawValue ?? "—") | "
                    + "\(r.topRule.map { "`\($0)` " } ?? "")\(text.escape(r.topFinding ?? (r.bundleVerdict == "could-not-judge" ? "none — could not judge everything (see below)" : "none"))) | \(k.startupTime.map(NumberFormat.seconds) ?? "—") | \(k.stallCount.map(String.init) ?? "unknown") |\n"
            )
        }
        var out = [""]
        if let sessionLimit, c.sessions > sessionLimit {
            out += [
                "The other \(c.sessions - sessionLimit) sessions are in index.md and triage.json (`sessions_ranked`).",
                "",
            ]
        }
        out += ["## Findings per rule and severity", ""]
        out.append("| Rule | critical | error | warning | info |")
        out.append("| --- | --- | --- | --- | --- |")
        for (rule, c) in try ruleCounts(index) {
            out.append(
                "| `\(rule)` | \(c[.critical] ?? 0) | \(c[.error] ?? 0) | \(c[.warning] ?? 0) | \(c[.info] ?? 0) |")
        }
        out += [
            "", "## KPI distributions", "",
            "Percentiles by nearest rank over the sessions that measured each KPI (the median of an even count is its lower middle value).",
            "",
        ]
        out.append("| KPI | sessions | median | p90 | p99 |")
        out.append("| --- | --- | --- | --- | --- |")
        for name in TriageIndex.kpiColumns {
            let d = try distribution(index, name)
            func f(_ v: Double?) -> String { v.map { NumberFormat.trimmed($0, decimals: 3) } ?? "—" }
            let atLeast = try lowerBounds(index, name)
            let sessions = atLeast > 0 ? "\(d.count) (\(atLeast) of them at least)" : "\(d.count)"
            out.append("| \(name) | \(sessions) | " + d.values.map(f).joined(separator: " | ") + " |")
        }
        out += ["", "## Errors by CDN host and status", ""]
        let fails = try failuresByHost(index)
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
        try write(out.joined(separator: "\n") + "\n")
        if c.incomplete > 0 {
            try write("## Bundles read in part\n\n")
            try index.forEachBundle(.incomplete) { b in
                try write("- \(text.escape(b.name)): \(text.escape(b.incomplete ?? ""))\n")
            }
            try write("\n")
        }
        if c.couldNotJudge > 0 {
            try write(
                "## Bundles that could not be judged\n\nNo finding at warning level or above, but that is no all-clear: part of the evidence could not be judged.\n\n"
            )
            try index.forEachBundle(.couldNotJudge) { b in
                let reasons = (b.couldNotJudge ?? "").split(separator: "\n").map(String.init)
                let first = reasons.first.map { text.escape($0, limit: 300) } ?? ""
                try write(
                    "- \(text.escape(b.name)): \(first)\(reasons.count > 1 ? " (and \(reasons.count - 1) more)" : "")\n"
                )
            }
            try write("\n")
        }
        if c.nothingRead > 0 {
            try write(
                "## Bundles with nothing playback-related read\n\nRead, but no file in them is a playback source (server logs alone, say): nothing in them was judged.\n\n"
            )
            try index.forEachBundle(.nothingRead) { b in
                let reasons = (b.couldNotJudge ?? "").split(separator: "\n").map(String.init)
                try write("- \(text.escape(b.name)): \(reasons.first.map { text.escape($0, limit: 300) } ?? "")\n")
            }
            try write("\n")
        }
        if c.unreadable > 0 {
            try write("## Unreadable bundles\n\n")
            try index.forEachBundle(.unreadable) { b in
                try write("- \(text.escape(b.name)): \(text.escape(b.error ?? ""))\n")
            }
            try write("\n")
        }
    }

    /// The problem groups, most harm first: what hurts how many users, where, since when, at
    /// what cost, and which bundles to open first.
    func problemsMarkdown(
        _ problems: [ProblemGroup], sessions: Int, text: MarkdownText, links: String = "md"
    ) -> [String] {
        var out = ["## Problems, most harm first", ""]
        guard !problems.isEmpty else {
            return out + ["No finding in any of the \(sessions) session\(sessions == 1 ? "" : "s").", ""]
        }
        out.append(
            "Ranked by harm: each affected session weighed by the problem's worst severity (info 1, warning 3, error 9, critical 27), so a failed playback in a few sessions comes before a warning in many. A problem is one rule's findings that share their stall cause, CDN host and status (then the assets and variants are its spread), or the asset and variant where no host owns it, and the CDN POP and cache result where joined server rows show them; a finding another explains in the same session (a stall caused by failed requests, a down-switch forced by 404s) is listed beneath it as a symptom. Startup and rebuffering are medians over the sessions that measured them: affected · the others (nearest rank, as in the KPI distributions)."
        )
        out.append("")
        out.append(
            "| # | Problem | Worst | Sessions | Bundles | Seen (UTC) | Startup: affected · others | Rebuffering: affected · others | Best examples |"
        )
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        /// `2026-11-21 10:00:00` from the ISO form: the overview needs the second, not the millisecond.
        func short(_ iso: String) -> String {
            String(iso.prefix(19)).replacingOccurrences(of: "T", with: " ")
        }
        func seen(_ p: ProblemGroup) -> String {
            guard let first = p.firstSeen.map(short), let last = p.lastSeen.map(short) else { return "—" }
            return first == last ? first : "\(first) – \(last)"
        }
        func seconds(_ v: Double?) -> String { v.map(NumberFormat.seconds) ?? "—" }
        func percent(_ v: Double?) -> String { v.map { NumberFormat.trimmed($0 * 100, decimals: 1) + " %" } ?? "—" }
        for (i, p) in problems.enumerated() {
            let k = p.key
            var what = ["`\(k.ruleID)`"]
            if let c = k.cause { what.append("cause \(text.escape(c))") }
            if let h = k.host { what.append("host \(text.escape(h))") }
            if let s = k.status { what.append(text.escape(s)) }
            if let a = k.asset { what.append("asset \(text.escape(a))") }
            if let v = k.variant { what.append("variant \(BitRateFormat.text(Double(v)))") }
            if let pop = k.pop { what.append("POP \(text.escape(pop))") }
            if let cache = k.cache { what.append("cache \(text.escape(cache))") }
            if k.host != nil, p.assets + p.variants.count > 0 {
                var spread: [String] = []
                if p.assets > 0 { spread.append("\(p.assets) asset\(p.assets == 1 ? "" : "s")") }
                if !p.variants.isEmpty {
                    spread.append(
                        "variants " + p.variants.map { BitRateFormat.text(Double($0)) }.joined(separator: ", "))
                }
                what.append("across " + spread.joined(separator: ", "))
            }
            if !p.symptoms.isEmpty {
                what.append(
                    "with its symptoms: "
                        + p.symptoms.map {
                            "`\(text.escape($0.key))` (\($0.sessions) session\($0.sessions == 1 ? "" : "s"))"
                        }
                        .joined(separator: "; "))
            }
            let examples = p.examples.map { e in
                "[\(text.escape(e.bundle))](bundles/\(e.file).\(links)) (\(e.evidence) record\(e.evidence == 1 ? "" : "s"))"
            }.joined(separator: ", ")
            out.append(
                "| \(i + 1) | \(what.joined(separator: " · ")) | \(p.worst.rawValue) | \(p.sessions) (\(p.playedSessions == p.sessions ? "" : "\(p.playedSessions) played, ")\(percent(p.share))) | \(p.bundles) | \(seen(p)) | \(seconds(p.medianStartupAffected)) · \(seconds(p.medianStartupUnaffected)) | \(percent(p.medianRebufferAffected)) · \(percent(p.medianRebufferUnaffected)) | \(examples) |"
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
            ("variant", .optional(k.variant)), ("pop", .optional(k.pop)), ("cache", .optional(k.cache)),
            ("worst_severity", .string(p.worst.rawValue)),
            ("sessions", .integer(p.sessions)), ("played_sessions", .integer(p.playedSessions)),
            ("share", .number((p.share * 10000).rounded() / 10000)),
            ("bundles", .integer(p.bundles)), ("findings", .integer(p.findings)),
            ("first_seen", .optional(p.firstSeen)), ("last_seen", .optional(p.lastSeen)),
            ("median_startup_affected", rounded(p.medianStartupAffected, 1000)),
            ("median_startup_unaffected", rounded(p.medianStartupUnaffected, 1000)),
            ("median_rebuffer_affected", rounded(p.medianRebufferAffected, 10000)),
            ("median_rebuffer_unaffected", rounded(p.medianRebufferUnaffected, 10000)),
            (
                "symptoms",
                .array(p.symptoms.map { .object([("key", .string($0.key)), ("sessions", .integer($0.sessions))]) })
            ),
            ("assets", .integer(p.assets)), ("variants", .array(p.variants.map { .integer($0) })),
            (
                "examples",
                .array(
                    p.examples.map { e in
                        .object([
                            ("bundle", .string(redactor.redact(e.bundle))),
                            ("report", .string("bundles/\(redactor.redact(e.file)).json")),
                            ("session_id", .string(e.sessionID)), ("evidence", .integer(e.evidence)),
                        ])
                    })
            ),
        ])
    }

    public func json(_ index: TriageIndex) throws -> String {
        var out = ""
        try json(index) { out += $0 }
        return out
    }

    /// `triage.json`: problems first, then bundles, sessions ranked, counts, KPI distributions and
    /// errors by host. The long arrays are written an element at a time.
    public func json(_ index: TriageIndex, write: (String) throws -> Void) throws {
        // The writer is handed to the array helper's element callback, which is itself a parameter.
        try withoutActuallyEscaping(write) { write in try json(index, escaping: write) }
    }

    private func json(_ index: TriageIndex, escaping write: @escaping (String) throws -> Void) throws {
        let reporter = JSONReporter(toolVersion: ToolInfo.version)
        func field(_ name: String, _ value: JSONOut, last: Bool = false) throws {
            try write(
                "  " + JSONOut.string(name).text(indent: 0) + ": " + value.text(indent: 1) + (last ? "\n" : ",\n"))
        }
        /// `"name": [` … `]`, elements handed over one at a time by `items`.
        func array(_ name: String, _ items: ((JSONOut) throws -> Void) throws -> Void) throws {
            try write("  " + JSONOut.string(name).text(indent: 0) + ": [")
            var first = true
            try items { item in
                try write((first ? "\n    " : ",\n    ") + item.text(indent: 2))
                first = false
            }
            try write(first ? "],\n" : "\n  ],\n")
        }
        try write("{\n")
        try field("schema_version", .integer(JSONReporter.schemaVersion))
        let tool = JSONReporter.tool(version: ToolInfo.version)
        try field(tool.0, tool.1)
        try array("problems") { emit in for p in try problems(index) { try emit(problemJSON(p)) } }
        try array("bundles") { emit in
            try index.forEachBundle { b in
                try emit(
                    .object([
                        ("name", .string(redactor.redact(b.name))),
                        ("report", .string(b.error == nil ? "bundles/\(redactor.redact(b.file)).json" : "")),
                        ("error", .optional(b.error.map(redactor.redact))), ("sessions", .integer(b.sessions)),
                        ("input_problems", .integer(b.inputProblems)), ("skipped", .bool(b.skipped)),
                        ("incomplete", .optional(b.incomplete)), ("verdict", .optional(b.verdict)),
                        (
                            "could_not_judge",
                            .array(
                                (b.couldNotJudge ?? "").split(separator: "\n").map {
                                    .string(redactor.redact(String($0)))
                                })
                        ),
                    ]))
            }
        }
        try array("sessions_ranked") { emit in
            try index.forEachRankedSession { try emit(.object(rankedSession($0, reporter: reporter))) }
        }
        try field(
            "counts",
            .array(
                try ruleCounts(index).map { rule, c in
                    .object(
                        [("rule_id", .string(rule))] + Severity.allCases.map { ($0.rawValue, .integer(c[$0] ?? 0)) })
                }))
        try field(
            "kpi_distributions",
            .object(
                try TriageIndex.kpiColumns.map { name in
                    let d = try distribution(index, name)
                    let atLeast = try lowerBounds(index, name)
                    return (
                        name,
                        .object(
                            [("sessions", .integer(d.count))]
                                + (atLeast > 0 ? [("sessions_lower_bound", .integer(atLeast))] : [])
                                + zip(["median", "p90", "p99"], d.values).map { ($0, .optional($1)) })
                    )
                }))
        try field(
            "errors_by_host",
            .array(
                try failuresByHost(index).map { f in
                    .object([
                        ("host", .string(f.host)), ("status", .string(f.status)), ("count", .integer(f.count)),
                        ("sessions", .integer(f.sessions)),
                    ])
                }), last: true)
        try write("}\n")
    }

    func rankedSession(_ r: TriageIndex.RankedSession, reporter: JSONReporter) -> [(String, JSONOut)] {
        [
            ("bundle", .string(redactor.redact(r.bundle))), ("session_id", .string(r.sessionID)),
            ("worst_severity", .optional(r.worst?.rawValue)), ("top_rule_id", .optional(r.topRule)),
            ("top_finding", .optional(r.topFinding)), ("kpis", reporter.kpis(r.kpis)),
        ]
    }

    /// JSON Lines: one ranked session per line, worst first (what `triage.json`'s
    /// `sessions_ranked` holds), each with the schema version and its bundle's report file.
    public func jsonLines(_ index: TriageIndex, write: (String) throws -> Void) throws {
        let reporter = JSONReporter(toolVersion: ToolInfo.version)
        try index.forEachRankedSession { r in
            try write(
                JSONOut.object(
                    [("schema_version", .integer(JSONReporter.schemaVersion))] + rankedSession(r, reporter: reporter)
                        + [("report", .string("bundles/\(redactor.redact(r.file)).json"))]
                ).renderLine())
        }
    }
}
