import ForensicsCore
import ForensicsRules

/// The Markdown incident summary: per session a verdict a support engineer can forward, the
/// KPIs, findings by severity with evidence and advice, the startup breakdown, a Mermaid
/// timeline, an excerpt around each finding, the sources, and parse diagnostics in brief.
public struct MarkdownReporter: Sendable {
    public var text: MarkdownText
    public var toolVersion: String
    /// Timeline entries shown around each finding, before and after its anchor.
    public var excerptRadius = 3

    public init(redactor: Redactor = Redactor(), toolVersion: String) {
        self.text = MarkdownText(redactor: redactor)
        self.toolVersion = toolVersion
    }

    public func render(_ report: AnalysisReport) -> String {
        var out: [String] = []
        out.append("# Playback forensics report")
        out.append("")
        let sessions = report.sessions.count
        out.append(
            "Bundle `\(code(report.bundle))` · \(report.inputs.count) input file\(report.inputs.count == 1 ? "" : "s") · "
                + "\(sessions) session\(sessions == 1 ? "" : "s") · playback-forensics \(toolVersion)")
        out.append("")
        if report.sessions.isEmpty {
            out.append("No playback session could be built from this bundle: see the inputs and diagnostics below.")
            out.append("")
        }
        for result in report.sessions {
            out.append(contentsOf: session(result))
        }
        out.append(contentsOf: inputs(report))
        out.append(contentsOf: diagnostics(report))
        return out.joined(separator: "\n") + "\n"
    }

    /// Text inside a code span: backticks cannot appear, so they are replaced.
    /// Text for inside a code span in a table cell (file names, session ids: they come from the
    /// bundle, so an archive member can be named anything). Scalar by scalar, so that a combining
    /// mark cannot hide a character from the replacement: a backtick would end the span, a `|`
    /// splits a table cell even inside a span (GFM), a line end would start a new block.
    func code(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in text.redactor.redact(s).unicodeScalars {
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

    func session(_ r: AnalysisReport.SessionResult) -> [String] {
        let s = r.session
        var out: [String] = []
        out.append("## Session `\(code(s.id))`")
        out.append("")
        var facts: [String] = []
        if let start = s.start { facts.append("from \(start.iso8601(s.timeBasis))") }
        if let end = s.end { facts.append("to \(end.iso8601(s.timeBasis))") }
        if s.timeBasis != .utc { facts.append("times are \(s.timeBasis.label) (no source to align them to; state it with `--timezone`)") }
        if let asset = s.assetURL { facts.append("asset \(text.escape(asset))") }
        if !facts.isEmpty {
            out.append(facts.joined(separator: " · "))
            out.append("")
        }
        out.append("**Verdict:** " + verdict(r))
        out.append("")
        out.append(contentsOf: kpiTable(s.kpis))
        out.append(contentsOf: findings(r))
        if let b = StartupBreakdown(s) { out.append(contentsOf: startupTable(b)) }
        out.append(contentsOf: gantt(s, findings: r.findings))
        out.append(contentsOf: sources(s))
        return out
    }

    func verdict(_ r: AnalysisReport.SessionResult) -> String {
        let k = r.session.kpis
        let serious = r.findings.filter { $0.severity >= .warning }.sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : Finding.reportOrder($0, $1)
        }
        var basics: [String] = []
        if let t = k.startupTime { basics.append("startup \(NumberFormat.seconds(t))") }
        basics.append(Self.count(k.stallCount, "stall", "stalls"))
        basics.append(Self.count(k.variantSwitchCount, "variant switch", "variant switches"))
        basics.append(Self.count(k.errorCount, "error", "errors"))
        guard let worst = serious.first else {
            // Never "no problem" while stalls or errors are known.
            let known = (k.stallCount ?? 0) > 0 || (k.errorCount ?? 0) > 0 || k.fatalError == true
            if known {
                return "No rule explains what the figures show (\(basics.joined(separator: ", "))): see the key figures and the timeline."
            }
            return "No problem found at warning level or above (\(basics.joined(separator: ", ")))."
        }
        var sentence = "\(text.escape(worst.title)) (\(worst.severity.rawValue))."
        if let why = worst.details["explanation"], case .string(let e) = why { sentence += " Why: \(text.escape(e))." }
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
        func src(_ key: String) -> String { k.provenance[key] ?? "—" }
        var rows = ["| KPI | Value | From |", "| --- | --- | --- |"]
        rows.append("| Startup time | \(k.startupTime.map(NumberFormat.seconds) ?? "unknown") | \(src("startup_time")) |")
        let stalls: String
        if let n = k.stallCount {
            stalls = "\(n) (\(k.stallDuration.map(NumberFormat.seconds) ?? "duration unknown"))"
        } else {
            stalls = "unknown"
        }
        rows.append("| Stalls | \(stalls) | \(src("stall_count")) |")
        rows.append("| Rebuffer ratio | \(k.rebufferRatio.map { NumberFormat.trimmed($0 * 100, decimals: 2) + " %" } ?? "unknown") | \(k.rebufferRatio == nil ? "—" : src("playing_time")) |")
        let switches = k.variantSwitchCount.map { "\($0) (\(k.downswitchCount.map(String.init) ?? "unknown"))" } ?? "unknown"
        rows.append("| Variant switches (down) | \(switches) | \(src("variant_switch_count")) |")
        let errors = k.errorCount.map { "\($0)\(k.fatalError == true ? ", fatal" : "")" } ?? "unknown"
        rows.append("| Errors | \(errors) | \(src("error_count")) |")
        rows.append("| Time-weighted average bitrate | \(k.timeWeightedAverageBitrate.map(BitRateFormat.text) ?? "unknown") | \(src("time_weighted_average_bitrate")) |")
        rows.append("| Playing time | \(k.playingTime.map(NumberFormat.seconds) ?? "unknown") | \(src("playing_time")) |")
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
            out.append("No findings.")
            out.append("")
            return out
        }
        let ordered = r.findings.sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : Finding.reportOrder($0, $1)
        }
        for f in ordered {
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
            if case .string(let e)? = f.details["explanation"] {
                out.append("Why: \(text.escape(e)).")
                out.append("")
            }
            out.append("| Time | Source | Record |")
            out.append("| --- | --- | --- |")
            for e in f.evidence.prefix(12) {
                out.append("| \(e.time?.clockTime ?? "—") | `\(code(e.location.description))` | \(text.escape(e.summary, limit: 200)) |")
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
        guard let anchor = f.evidence.first,
            // Line first: an integer rejects almost every entry before the file names are compared.
            let index = s.entries.firstIndex(where: {
                $0.location.line == anchor.location.line && $0.location.file == anchor.location.file
            })
        else { return [] }
        let lo = max(0, index - excerptRadius)
        let hi = min(s.entries.count - 1, index + excerptRadius)
        var out = ["<details><summary>Timeline around this finding</summary>", "", "| Time | Source | Record |", "| --- | --- | --- |"]
        for i in lo...hi {
            let e = s.entries[i]
            let mark = i == index ? "**▶**" : ""
            out.append("| \(mark)\(e.time?.clockTime ?? "—") | `\(code(e.location.description))` | \(text.escape(e.record.summary, limit: 160)) |")
        }
        out.append("")
        out.append("</details>")
        out.append("")
        return out
    }

    func startupTable(_ b: StartupBreakdown) -> [String] {
        var out = ["### Startup breakdown", "", "| Phase | Time | Share of \(NumberFormat.seconds(b.total)) |", "| --- | --- | --- |"]
        for p in StartupBreakdown.Phase.allCases {
            let v = b.phases[p] ?? 0
            let share = b.total > 0 ? NumberFormat.trimmed(v / b.total * 100, decimals: 0) + " %" : "—"
            out.append("| \(p.rawValue)\(p == b.dominant ? " (dominant)" : "") | \(NumberFormat.seconds(v)) | \(share) |")
        }
        out.append("")
        out.append("Phases can overlap (a key and a playlist in flight together); idle is time with no request in flight.")
        out.append("")
        return out
    }

    /// A Mermaid gantt chart of requests, stalls and findings (GitHub renders it).
    func gantt(_ s: Session, findings: [Finding]) -> [String] {
        guard let start = s.start else { return [] }
        var requests: [String] = []
        var count = 0
        for e in s.entries {
            // At most 60 requests are drawn: stop there instead of walking the rest of a long timeline.
            if count == 60 { break }
            guard let r = e.record.request, let t = e.time else { continue }
            count += 1
            let end = max(e.endTime ?? t, t + 0.001)
            let label = redactedLabel("\(r.kind.rawValue) \(r.url.split(separator: "/").last ?? "")")
            let tag = r.failed ? "crit, " : ""
            requests.append("    \(label) :\(tag)\(Self.ms(t)), \(Self.ms(end))")
        }
        var stalls: [String] = []
        for st in s.stalls {
            // An access-log row counts stalls without saying when or for how long: a marker at
            // the row's start, never a bar that would claim a duration.
            if st.fromAccessLog {
                let label = redactedLabel("\(st.reportedCount) stall\(st.reportedCount == 1 ? "" : "s") in this row time unknown")
                stalls.append("    \(label) :crit, milestone, \(Self.ms(st.start)), 0ms")
                continue
            }
            let end = st.end ?? s.end ?? st.start + 1
            stalls.append("    stall :crit, \(Self.ms(st.start)), \(Self.ms(max(end, st.start + 0.001)))")
        }
        // Failures no request shows (error-log rows, player error events): marks of their own.
        var errors: [String] = []
        for f in s.failures.prefix(60) where s.entries[f.index].record.request == nil {
            guard let t = f.time else { continue }
            let name = f.url.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? ""
            errors.append("    \(redactedLabel("\(f.statusText) \(name)")) :crit, milestone, \(Self.ms(t)), 0ms")
        }
        var marks: [String] = []
        for f in findings where f.severity >= .warning {
            guard let t = f.start else { continue }
            marks.append("    \(redactedLabel(f.ruleID)) :milestone, \(Self.ms(t)), 0ms")
        }
        guard !requests.isEmpty || !stalls.isEmpty || !errors.isEmpty else { return [] }
        var out = ["### Timeline", "", "```mermaid", "gantt", "    dateFormat x", "    axisFormat %M:%S",
                   "    title Session from \(start.iso8601(s.timeBasis))"]
        if !requests.isEmpty { out += ["    section Requests"] + requests }
        if count == 60 { out.append("    %% more requests omitted") }
        if !errors.isEmpty { out += ["    section Errors"] + errors }
        if !stalls.isEmpty { out += ["    section Stalls"] + stalls }
        if !marks.isEmpty { out += ["    section Findings"] + marks }
        out += ["```", ""]
        return out
    }

    static func ms(_ t: Timestamp) -> String {
        let v = (t.secondsSince1970 * 1000).rounded()
        return Timestamp.isPlausible(t.secondsSince1970) ? String(Int64(v)) : "0"
    }

    /// A Mermaid task name from log text: redacted first (the label's sanitising would otherwise
    /// take `?token=` apart and leave the secret as a plain word).
    func redactedLabel(_ s: String) -> String { Self.mermaidLabel(text.redactor.redact(s)) }

    /// Mermaid task names: letters, digits, spaces, dots and dashes only.
    static func mermaidLabel(_ s: String) -> String {
        let kept = s.map { c -> Character in
            c.isLetter && c.isASCII || c.isNumber && c.isASCII || c == " " || c == "." || c == "-" ? c : " "
        }
        let label = String(kept.prefix(40)).trimmingCharacters(in: " ")
        return label.isEmpty ? "request" : label
    }

    func sources(_ s: Session) -> [String] {
        var out = ["### Sources", ""]
        let present = s.sources.map(\.rawValue)
        let missing = InputFormat.allCases.filter { !s.sources.contains($0) }.map(\.rawValue)
        out.append("Present: \(present.joined(separator: ", ")). Missing: \(missing.isEmpty ? "none" : missing.joined(separator: ", ")).")
        out.append("")
        if s.clockOffsets.count > 1 {
            out.append("| File | Clock offset | Matched requests | Confidence | Clock |")
            out.append("| --- | --- | --- | --- | --- |")
            for o in s.clockOffsets {
                out.append("| `\(code(o.file))` | \(NumberFormat.trimmed(o.offset, decimals: 3)) s | \(o.matches) | \(o.confidence) | \(Self.clockText(o)) |")
            }
            out.append("")
        }
        return out
    }

    static func clockText(_ o: ClockOffset) -> String {
        switch o.clock {
        case .utc: return "UTC"
        case .deviceLocalZoneStated: return "device local, zone stated"
        case .deviceLocalZoneUnknown:
            if let z = o.inferredZone { return "device local, \(ZoneFormat.text(z)) (from alignment)" }
            // The reference's own observations align nothing: its zone stays unknown.
            if o.isReference { return "device local, zone unknown" }
            if o.matches > 0 { return "device local, aligned" }
            return o.sameClockAsReference ? "device local, same clock as the reference" : "device local, zone unknown"
        }
    }

    func inputs(_ report: AnalysisReport) -> [String] {
        var out = ["## Inputs", "", "| File | Format | Records | Diagnostics |", "| --- | --- | --- | --- |"]
        for i in report.inputs {
            let format = (i.format?.rawValue ?? "not recognised") + (i.producer.map { " — " + text.escape($0, limit: 300) } ?? "")
            out.append("| `\(code(i.path))` | \(format) | \(i.records) | \(i.diagnostics) |")
        }
        if report.unassignedRecords > 0 {
            out.append("")
            out.append("\(report.unassignedRecords) record\(report.unassignedRecords == 1 ? "" : "s") fit no session (listed in the diagnostics).")
        }
        out.append("")
        return out
    }

    func diagnostics(_ report: AnalysisReport) -> [String] {
        guard !report.diagnostics.isEmpty else { return [] }
        var out = ["## Diagnostics", ""]
        var counts: [Severity: Int] = [:]
        for d in report.diagnostics { counts[d.severity, default: 0] += 1 }
        out.append(Severity.allCases.reversed().compactMap { s in counts[s].map { "\($0) \(s.rawValue)" } }.joined(separator: ", ") + ".")
        out.append("")
        let shown = report.diagnostics.sorted { $0.severity != $1.severity ? $0.severity > $1.severity : $0.location < $1.location }.prefix(20)
        for d in shown {
            out.append("- `\(code(d.location.description))` \(d.severity.rawValue): \(text.escape(d.message, limit: 200))")
        }
        if report.diagnostics.count > shown.count {
            out.append("- … \(report.diagnostics.count - shown.count) more (see `--report json`)")
        }
        out.append("")
        return out
    }
}
