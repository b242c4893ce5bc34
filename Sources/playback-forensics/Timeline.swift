import ArgumentParser
import ForensicsCore
import ForensicsReports
import PlaybackForensics

struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print each session's aligned timeline: relative and wall time, source file:line, record.")

    @Argument(help: "The bundle.", completion: .file())
    var path: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Print JSON Lines: one entry per line, with its session id.")
    var jsonLines = false

    @Flag(name: .long, help: "Do not redact secrets.")
    var noRedact = false

    @OptionGroup var input: InputOptions

    @OptionGroup var narrow: NarrowingOptions

    func run() throws {
        let analysis: AnalysisReport
        do {
            analysis = try Analyzer(ingestor: try input.ingestor(redact: !noRedact)).analyze(path: path)
        } catch let e as ValidationError {
            throw e
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        let redactor = Redactor(enabled: !noRedact)
        let narrowing = try narrow.narrowing()
        let sessions = narrowing.apply(analysis).sessions
        if let session = narrow.session, sessions.isEmpty {
            Output.stderr("playback-forensics: no session starts with '\(session)'; sessions: \(analysis.sessions.map(\.session.id).joined(separator: ", "))\n")
            throw ExitCode(1)
        }
        // Within a window, only the entries in it (untimed ones stay: they cannot be placed).
        func inWindow(_ e: TimelineEntry) -> Bool {
            guard let t = e.time else { return true }
            if let since = narrowing.since, t < since { return false }
            if let until = narrowing.until, t > until { return false }
            return true
        }
        func entryJSON(_ e: TimelineEntry, start: Timestamp?) -> [(String, JSONOut)] {
            [
                ("time", .time(e.time)),
                ("relative", .optional(e.time.flatMap { t in start.map { (((t - $0) * 1000).rounded()) / 1000 } })),
                ("file", .string(redactor.redact(e.location.file))), ("line", .integer(e.location.line)),
                ("source", .string(e.record.format.rawValue)),
                ("summary", .string(redactor.redact(e.record.summary))),
                ("other_views", .array(e.otherViews.map { .string(redactor.redact("\($0.location)")) })),
                ("record", RecordJSON.record(e.record)),
                ("views", .array(e.otherViews.map(RecordJSON.record))),
            ]
        }
        if jsonLines {
            var lines = ""
            for r in sessions {
                for e in r.session.entries where inWindow(e) {
                    lines += JSONOut.object(
                        [("schema_version", .integer(JSONReporter.schemaVersion)), ("session_id", .string(r.session.id))]
                            + entryJSON(e, start: r.session.start)
                    ).renderLine()
                }
            }
            Output.stdout(lines)
            return
        }
        if json {
            let doc = JSONOut.object([
                ("schema_version", .integer(JSONReporter.schemaVersion)),
                ("sessions", .array(sessions.map { r in
                    let start = r.session.start
                    return .object([
                        ("session_id", .string(r.session.id)),
                        ("entries", .array(r.session.entries.filter(inWindow).map { .object(entryJSON($0, start: start)) })),
                    ])
                })),
            ])
            Output.stdout(doc.render())
            return
        }
        var out: [String] = []
        for r in sessions {
            let s = r.session
            out.append("Session \(s.id)  (\(s.sources.map(\.rawValue).joined(separator: ", ")))")
            for o in s.clockOffsets where o.matches > 0 && o.offset != 0 {
                out.append("  clock offset \(redactor.redact(o.file)): \(NumberFormat.trimmed(o.offset, decimals: 3)) s (\(o.matches) matches, \(o.confidence))")
            }
            let start = s.start
            for e in s.entries where inWindow(e) {
                let rel = e.time.flatMap { t in start.map { "+" + NumberFormat.trimmed(t - $0, decimals: 3) } } ?? "?"
                let wall = e.time?.clockTime ?? "--:--:--.---"
                var line = "  \(rel.padding(10)) \(wall)  \(redactor.redact(e.location.description).padding(36))  \(redactor.redact(e.record.summary))"
                if !e.otherViews.isEmpty { line += "  [also: \(e.otherViews.map { redactor.redact($0.location.description) }.joined(separator: ", "))]" }
                out.append(line)
            }
            out.append("")
        }
        Output.stdout(out.joined(separator: "\n"))
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
