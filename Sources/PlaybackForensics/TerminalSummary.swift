import ForensicsCore

/// What `analyze` prints on a terminal when no report format was asked for: the verdict, each
/// session's key figures and findings, in a screen or two, URLs as they are (copyable, not
/// escaped for Markdown), and how to get the full report. Piped or redirected, the Markdown
/// report is written as before.
public struct TerminalSummary: Sendable {
    public var redactor: Redactor
    /// ANSI colours (the CLI decides: a terminal, and `NO_COLOR` unset).
    public var color: Bool
    /// Findings listed per session at most.
    public var findingsPerSession = 8

    public init(redactor: Redactor, color: Bool) {
        self.redactor = redactor
        self.color = color
    }

    func paint(_ text: String, _ severity: Severity?) -> String {
        guard color, let severity else { return text }
        return severity.painted(text)
    }

    func bold(_ text: String) -> String { color ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

    public func render(_ report: AnalysisReport, command: String) -> String {
        var out: [String] = []
        let verdict = report.verdict
        let worst = report.sessions.flatMap(\.findings).map(\.severity).max()
        let headline: String =
            switch verdict.status {
            case .problemsFound: paint("Problems found", worst)
            case .noProblemFound: "No problem found"
            case .couldNotJudge: paint("Could not judge everything", .warning)
            case .nothingRead: paint("Nothing playback-related was read", .error)
            }
        out.append(
            bold(headline)
                + " · \(report.sessions.count) session\(report.sessions.count == 1 ? "" : "s") · \(report.inputs.count) input file\(report.inputs.count == 1 ? "" : "s")"
        )
        for reason in verdict.couldNotJudge.prefix(5) { out.append("  could not judge: \(redactor.clean(reason))") }
        if verdict.couldNotJudge.count > 5 { out.append("  … and \(verdict.couldNotJudge.count - 5) more") }
        if let why = report.narrowedAway { out.append("  \(redactor.clean(why))") }
        for result in report.sessions.prefix(10) {
            let s = result.session
            let k = s.kpis
            var figures: [String] = []
            figures.append("startup " + (k.startupTime.map(NumberFormat.seconds) ?? "unknown"))
            if let n = k.stallCount {
                figures.append(
                    "stalls \(n)"
                        + (k.stallDuration.map {
                            " (\(k.stallDurationIsLowerBound ? "at least " : "")\(NumberFormat.seconds($0)))"
                        } ?? ""))
            } else {
                figures.append("stalls unknown")
            }
            if let r = k.rebufferRatio { figures.append("rebuffering \(NumberFormat.trimmed(r * 100, decimals: 1)) %") }
            if let e = k.errorCount { figures.append("errors \(k.errorCountIsLowerBound ? "at least " : "")\(e)") }
            out.append("")
            out.append(bold("Session \(redactor.clean(s.id))") + " — " + figures.joined(separator: " · "))
            let findings = result.findings.sorted { $0.severity > $1.severity }
            if findings.isEmpty { out.append("  no finding") }
            for f in findings.prefix(findingsPerSession) {
                let label = paint(f.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0), f.severity)
                out.append("  \(label) \(f.ruleID): \(redactor.clean(f.title))")
            }
            if findings.count > findingsPerSession {
                out.append("  … and \(findings.count - findingsPerSession) more findings")
            }
        }
        if report.sessions.count > 10 { out += ["", "… and \(report.sessions.count - 10) more sessions"] }
        out.append("")
        out.append(
            "Full report with evidence: \(command) --report markdown (or --report html --output report.html)")
        return out.joined(separator: "\n") + "\n"
    }
}

extension Severity {
    /// Text in the severity's ANSI colour: red for error and critical, yellow for warning, cyan
    /// for info (callers decide whether the terminal takes colour).
    public func painted(_ text: String) -> String {
        let code =
            switch self {
            case .critical, .error: "31"
            case .warning: "33"
            case .info: "36"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
