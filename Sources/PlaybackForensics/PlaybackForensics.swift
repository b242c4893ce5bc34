// The façade re-exports the vocabulary (records, sessions, findings, limits): what an app, a
// server or the CLI needs to read an `AnalysisReport`. Everything else — readers, correlation,
// rules, writers — is `package` API behind `Analyzer`, `RuleSet`, `FormatCatalog` and
// `ReportRenderer` (see Documentation/Architecture.md, "Seams").
@_exported import ForensicsCore
