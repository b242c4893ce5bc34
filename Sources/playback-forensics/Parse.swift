import ArgumentParser
import ForensicsCore
import ForensicsParsers
import ForensicsReports
import PlaybackForensics

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the records and diagnostics of one file (or of every file of a bundle).")

    @Argument(help: "The file (or bundle) to parse.", completion: .file())
    var path: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Print JSON Lines: one record per line, with its file.")
    var jsonLines = false

    @Flag(name: .long, help: "Do not redact tokens, signatures, keys and credentials.")
    var noRedact = false

    @OptionGroup var input: InputOptions

    func run() throws {
        let ingestor = try input.ingestor(redact: !noRedact)
        var bundleDiagnostics: [Diagnostic] = []
        let outcomes: [Ingestor.Outcome]
        do {
            outcomes = try ingestor.ingestBundle(path: path, diagnostics: &bundleDiagnostics)
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        let redactor = Redactor(enabled: !noRedact)
        if jsonLines {
            var lines = ""
            for o in outcomes {
                for r in o.result?.records ?? [] {
                    lines += JSONOut.object(
                        [("schema_version", .integer(JSONReporter.schemaVersion)), ("path", .string(redactor.redact(o.path)))]
                            + RecordJSON.fields(r)
                    ).renderLine()
                }
            }
            Output.stdout(lines)
            return
        }
        if json {
            let files: [JSONOut] = outcomes.map { o in
                let diags = o.diagnostics + (o.result?.diagnostics ?? [])
                return .object([
                    ("path", .string(redactor.redact(o.path))), ("format", .optional(o.format?.rawValue)),
                    ("records", .array((o.result?.records ?? []).map(RecordJSON.record))),
                    ("diagnostics", .array(diags.map { d in
                        .object([("line", .integer(d.location.line)), ("severity", .string(d.severity.rawValue)), ("message", .string(redactor.redact(d.message)))])
                    })),
                ])
            }
            Output.stdout(JSONOut.object([
                ("schema_version", .integer(JSONReporter.schemaVersion)),
                JSONReporter.tool(version: ToolInfo.version),
                ("files", .array(files)),
                ("bundle_diagnostics", .array(bundleDiagnostics.map { d in
                    .object([("file", .string(redactor.redact(d.location.file))), ("severity", .string(d.severity.rawValue)), ("message", .string(redactor.redact(d.message)))])
                })),
            ]).render())
            return
        }
        var out: [String] = []
        for d in bundleDiagnostics { out.append(redactor.redact("\(d.location) \(d.severity.rawValue): \(d.message)")) }
        for o in outcomes {
            let records = o.result?.records ?? []
            let diags = o.diagnostics + (o.result?.diagnostics ?? [])
            out.append("== \(redactor.redact(o.path)): \(o.format?.rawValue ?? "not recognised"), \(records.count) records, \(diags.count) diagnostics")
            for r in records {
                out.append("\(r.location.line)\t\(r.time?.iso8601 ?? "-")\t\(redactor.redact(r.summary))")
            }
            for d in diags { out.append(redactor.redact("\(d.location) \(d.severity.rawValue): \(d.message)")) }
        }
        Output.stdout(out.joined(separator: "\n") + "\n")
    }
}
