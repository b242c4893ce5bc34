import ForensicsReports

/// Turns analysis results into the text a user reads or a machine parses. Pure: the caller writes
/// it where it wants (the library never writes files or prints).
public struct ReportRenderer: Sendable {
    public var redactor: Redactor
    public var toolVersion: String

    /// `redact`: redact secrets again on the way out (a second net behind the ingest stage).
    public init(redact: Bool = true, toolVersion: String = ToolInfo.version) {
        self.redactor = Redactor(enabled: redact)
        self.toolVersion = toolVersion
    }

    public func render(_ report: AnalysisReport, as format: ReportFormat) -> String {
        switch format {
        case .markdown: MarkdownReporter(redactor: redactor, toolVersion: toolVersion).render(report)
        case .json: JSONReporter(redactor: redactor, toolVersion: toolVersion).render(report)
        case .html: HTMLReporter(redactor: redactor, toolVersion: toolVersion).render(report)
        }
    }

    /// How `timeline` and `parse` print: text for people, JSON, or JSON Lines (one item per line).
    public enum ListingFormat: Sendable {
        case text, json, jsonLines
    }

    /// Sessions' aligned timelines, within `since`…`until` when given.
    public func timeline(
        _ sessions: [Session], as format: ListingFormat, since: Timestamp? = nil, until: Timestamp? = nil
    )
        -> String
    {
        let reporter = TimelineReporter(redactor: redactor, since: since, until: until)
        return switch format {
        case .text: reporter.text(sessions)
        case .json: reporter.json(sessions)
        case .jsonLines: reporter.jsonLines(sessions)
        }
    }

    /// Sessions with their findings as a Chrome Trace Event / Perfetto trace (`timeline --trace`),
    /// within `since`…`until` when given, written through `write` a piece at a time.
    public func trace(
        _ sessions: [AnalysisReport.SessionResult], since: Timestamp? = nil, until: Timestamp? = nil,
        into write: (String) throws -> Void
    ) rethrows {
        try TraceEventWriter(redactor: redactor, since: since, until: until).trace(
            sessions.map { ($0.session, $0.findings) }, into: write)
    }

    /// Each file's records and diagnostics.
    public func parsed(_ bundle: ParsedBundle, as format: ListingFormat) -> String {
        let reporter = ParseReporter(redactor: redactor, toolVersion: toolVersion)
        return switch format {
        case .text: reporter.text(bundle)
        case .json: reporter.json(bundle)
        case .jsonLines: reporter.jsonLines(bundle)
        }
    }
}
