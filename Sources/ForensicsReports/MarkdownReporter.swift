import ForensicsCore

/// The Markdown incident summary: per session a verdict a support engineer can forward, the
/// KPIs, findings by severity with evidence and advice, the startup breakdown, a Mermaid
/// timeline, an excerpt around each finding, the sources, and parse diagnostics in brief.
package struct MarkdownReporter: Sendable {
    package var text: MarkdownText
    package var toolVersion: String
    /// Timeline entries shown around each finding, before and after its anchor.
    package var excerptRadius = 3
    /// How timelines are drawn: Mermaid (GitHub renders it) or the tool's own SVG (the HTML report).
    package var chartStyle: ChartStyle = .mermaid

    package enum ChartStyle: Sendable { case mermaid, svg }

    package init(redactor: Redactor = Redactor(), toolVersion: String) {
        self.text = MarkdownText(redactor: redactor)
        self.toolVersion = toolVersion
    }

    package func render(_ report: AnalysisReport) -> String {
        var out: [String] = []
        out.append("# Playback forensics report")
        out.append("")
        let sessions = report.sessions.count
        out.append(
            "Bundle `\(code(report.bundle))` · \(report.inputs.count) input file\(report.inputs.count == 1 ? "" : "s") · "
                + "\(sessions) session\(sessions == 1 ? "" : "s") · playback-forensics \(toolVersion)")
        out.append("")
        let verdict = report.verdict
        out.append(contentsOf: bundleVerdict(verdict, report: report))
        if report.sessions.isEmpty, let why = report.narrowedAway {
            out.append("No session to report: \(text.escape(why, limit: 500)).")
            out.append("")
        } else if let scope = report.narrowedAway {
            out.append("**Scope:** \(text.escape(scope, limit: 500)).")
            out.append("")
        } else if report.sessions.isEmpty, verdict.status != .nothingRead {
            out.append("No playback session could be built from this bundle: see the inputs and diagnostics below.")
            out.append("")
        }
        let (full, rest) = ReportLimits.split(report.sessions, keep: ReportLimits.detailedSessions)
        out.append(contentsOf: sessionsTable(full))
        if !rest.isEmpty {
            out.append(
                "This bundle has \(sessions) sessions: the \(full.count) worst are reported in full below, the other \(rest.count) are summarised under \"Other sessions\" (Limits in the README). All sessions by worst finding: \(ReportLimits.severityCounts(report.sessions))."
            )
            out.append("")
        }
        for result in full {
            out.append(contentsOf: session(result, judgedAll: verdict.couldNotJudge.isEmpty))
        }
        out.append(contentsOf: otherSessions(rest))
        out.append(contentsOf: inputs(report))
        out.append(contentsOf: diagnostics(report))
        return out.joined(separator: "\n") + "\n"
    }

    /// A bundle of several sessions opens with them in one table, worst first, each linked to
    /// its section: which one to read first, without scrolling through every report.
    func sessionsTable(_ full: [AnalysisReport.SessionResult]) -> [String] {
        guard full.count > 1 else { return [] }
        var out = [
            "## Sessions", "", "| # | Session | Start | Length | Worst finding | Startup | Stalls | Errors |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        // Anchors in the order the sections come (a repeated slug gets -1, -2 as on GitHub);
        // rows worst first.
        var used = MarkdownAnchor.Used()
        let anchors = full.map { used.next(sessionAnchor($0.session)) }
        let order = full.indices.sorted { a, b in
            let (x, y) = (ReportLimits.worst(full[a])?.rank ?? -1, ReportLimits.worst(full[b])?.rank ?? -1)
            return x != y ? x > y : a < b
        }
        for (n, i) in order.enumerated() {
            let r = full[i]
            let s = r.session
            let worst = r.findings.min(by: Finding.severityFirst)
            let finding = worst.map { "\(Self.icon($0.severity)) \(text.escape($0.title, limit: 160))" } ?? "none"
            var length = "unknown"
            if let a = s.start, let b = s.end { length = NumberFormat.seconds(b - a) }
            let k = s.kpis
            out.append(
                "| \(n + 1) | [`\(code(s.id))`](#\(anchors[i])) | \(s.start.map { $0.iso8601(s.timeBasis) } ?? "unknown") | \(length) | \(finding) | \(k.startupTime.map(NumberFormat.seconds) ?? "unknown") | \(k.stallCount.map(String.init) ?? "unknown") | \(k.errorCount.map { (k.errorCountIsLowerBound ? "≥ " : "") + String($0) } ?? "unknown") |"
            )
        }
        out.append("")
        return out
    }

    /// The session heading's anchor (`## Session ID`).
    func sessionAnchor(_ s: Session) -> String {
        MarkdownAnchor.slug("Session " + code(s.id).replacingOccurrences(of: "\\", with: ""))
    }

    /// Text inside a code span: backticks cannot appear, so they are replaced.
    /// Text for inside a code span in a table cell (file names, session ids: they come from the
    /// bundle, so an archive member can be named anything). Scalar by scalar, so that a combining
    /// mark cannot hide a character from the replacement: a backtick would end the span, a `|`
    /// splits a table cell even inside a span (GFM), a line end would start a new block.
    func code(_ s: String) -> String { codeSpan(text.redactor.redact(s)) }

    /// A `file:line` citation in a code span: the path redacted, never the line (`Redactor`).
    func code(_ location: SourceLocation) -> String { codeSpan(text.redactor.redact(location)) }

    /// Text already redacted, made safe inside a code span of a table cell.
    func codeSpan(_ redacted: String) -> String {
        var out = String.UnicodeScalarView()
        for u in redacted.unicodeScalars {
            switch u {
            case "`": out.append("'")
            case "|":
                out.append("\\")
                out.append("|")
            default:
                out.append(u.value < 0x20 || u.value == 0x7F ? " " : u)
            }
        }
        return String(out)
    }

    /// The verdict over the whole bundle: what was found, or what could not be judged and why.
    func bundleVerdict(_ v: BundleVerdict, report: AnalysisReport) -> [String] {
        var out: [String] = []
        // Narrowed to some sessions, the verdict is the selection's (the scope line says so).
        let label =
            !report.sessions.isEmpty && report.narrowedAway != nil ? "Verdict on the selection" : "Bundle verdict"
        switch v.status {
        case .problemsFound:
            let affected = report.sessions.filter { ($0.worstSeverity ?? .info) >= .warning }.count
            // The worst may be a finding the filters hide: said, so that "problems found" beside
            // no finding shown reads as what it is (probe N).
            let shownWorst = report.sessions.flatMap(\.findings).map(\.severity).max()
            let hidden = report.worstSeverity.map { w in shownWorst.map { $0 < w } ?? true } ?? false
            let worst =
                report.worstSeverity.map { " (worst: \($0.rawValue)\(hidden ? ", in findings the filters hide" : ""))" }
                ?? ""
            out.append(
                "**\(label): problems found** in \(affected) of \(report.sessions.count) session\(report.sessions.count == 1 ? "" : "s")\(worst)."
            )
        case .noProblemFound:
            out.append(
                "**\(label): no problem found** — every file was read and judged, and no finding reached warning level."
            )
        case .couldNotJudge:
            out.append(
                "**\(label): could not judge everything** — no finding at warning level or above in what was read, but that is no all-clear:"
            )
        case .nothingRead:
            out.append("**\(label): nothing to judge** — no playback evidence was read:")
        }
        if !v.couldNotJudge.isEmpty {
            if v.status == .problemsFound {
                out.append("")
                out.append("Could not judge:")
            }
            out.append("")
            for reason in v.couldNotJudge.prefix(20) { out.append("- " + text.escape(reason, limit: 400)) }
            if v.couldNotJudge.count > 20 { out.append("- and \(v.couldNotJudge.count - 20) more") }
        }
        out.append("")
        return out
    }

    func session(_ r: AnalysisReport.SessionResult, judgedAll: Bool = true) -> [String] {
        let s = r.session
        var out: [String] = []
        out.append("## Session `\(code(s.id))`")
        out.append("")
        var facts: [String] = []
        if let start = s.start { facts.append("from \(start.iso8601(s.timeBasis))") }
        if let end = s.end { facts.append("to \(end.iso8601(s.timeBasis))") }
        if s.timeBasis != .utc {
            facts.append("times are \(s.timeBasis.label) (no source to align them to; state it with `--timezone`)")
        }
        if let asset = s.assetURL { facts.append("asset \(text.escape(asset))") }
        // Which app a console told of this playback (a console holds every app's).
        var processes: Set<String> = []
        for e in s.entries {
            if let p = e.record.consoleLine?.process, !ConsoleLine.mediaProcesses.contains(p) { processes.insert(p) }
        }
        if !processes.isEmpty {
            let shown = processes.sorted().prefix(3).map { "`\(code($0))`" }.joined(separator: ", ")
            facts.append("console process\(processes.count == 1 ? "" : "es") \(shown)")
        }
        if !facts.isEmpty {
            out.append(facts.joined(separator: " · "))
            out.append("")
        }
        out.append("**Verdict:** " + verdict(r, judgedAll: judgedAll))
        out.append("")
        out.append(contentsOf: kpiTable(s.kpis))
        out.append(contentsOf: findings(r))
        if let join = s.serverJoin { out.append(contentsOf: serverSide(join, r)) }
        if let b = s.analysis.startup { out.append(contentsOf: startupTable(b)) }
        out.append(contentsOf: gantt(s, findings: r.findings))
        out.append(contentsOf: sources(s))
        return out
    }

    /// The evidence packet for a CDN partner: how the server logs were joined (the clock offset
    /// and its spread, rows per label, what the logs do not cover), then every server row a
    /// finding cites — the CDN's request id first, what the client saw, the label and key, and
    /// the row verbatim with its file and line.
    func serverSide(_ j: ServerJoin, _ r: AnalysisReport.SessionResult) -> [String] {
        var out = ["### Server side (CDN logs)", ""]
        let labels = JoinConfidence.allCases.compactMap { c in j.joined[c].map { "\($0) \(c.rawValue)" } }
        var facts = [
            "\(j.serverRows) server row\(j.serverRows == 1 ? "" : "s") read, \(j.rowsInWindow) in the session's time",
            labels.isEmpty ? "no request joined" : "requests joined: " + labels.joined(separator: ", "),
            "\(j.unmatchedRequests) request\(j.unmatchedRequests == 1 ? "" : "s") without a server row",
        ]
        if let o = j.offset {
            facts.append(
                "server clock \(NumberFormat.trimmed(abs(o), decimals: 3)) s \(o < 0 ? "ahead of" : "behind") the device (± \(NumberFormat.trimmed(j.spread ?? 0, decimals: 3)) s, from \(j.pairs) exact or strong pair\(j.pairs == 1 ? "" : "s"))"
            )
        }
        out.append(facts.joined(separator: " · ") + ".")
        out.append("")
        if let why = j.noMatch { out += ["**No match:** \(text.escape(why)).", ""] }
        for c in j.caveats { out += ["- Caveat: \(text.escape(c))"] }
        if !j.caveats.isEmpty { out.append("") }
        // The rows the findings cite, once each, in the order cited.
        var seen = Set<SourceLocation>()
        var rows: [(JoinedServerRow, TimelineEntry)] = []
        for f in r.findings {
            for e in f.evidence {
                guard let i = e.timelineIndex, r.session.entries.indices.contains(i) else { continue }
                let entry = r.session.entries[i]
                for v in r.session.serverViews[i] ?? []
                where v.record.location == e.location && seen.insert(e.location).inserted {
                    rows.append((v, entry))
                }
            }
        }
        guard !rows.isEmpty else { return out }
        out += [
            "Rows behind the findings (hand these to the CDN):", "",
            "| CDN request id | POP | Server | Client | Join | Row |", "| --- | --- | --- | --- | --- | --- |",
        ]
        for (v, entry) in rows {
            guard let s = v.serverRequest else { continue }
            var server =
                "\(s.status.map(String.init) ?? (s.clientClosed ? "000" : "—")) \(s.cacheResultRaw ?? s.cacheResult.rawValue)"
            if let fb = s.firstByte { server += ", first byte \(NumberFormat.seconds(fb))" }
            if let lb = s.lastByte { server += ", total \(NumberFormat.seconds(lb))" }
            if let ofb = s.originFirstByte { server += ", origin \(NumberFormat.seconds(ofb))" }
            if let d = s.detail, d != s.cacheResultRaw { server += ", \(d)" }
            var client = entry.time?.clockTime ?? "—"
            if let q = entry.record.request {
                client += " \(q.effectiveStatus.map(String.init) ?? "—")"
                if let d = q.duration { client += " in \(NumberFormat.seconds(d))" }
            }
            out.append(
                "| `\(code(s.requestID ?? "—"))` | \(text.escape(s.pop ?? "—")) | \(text.escape(server)) | \(text.escape(client)) | \(v.confidence.rawValue) by \(v.key.rawValue) | `\(code(v.record.location))` |"
            )
        }
        out.append("")
        // Verbatim, in a fence longer than any run of backticks in the rows (nothing closes it).
        let raws = rows.compactMap { v, _ in
            v.serverRequest.map { (v.record.location, Self.visible(text.redactor.redact($0.raw))) }
        }
        let fence = String(repeating: "`", count: max(3, (raws.map { Self.longestBacktickRun($0.1) }.max() ?? 0) + 1))
        out += ["<details><summary>The rows as logged</summary>", "", fence]
        for (location, raw) in raws {
            out.append("# \(code(location))")
            out.append(raw)
        }
        out += [fence, "", "</details>", ""]
        return out
    }

    /// Tabs kept, other control characters shown as spaces.
    static func visible(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            out.append(u == "\t" || (u.value >= 0x20 && u.value != 0x7F) ? u : " ")
        }
        return String(out)
    }

    static func longestBacktickRun(_ s: String) -> Int {
        var best = 0
        var run = 0
        for b in s.utf8 {
            run = b == UInt8(ascii: "`") ? run + 1 : 0
            best = max(best, run)
        }
        return best
    }

    /// `judgedAll`: false when part of the bundle's evidence could not be judged, so that a
    /// session without findings is never called an all-clear.
    func verdict(_ r: AnalysisReport.SessionResult, judgedAll: Bool = true) -> String {
        let k = r.session.kpis
        let serious = r.findings.filter { $0.severity >= .warning }.sorted(by: Finding.severityFirst)
        var basics: [String] = []
        if let t = k.startupTime { basics.append("startup \(NumberFormat.seconds(t))") }
        basics.append(Self.count(k.stallCount, "stall", "stalls"))
        basics.append(Self.count(k.variantSwitchCount, "variant switch", "variant switches"))
        basics.append((k.errorCountIsLowerBound ? "at least " : "") + Self.count(k.errorCount, "error", "errors"))
        guard let worst = serious.first else {
            // Findings the reader's filters (`--min-severity`, `--since`) left out still stand:
            // the figures they explain are not "unexplained", and their worst is said.
            if let hidden = r.hiddenWorst {
                return
                    "No finding shown here: the filters asked for hide this session's findings (the worst hidden: \(hidden.rawValue)). Overall: \(basics.joined(separator: ", "))."
            }
            // Never "no problem" while stalls or errors are known and no finding explains them —
            // the bundle verdict's test (`Analyzer.unexplained`): a stall by a `stall` finding of
            // any severity (a seek's, at info), errors by any other finding.
            let stallExplained = r.findings.contains { $0.ruleID == "stall" }
            let otherFinding = r.findings.contains { $0.ruleID != "stall" }
            let unexplained =
                ((k.stallCount ?? 0) > 0 && !stallExplained)
                || (((k.errorCount ?? 0) > 0 || k.fatalError == true) && !otherFinding)
            if unexplained {
                return
                    "No rule explains what the figures show (\(basics.joined(separator: ", "))): see the key figures and the timeline."
            }
            let known = (k.stallCount ?? 0) > 0 || (k.errorCount ?? 0) > 0 || k.fatalError == true
            // The stall's own finding when there is a stall, else the first: the one that explains.
            let explaining =
                (k.stallCount ?? 0) > 0 ? r.findings.first { $0.ruleID == "stall" } : nil
            if known, let info = explaining ?? r.findings.sorted(by: Finding.severityFirst).first {
                let explained = "what the figures show is explained at info level: \(text.escape(info.title))"
                guard judgedAll else {
                    return
                        "No finding at warning level or above in what could be judged (\(basics.joined(separator: ", "))); \(explained). Part of the evidence could not be judged: see the bundle verdict above."
                }
                return "No problem found at warning level or above (\(basics.joined(separator: ", "))); \(explained)."
            }
            guard judgedAll else {
                return
                    "No finding at warning level or above in what could be judged (\(basics.joined(separator: ", "))); part of the evidence could not be judged: see the bundle verdict above."
            }
            return "No problem found at warning level or above (\(basics.joined(separator: ", ")))."
        }
        var sentence = "\(text.escape(worst.title)) (\(worst.severity.rawValue))."
        if let e = worst.explanation { sentence += " Why: \(text.escape(e))." }
        let others = serious.dropFirst().prefix(3).map { text.escape($0.title) }
        if !others.isEmpty { sentence += " Also: " + others.joined(separator: "; ") + "." }
        let more = serious.count - 1 - others.count
        if more > 0 { sentence += " And \(more) more finding\(more == 1 ? "" : "s") below." }
        sentence += " Overall: \(basics.joined(separator: ", "))."
        return sentence
    }

    /// `1 stall`, `3 stalls`, `stalls unknown`.
    static func count(_ n: Int?, _ one: String, _ many: String) -> String {
        guard let n else { return "\(many) unknown" }
        return "\(n) \(n == 1 ? one : many)"
    }

    func kpiTable(_ k: KPIs) -> [String] {
        func src(_ key: KPIs.Measure) -> String { k.provenance[key]?.rawValue ?? "—" }
        var rows = ["| KPI | Value | From |", "| --- | --- | --- |"]
        rows.append(
            "| Startup time | \(k.startupTime.map(NumberFormat.seconds) ?? "unknown") | \(src(.startupTime)) |")
        let stalls: String
        if let n = k.stallCount {
            stalls =
                "\(n) (\(k.stallDuration.map { (k.stallDurationIsLowerBound ? "at least " : "") + NumberFormat.seconds($0) } ?? "duration unknown"))"
        } else {
            stalls = "unknown"
        }
        rows.append("| Stalls | \(stalls) | \(src(.stallCount)) |")
        if k.seekWaitCount > 0 {
            let waited = k.seekWaitDuration.map(NumberFormat.seconds) ?? "duration unknown"
            rows.append(
                "| Waits after a seek (not stalls) | \(k.seekWaitCount) (\(waited)) | \(src(.stallCount)) |")
        }
        rows.append(
            "| Rebuffer ratio | \(k.rebufferRatio.map { (k.stallDurationIsLowerBound ? "at least " : "") + NumberFormat.trimmed($0 * 100, decimals: 2) + " %" } ?? "unknown") | \(k.rebufferRatio == nil ? "—" : src(.playingTime)) |"
        )
        let switches =
            k.variantSwitchCount.map { "\($0) (\(k.downswitchCount.map(String.init) ?? "unknown"))" } ?? "unknown"
        rows.append("| Variant switches (down) | \(switches) | \(src(.variantSwitchCount)) |")
        let errors =
            k.errorCount.map {
                "\(k.errorCountIsLowerBound ? "at least " : "")\($0)\(k.fatalError == true ? ", fatal" : "")"
            }
            ?? "unknown"
        rows.append("| Errors | \(errors) | \(src(.errorCount)) |")
        rows.append(
            "| Time-weighted average bitrate | \(k.timeWeightedAverageBitrate.map(BitRateFormat.text) ?? "unknown") | \(src(.timeWeightedAverageBitrate)) |"
        )
        rows.append(
            "| Playing time | \(k.playingTime.map(NumberFormat.seconds) ?? "unknown") | \(src(.playingTime)) |")
        return ["### Key figures", ""] + rows + [""]
    }

    static func icon(_ s: Severity) -> String {
        switch s {
        case .critical: "🟥 critical"
        case .error: "🔴 error"
        case .warning: "🟠 warning"
        case .info: "🔵 info"
        }
    }

    func findings(_ r: AnalysisReport.SessionResult) -> [String] {
        var out = ["### Findings", ""]
        if r.findings.isEmpty {
            // Findings the filters hid are not "no findings" (probe M: under a verdict of
            // problems found).
            out.append(
                r.hiddenWorst.map {
                    "No finding shown: the filters asked for hide this session's findings (the worst hidden: \($0.rawValue))."
                }
                    ?? "No findings.")
            out.append("")
            return out
        }
        let ordered = r.findings.sorted(by: Finding.severityFirst)
        if ordered.count > ReportLimits.findingsPerSession {
            var byRule: [String: Int] = [:]
            for f in ordered.dropFirst(ReportLimits.findingsPerSession) { byRule[f.ruleID, default: 0] += 1 }
            out.append(
                "\(ordered.count) findings: the \(ReportLimits.findingsPerSession) most severe are shown; the other \(ordered.count - ReportLimits.findingsPerSession) are counted (\(byRule.sorted { $0.key < $1.key }.map { "\($0.value) `\($0.key)`" }.joined(separator: ", "))) — every one is in the JSON report."
            )
            out.append("")
        }
        for f in ordered.prefix(ReportLimits.findingsPerSession) {
            out.append("#### \(Self.icon(f.severity)) · `\(f.ruleID)` — \(text.escape(f.title))")
            out.append("")
            var when: [String] = []
            if let s = f.start { when.append("from \(s.iso8601(r.session.timeBasis))") }
            if let e = f.end, e != f.start { when.append("to \(e.iso8601(r.session.timeBasis))") }
            if f.start == nil, f.end == nil { when.append("time unknown") }
            if let c = f.cause { when.append("cause **\(c)**") }
            if !when.isEmpty {
                out.append(when.joined(separator: " · "))
                out.append("")
            }
            if let e = f.explanation {
                out.append("Why: \(text.escape(e)).")
                out.append("")
            }
            out.append("| Time | Source | Record |")
            out.append("| --- | --- | --- |")
            for e in f.evidence.prefix(12) {
                out.append(
                    "| \(e.time?.clockTime ?? "—") | `\(code(e.location))` | \(text.escape(e.summary, limit: 200)) |"
                )
            }
            if f.evidence.count > 12 { out.append("| | | … \(f.evidence.count - 12) more records |") }
            out.append("")
            out.append("**Advice:** \(text.escape(f.advice, limit: 2000))")
            out.append("")
            out.append(contentsOf: excerpt(r.session, around: f))
        }
        return out
    }

    /// Timeline entries around the finding's first evidence record.
    func excerpt(_ s: Session, around f: Finding) -> [String] {
        // Evidence remembers its timeline entry (`TimelineEntry.index`): nothing is searched for.
        guard let index = f.evidence.first?.timelineIndex, s.entries.indices.contains(index) else { return [] }
        let lo = max(0, index - excerptRadius)
        let hi = min(s.entries.count - 1, index + excerptRadius)
        var out = [
            "<details><summary>Timeline around this finding</summary>", "", "| Time | Source | Record |",
            "| --- | --- | --- |",
        ]
        for i in lo...hi {
            let e = s.entries[i]
            let mark = i == index ? "**▶**" : ""
            out.append(
                "| \(mark)\(e.time?.clockTime ?? "—") | `\(code(e.location))` | \(text.escape(e.record.summary, limit: 160)) |"
            )
        }
        out.append("")
        out.append("</details>")
        out.append("")
        return out
    }

    func startupTable(_ b: StartupBreakdown) -> [String] {
        var out = [
            "### Startup breakdown", "", "| Phase | Time | Share of \(NumberFormat.seconds(b.total)) |",
            "| --- | --- | --- |",
        ]
        for p in StartupBreakdown.Phase.allCases {
            let v = b.phases[p] ?? 0
            let share = b.total > 0 ? NumberFormat.trimmed(v / b.total * 100, decimals: 0) + " %" : "—"
            out.append(
                "| \(p.rawValue)\(p == b.dominant ? " (dominant)" : "") | \(NumberFormat.seconds(v)) | \(share) |")
        }
        out.append("")
        out.append(
            "Phases can overlap (a key and a playlist in flight together); idle is time with no request in flight.")
        out.append("")
        return out
    }

    /// The most requests one chart draws.
    static let chartRequests = 60

    /// A Mermaid gantt chart of requests, stalls and findings (GitHub renders it).
    ///
    /// A long session has more requests than a chart can show: every failed request and every
    /// request a finding relies on is drawn, then the first ones up to `chartRequests`; a caption
    /// under the chart says what was left out. Findings are bars over their window.
    func gantt(_ s: Session, findings: [Finding]) -> [String] {
        if chartStyle == .svg { return picture(s, findings: findings) }
        var out = gantt(s, findings: findings, window: nil)
        // A long session draws its incident as a sliver at the edge: a close-up of the findings'
        // window (20 s before the first, 10 s after the last) follows the overview.
        let serious = findings.filter { $0.severity >= .warning }
        if let first = serious.compactMap(\.start).min(), let sessionStart = s.start, let sessionEnd = s.end {
            let last = serious.compactMap { $0.end ?? $0.start }.max() ?? first
            let from = max(first + -20.0, sessionStart)
            let window = from...max(from, min(last + 10.0, sessionEnd))
            if (sessionEnd - sessionStart) > 3 * (window.upperBound - window.lowerBound) {
                out += gantt(s, findings: findings, window: window)
            }
        }
        return out
    }

    func gantt(_ s: Session, findings: [Finding], window: ClosedRange<Timestamp>?) -> [String] {
        guard let start = s.start else { return [] }
        func inWindow(_ t: Timestamp?) -> Bool { window.map { w in t.map { w.contains($0) } ?? false } ?? true }
        // A close-up cuts bars at its window's end: a stall or finding running on past it would
        // otherwise stretch the close-up's axis back to the whole session.
        func clipped(_ end: Timestamp) -> Timestamp { window.map { min(end, $0.upperBound) } ?? end }
        let reliedOn = Set(findings.filter { $0.severity >= .warning }.flatMap { $0.evidence.map(\.location) })
        var all: [Int] = []
        var kept: Set<Int> = []
        for (i, e) in s.entries.enumerated() {
            guard let r = e.record.request, e.time != nil, inWindow(e.time) else { continue }
            all.append(i)
            if r.failed || reliedOn.contains(e.location)
                || e.otherViews.contains(where: { reliedOn.contains($0.location) })
            {
                if kept.count < Self.chartRequests * 4 { kept.insert(i) }
            }
        }
        let essential = kept.count
        // Then the start (startup), then the neighbours of what is kept (the lead-up to an
        // incident); the healthy middle of a long session is what gets left out.
        for i in all.prefix(12) where kept.count < Self.chartRequests { kept.insert(i) }
        let anchors = all.indices.filter { kept.contains(all[$0]) }
        for radius in 1...4 {
            for a in anchors {
                for j in [a - radius, a + radius] where all.indices.contains(j) && kept.count < Self.chartRequests {
                    kept.insert(all[j])
                }
            }
        }
        var rows: [TimelineChart.Row] = []
        for i in all where kept.contains(i) {
            guard let r = s.entries[i].record.request, let t = s.entries[i].time else { continue }
            let end = max(clipped(s.entries[i].endTime ?? t), t + 0.001)
            let label = Self.mermaidLabel("\(r.kind.rawValue) \(URLDisplay.fileName(r.url, redactor: text.redactor))")
            rows.append(
                .init(section: .requests, label: label, mark: r.failed ? .failedRequest : .request, start: t, end: end))
        }
        let requestsDrawn = rows.count
        // A stall on a row with no time on the session's clock (its start is borrowed from a
        // neighbour) has no place on a time axis: the finding says "time unknown" instead.
        for st in s.analysis.stalls where st.placed && inWindow(st.start) {
            // An access-log row counts stalls without saying when or for how long: a marker at
            // the row's start, never a bar that would claim a duration.
            if st.fromAccessLog {
                let label = redactedLabel(
                    "\(st.reportedCount) stall\(st.reportedCount == 1 ? "" : "s") in this row time unknown")
                rows.append(
                    .init(section: .stalls, label: label, mark: .stallWithoutDuration, start: st.start, end: st.start))
                continue
            }
            let end = clipped(st.end ?? s.end ?? st.start + 1)
            // A wait the `stall` rule put down to a seek outside the buffer is no stall (the key
            // figures count it apart): drawn as such, not in the critical colour.
            let seekWait = findings.contains { $0.isSeekWait && $0.start == st.start }
            rows.append(
                .init(
                    section: .stalls, label: seekWait ? "wait after a seek" : "stall",
                    mark: seekWait ? .finding : .stall,
                    start: st.start, end: max(end, st.start + 0.001)))
        }
        // Variant switches the player made (a down-switch is often the incident's middle step).
        var switches = 0
        for e in s.entries where switches < 60 {
            guard let p = e.record.playerEvent, p.kind == .variantSwitch, p.didSucceed != false, let t = e.time,
                inWindow(t)
            else { continue }
            // "20 Mbit/s" loses its slash in a Mermaid name; "20 Mbit" reads better than "20 Mbit s".
            func rate(_ v: Variant?) -> String {
                v.map { $0.label.replacingOccurrences(of: "/s", with: "") } ?? "unknown"
            }
            let label = redactedLabel("switch \(rate(p.fromVariant)) to \(rate(p.toVariant))")
            rows.append(.init(section: .switches, label: label, mark: .variantSwitch, start: t, end: t))
            switches += 1
        }
        // Failures no request shows (error-log rows, player error events): marks of their own.
        for f in s.analysis.failures.prefix(60)
        where s.entries.indices.contains(f.index) && s.entries[f.index].record.request == nil {
            guard let t = f.time, inWindow(t) else { continue }
            let name = f.url.map { URLDisplay.fileName($0, redactor: text.redactor) } ?? ""
            rows.append(
                .init(
                    section: .errors, label: Self.mermaidLabel("\(f.statusText) \(name)"), mark: .error, start: t,
                    end: t)
            )
        }
        for f in findings where f.severity >= .warning {
            guard let t = f.start, inWindow(t) else { continue }
            // A finding with a window is a bar over it, so the chart spans what it is about.
            if let end = f.end.map(clipped), end - t >= 0.001 {
                rows.append(
                    .init(section: .findings, label: redactedLabel(f.ruleID), mark: .finding, start: t, end: end))
            } else {
                rows.append(
                    .init(section: .findings, label: redactedLabel(f.ruleID), mark: .findingInstant, start: t, end: t))
            }
        }
        guard !rows.isEmpty, rows.contains(where: { $0.section != .findings }) else { return [] }
        let title =
            window.map { "Close-up from \($0.lowerBound.iso8601(s.timeBasis))" }
            ?? "Session from \(start.iso8601(s.timeBasis))"
        let chart = TimelineChart(
            title: title, closeUp: window != nil, sessionStart: start, from: window?.lowerBound, rows: rows)
        var out = [window == nil ? "### Timeline" : "#### Close-up of the findings", ""]
        out += MermaidGantt.lines(chart)
        out.append("")
        if requestsDrawn < all.count {
            out.append(
                "Requests drawn: \(requestsDrawn) of \(all.count) — every failed request and every one a finding relies on (\(essential)), the first ones and their neighbours; the healthy rest is left out. `playback-forensics timeline` lists them all."
            )
            out.append("")
        }
        return out
    }

    /// The HTML report's timeline: the session picture over the whole session, the incidents
    /// shaded and numbered, then a close-up of each.
    func picture(_ s: Session, findings: [Finding]) -> [String] {
        guard let start = s.start else { return [] }
        let (incidents, left) = Self.incidents(s, findings: findings)
        var out = ["### Timeline", ""]
        var overview = SessionPicture(
            session: s, findings: findings, title: "Session from \(start.iso8601(s.timeBasis))", incidents: incidents,
            redactor: text.redactor)
        out += ["```pf-svg"] + overview.lines() + ["```", ""]
        var notes = overview.notes
        if left > 0 {
            notes.append(
                "\(left) more incident\(left == 1 ? " has" : "s have") no close-up (the worst \(Self.maxCloseUps) have one)"
            )
        }
        if !notes.isEmpty { out += [text.escape(notes.joined(separator: "; ")) + ".", ""] }
        for (n, w) in incidents.enumerated() {
            let rules = Set(
                findings.filter { f in f.severity >= .warning && f.start.map { w.contains($0) } == true }.map(\.ruleID))
            out += [
                "#### Close-up \(n + 1): \(w.lowerBound.iso8601(s.timeBasis)) to \(w.upperBound.clockTime) (\(rules.sorted().map { "`\($0)`" }.joined(separator: ", ")))",
                "",
            ]
            var closeUp = SessionPicture(
                session: s, findings: findings, title: "Close-up \(n + 1)", window: w, redactor: text.redactor)
            out += ["```pf-svg"] + closeUp.lines() + ["```", ""]
            if !closeUp.notes.isEmpty { out += [text.escape(closeUp.notes.joined(separator: "; ")) + ".", ""] }
        }
        return out
    }

    /// Most close-ups a session gets: the incidents with the worst findings (then the earliest).
    static let maxCloseUps = 4

    /// The session's incidents, in time order: findings at warning or above, those within 30 s of
    /// each other one incident, each widened by 15 s before and 10 s after. None when the session
    /// is short enough that the overview shows them as well (under three times the incident's
    /// length). Beyond `maxCloseUps`, the worst are kept; `left` counts the others.
    static func incidents(_ s: Session, findings: [Finding]) -> (windows: [ClosedRange<Timestamp>], left: Int) {
        guard let sessionStart = s.start, let sessionEnd = s.end else { return ([], 0) }
        let times = findings.filter { $0.severity >= .warning }.compactMap { f in
            f.start.map { ($0, max($0, f.end ?? $0), f.severity.rank) }
        }.sorted { $0.0 < $1.0 }
        var clusters: [(from: Timestamp, to: Timestamp, worst: Int)] = []
        for (a, b, rank) in times {
            if let last = clusters.last, a <= last.to + 30.0 {
                clusters[clusters.count - 1].to = max(last.to, b)
                clusters[clusters.count - 1].worst = max(last.worst, rank)
            } else {
                clusters.append((a, b, rank))
            }
        }
        let length = sessionEnd - sessionStart
        let windows = clusters.compactMap { c -> (ClosedRange<Timestamp>, Int)? in
            let lo = max(sessionStart, c.from + -15.0)
            let hi = max(lo + 1, min(sessionEnd, c.to + 10.0))
            return length > 3 * (hi - lo) ? (lo...hi, c.worst) : nil
        }
        let kept = windows.indices.sorted { a, b in
            windows[a].1 != windows[b].1 ? windows[a].1 > windows[b].1 : a < b
        }.prefix(Self.maxCloseUps).sorted()
        return (kept.map { windows[$0].0 }, windows.count - kept.count)
    }

    /// A Mermaid task name from log text: redacted first (the label's sanitising would otherwise
    /// take `?token=` apart and leave the secret as a plain word), then percent-decoded (a file
    /// named `m%C3%BCsik.ts` is `müsik.ts` to a reader) and redacted again.
    func redactedLabel(_ s: String) -> String { Self.mermaidLabel(URLDisplay.readable(s, redactor: text.redactor)) }

    /// Mermaid task names: letters (any script), digits, spaces, dots, dashes and underscores
    /// only — `:`, `#`, `;` and `%` have meanings in a gantt line.
    static func mermaidLabel(_ s: String) -> String {
        let kept = s.map { c -> Character in
            c.isLetter || c.isNumber && c.isASCII || c == " " || c == "." || c == "-" || c == "_" ? c : " "
        }
        let label = String(kept.prefix(40)).trimmingCharacters(in: " ")
        return label.isEmpty ? "request" : label
    }

    func sources(_ s: Session) -> [String] {
        var out = ["### Sources", ""]
        let present = s.sources.map(\.rawValue)
        let missing = s.absentSources.map(\.rawValue)
        var line =
            "Present: \(present.joined(separator: ", ")). Missing: \(missing.isEmpty ? "none" : missing.joined(separator: ", "))."
        // Server logs are no source of the session's own; what they gave is said here too.
        if let j = s.serverJoin {
            let joined = s.serverViews.values.reduce(0) { $0 + $1.filter { $0.confidence != .ambiguous }.count }
            line +=
                " Server logs: \(j.serverRows) row\(j.serverRows == 1 ? "" : "s") read, \(joined) joined to this session's requests (see Server side)."
        }
        out.append(line)
        out.append("")
        if s.clockOffsets.count > 1 {
            out.append("| File | Clock offset | Matched requests | Confidence | Clock |")
            out.append("| --- | --- | --- | --- | --- |")
            for o in s.clockOffsets {
                out.append(
                    "| `\(code(o.file))` | \(NumberFormat.trimmed(o.offset, decimals: 3)) s | \(o.matches) | \(o.confidence) | \(Self.clockText(o)) |"
                )
            }
            out.append("")
        }
        return out
    }

    static func clockText(_ o: ClockOffset) -> String {
        switch o.clock {
        case .utc: return "UTC"
        case .deviceLocalZoneStated:
            return o.statedZoneKept
                ? "device local, zone stated (kept: \(o.matches) matching request\(o.matches == 1 ? "" : "s") too few to overrule it)"
                : "device local, zone stated"
        case .deviceLocalZoneUnknown:
            if o.unaligned { return "device local, zone unknown: not placed on this UTC timeline" }
            if let z = o.inferredZone {
                return
                    "device local, \(ZoneFormat.text(z)) (\(o.zoneFromConsole ? "from the console's time stamps" : "from alignment"))"
            }
            // The reference's own observations align nothing: its zone stays unknown.
            if o.isReference { return "device local, zone unknown" }
            if o.matches > 0 { return "device local, aligned" }
            return o.sameClockAsReference ? "device local, same clock as the reference" : "device local, zone unknown"
        }
    }

    /// The sessions not reported in full: a row each (up to `ReportLimits.listedSessions`), then counts.
    func otherSessions(_ rest: [AnalysisReport.SessionResult]) -> [String] {
        guard !rest.isEmpty else { return [] }
        var out = [
            "## Other sessions", "", "| Session | Start | Worst finding | Findings |", "| --- | --- | --- | --- |",
        ]
        for r in rest.prefix(ReportLimits.listedSessions) {
            let s = r.session
            let worst = r.findings.max { $0.severity < $1.severity }
            let finding = worst.map { "\($0.severity.rawValue): \(text.escape($0.title, limit: 200))" } ?? "none"
            out.append(
                "| `\(code(s.id))` | \(s.start.map { $0.iso8601(s.timeBasis) } ?? "unknown") | \(finding) | \(r.findings.count) |"
            )
        }
        let unlisted = rest.dropFirst(ReportLimits.listedSessions)
        if !unlisted.isEmpty {
            out.append("")
            out.append(
                "And \(unlisted.count) more sessions, not listed (by worst finding: \(ReportLimits.severityCounts(Array(unlisted)))); `playback-forensics analyze --session PREFIX` reports any of them in full."
            )
        }
        out.append("")
        return out
    }

    func inputs(_ report: AnalysisReport) -> [String] {
        var out = ["## Inputs", "", "| File | Format | Records | Diagnostics |", "| --- | --- | --- | --- |"]
        for i in report.inputs.prefix(ReportLimits.listedInputs) {
            let format =
                i.notRead.map { "not read: " + text.escape($0.reason, limit: 300) }
                ?? ((i.format?.rawValue ?? "not recognised")
                    + (i.producer.map { " — " + text.escape($0, limit: 300) } ?? ""))
            let records = i.rowsRead.map { "\(i.records) kept of \($0) rows (the rest: other viewers or other times)" }
            out.append("| `\(code(i.path))` | \(format) | \(records ?? "\(i.records)") | \(i.diagnostics) |")
        }
        if report.inputs.count > ReportLimits.listedInputs {
            out.append("")
            out.append(
                "And \(report.inputs.count - ReportLimits.listedInputs) more files (\(report.inputs.dropFirst(ReportLimits.listedInputs).reduce(0) { $0 &+ $1.records }) records), not listed."
            )
        }
        if report.unassignedRecords > 0 {
            out.append("")
            out.append(
                "\(report.unassignedRecords) record\(report.unassignedRecords == 1 ? "" : "s") fit no session (listed in the diagnostics)."
            )
        }
        out.append("")
        return out
    }

    func diagnostics(_ report: AnalysisReport) -> [String] {
        guard !report.diagnostics.isEmpty else { return [] }
        var out = ["## Diagnostics", ""]
        var counts: [Severity: Int] = [:]
        for d in report.diagnostics { counts[d.severity, default: 0] += 1 }
        out.append(
            Severity.allCases.reversed().compactMap { s in counts[s].map { "\($0) \(s.rawValue)" } }.joined(
                separator: ", ") + ".")
        out.append("")
        let shown = report.diagnostics.sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : $0.location < $1.location
        }.prefix(20)
        for d in shown {
            out.append(
                "- `\(code(d.location))` \(d.severity.rawValue): \(text.escape(d.message, limit: 200))")
        }
        if report.diagnostics.count > shown.count {
            out.append("- … \(report.diagnostics.count - shown.count) more (see `--report json`)")
        }
        out.append("")
        return out
    }
}
