// The façade re-exports the vocabulary (records, sessions, findings, limits): what an app, a
// server or the CLI needs to read an `AnalysisReport`. Everything else — readers, correlation,
// rules, writers — is `package` API behind `Analyzer`, `RuleSet`, `FormatCatalog` and
// `ReportRenderer` (see Documentation/Architecture.md, "Seams"). The triage index's types
// (`TriageIndex`, `ProblemGroup`, `ProblemKey`) are vocabulary too: a fleet job reads them.
@_exported import ForensicsCore
@_exported import ForensicsIndex
