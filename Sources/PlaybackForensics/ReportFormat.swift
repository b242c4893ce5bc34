/// The report writers `analyze` offers.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// The incident summary people read (Markdown, Mermaid timelines).
    case markdown
    /// For machines: `Documentation/report-json.md`, `schema_version`.
    case json
    /// One self-contained file, timelines as inline SVG.
    case html
}
