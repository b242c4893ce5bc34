import ForensicsCore

/// `parse`: each file's records and diagnostics as text (one line per record), JSON, or JSON Lines
/// (one record per line, with its file).
package struct ParseReporter: Sendable {
    package var redactor: Redactor
    package var toolVersion: String

    package init(redactor: Redactor = Redactor(), toolVersion: String) {
        self.redactor = redactor
        self.toolVersion = toolVersion
    }

    package func text(_ bundle: ParsedBundle) -> String {
        var out: [String] = []
        for d in bundle.diagnostics {
            out.append("\(redactor.redact(d.location)) \(redactor.redact("\(d.severity.rawValue): \(d.message)"))")
        }
        for file in bundle.files {
            out.append(
                "== \(redactor.redact(file.path)): \(file.format?.rawValue ?? "not recognised"), \(file.records.count) records, \(file.diagnostics.count) diagnostics"
            )
            for r in file.records {
                out.append(
                    "\(r.location.line)\t\(r.time?.iso8601(file.timeBasis) ?? "-")\t\(redactor.redact(r.summary))")
            }
            for d in file.diagnostics {
                out.append("\(redactor.redact(d.location)) \(redactor.redact("\(d.severity.rawValue): \(d.message)"))")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    package func json(_ bundle: ParsedBundle) -> String {
        let files: [JSONOut] = bundle.files.map { file in
            .object([
                ("path", .string(redactor.redact(file.path))), ("format", .optional(file.format?.rawValue)),
                ("time_basis", .string(file.timeBasis.rawValue)),
                ("records", .array(file.records.map { .object(fields($0, file.timeBasis)) })),
                (
                    "diagnostics",
                    .array(
                        file.diagnostics.map { d in
                            .object([
                                ("line", .integer(d.location.line)), ("severity", .string(d.severity.rawValue)),
                                ("message", .string(redactor.redact(d.message))),
                            ])
                        })
                ),
            ])
        }
        return JSONOut.object([
            ("schema_version", .integer(JSONReporter.schemaVersion)),
            JSONReporter.tool(version: toolVersion),
            ("files", .array(files)),
            (
                "bundle_diagnostics",
                .array(
                    bundle.diagnostics.map { d in
                        .object([
                            ("file", .string(redactor.redact(d.location.file))),
                            ("severity", .string(d.severity.rawValue)),
                            ("message", .string(redactor.redact(d.message))),
                        ])
                    })
            ),
        ]).render()
    }

    /// A record's fields, its time in the file's time basis (no `Z` on a device local time of
    /// an unknown zone).
    func fields(_ r: Record, _ basis: TimeBasis) -> [(String, JSONOut)] {
        let fields = RecordJSON.fields(r, redactor: redactor)
        guard basis != .utc, let time = r.time else { return fields }
        return fields.map { $0.0 == "time" ? ("time", .string(time.iso8601(basis))) : $0 }
    }

    package func jsonLines(_ bundle: ParsedBundle) -> String {
        var lines = ""
        for file in bundle.files {
            for r in file.records {
                lines += JSONOut.object(
                    [
                        ("schema_version", .integer(JSONReporter.schemaVersion)),
                        ("path", .string(redactor.redact(file.path))),
                    ]
                        + fields(r, file.timeBasis)
                ).renderLine()
            }
        }
        return lines
    }
}
