import ArgumentParser
import ForensicsCore
import ForensicsReports
import PlaybackForensics

struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print each session's aligned timeline: relative and wall time, source file:line, record.")

    @Argument(help: "The bundle.")
    var path: String

    @Option(name: .long, help: "Only this session.")
    var session: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Do not redact secrets.")
    var noRedact = false

    @OptionGroup var input: InputOptions

    func run() throws {
        let analysis: AnalysisReport
        do {
            analysis = try Analyzer(ingestor: try input.ingestor()).analyze(path: path)
        } catch let e as ValidationError {
            throw e
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        let redactor = Redactor(enabled: !noRedact)
        let sessions = analysis.sessions.filter { session == nil || $0.session.id == session?.uppercased() || $0.session.id == session }
        if let session, sessions.isEmpty {
            Output.stderr("playback-forensics: no session '\(session)'; sessions: \(analysis.sessions.map(\.session.id).joined(separator: ", "))\n")
            throw ExitCode(1)
        }
        if json {
            let doc = JSONOut.object([
                ("schema_version", .integer(1)),
                ("sessions", .array(sessions.map { r in
                    let start = r.session.start
                    return .object([
                        ("session_id", .string(r.session.id)),
                        ("entries", .array(r.session.entries.map { e in
                            .object([
                                ("time", .time(e.time)),
                                ("relative", .optional(e.time.flatMap { t in start.map { (((t - $0) * 1000).rounded()) / 1000 } })),
                                ("file", .string(redactor.redact(e.location.file))), ("line", .integer(e.location.line)),
                                ("source", .string(e.record.format.rawValue)),
                                ("summary", .string(redactor.redact(e.record.summary))),
                                ("other_views", .array(e.otherViews.map { .string(redactor.redact("\($0.location)")) })),
                            ])
                        })),
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
            for e in s.entries {
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
