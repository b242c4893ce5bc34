import ForensicsCore
import ForensicsParsers
import ForensicsReports
import ForensicsRules
import Foundation

/// `check`: the stream checks on the playlists of a folder, archive, file or HAR capture, as a
/// packager engineer runs them in CI on their own output — every defect with its file and line,
/// the series checks over successive captures of one live playlist, nothing else of a session.
public struct StreamCheckRun: Sendable {
    /// One defect, where it is.
    public struct Defect: Sendable, Equatable {
        public var file: String
        public var line: Int
        /// The playlist's URL, when the capture names it (a HAR entry, a proxy log body).
        public var url: String?
        public var check: String
        public var title: String
        public var severity: Severity
        /// `MUST` or `SHOULD`.
        public var level: String
        public var source: String
        public var message: String
    }

    public var defects: [Defect] = []
    /// Playlists checked (each capture counts).
    public var playlists = 0
    /// Files read, and files no format claimed (listed, never judged).
    public var files: [String] = []
    public var notRead: [(file: String, reason: String)] = []

    /// The check ids, for `--ignore` (a typo is refused) and the docs.
    public static var checkIDs: [String] {
        StreamCheckCatalogue.all.map(\.id) + PlaylistSeriesChecks.all.map(\.id)
    }

    /// Runs every check (but `ignore`) on what `paths` hold.
    public static func run(paths: [String], options: AnalysisOptions, ignore: Set<String> = []) throws -> StreamCheckRun
    {
        var run = StreamCheckRun()
        let analyzer = Analyzer(options: options)
        var captures: [PlaylistCapture] = []
        for path in paths {
            let bundle = try analyzer.read(path: path)
            for file in bundle.files {
                run.files.append(file.path)
                if file.format == nil {
                    run.notRead.append((file.path, file.diagnostics.first?.message ?? "no format recognised it"))
                }
                for record in file.records {
                    guard case .playlist(let p) = record.payload else { continue }
                    run.playlists += 1
                    // A playlist file's defect is at its own line; a HAR entry's, in its body.
                    let standalone = file.format == .playlist
                    for d in p.defects where !ignore.contains(d.check) {
                        guard let check = StreamCheckCatalogue.byID[d.check] else { continue }
                        run.defects.append(
                            Defect(
                                file: file.path, line: standalone ? d.line : record.location.line, url: p.url,
                                check: d.check, title: check.title, severity: d.severity, level: check.level.rawValue,
                                source: check.source,
                                message: standalone || d.line == 0 ? d.message : "body line \(d.line): \(d.message)"))
                    }
                    if let t = record.time?.secondsSince1970 {
                        captures.append(PlaylistCapture(time: t, snapshot: p, location: record.location))
                    }
                }
            }
        }
        for d in PlaylistSeriesChecks.check(captures) where !ignore.contains(d.check.id) {
            let at = d.captures.last?.location ?? SourceLocation(file: "", line: 0)
            run.defects.append(
                Defect(
                    file: at.file, line: at.line, url: d.captures.last?.snapshot.url, check: d.check.id,
                    title: d.check.title, severity: d.check.severity, level: d.check.level, source: d.check.source,
                    message: d.message))
        }
        run.defects.sort { ($0.file, $0.line, $0.check) < ($1.file, $1.line, $1.check) }
        return run
    }

    // MARK: Output

    public func text(redactor: Redactor) -> String {
        var lines = defects.map { d in
            "\(redactor.clean(d.file)):\(d.line): \(d.severity.rawValue): [\(d.check)] \(redactor.clean(d.message))"
        }
        let counts = Severity.allCases.reversed().compactMap { s -> String? in
            let n = defects.filter { $0.severity == s }.count
            return n == 0 ? nil : "\(n) \(s.rawValue)"
        }
        lines.append(
            "\(playlists) playlist\(playlists == 1 ? "" : "s") checked in \(files.count) file\(files.count == 1 ? "" : "s"): "
                + (counts.isEmpty ? "no defect" : counts.joined(separator: ", ")))
        for n in notRead { lines.append("not read: \(redactor.clean(n.file)): \(redactor.clean(n.reason))") }
        return lines.joined(separator: "\n") + "\n"
    }

    public func json(redactor: Redactor) -> String {
        JSONOut.object([
            ("tool_version", .string(ToolInfo.version)), ("playlists", .integer(playlists)),
            ("files", .integer(files.count)),
            (
                "defects",
                .array(
                    defects.map { d in
                        .object([
                            ("file", .string(redactor.clean(d.file))), ("line", .integer(d.line)),
                            ("url", .optional(d.url.map(redactor.clean))), ("check", .string(d.check)),
                            ("title", .string(d.title)), ("severity", .string(d.severity.rawValue)),
                            ("level", .string(d.level)), ("source", .string(d.source)),
                            ("message", .string(redactor.clean(d.message))),
                        ])
                    })
            ),
            (
                "not_read",
                .array(
                    notRead.map {
                        .object([
                            ("file", .string(redactor.clean($0.file))), ("reason", .string(redactor.clean($0.reason))),
                        ])
                    })
            ),
        ]).render()
    }

    /// JUnit XML, as CI systems read it: a test case per playlist file, failing with each defect
    /// at or above `failOn` (the others are in its output).
    public func junit(redactor: Redactor, failOn: Severity) -> String {
        func x(_ v: String) -> String { XMLText.escape(redactor.clean(v)) }
        var byFile: [String: [Defect]] = [:]
        for f in files { byFile[f] = [] }
        for d in defects { byFile[d.file, default: []].append(d) }
        let failures = defects.filter { $0.severity >= failOn }.count
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"playback-forensics check\" tests=\"\(byFile.count)\" failures=\"\(failures)\">",
            "  <testsuite name=\"stream-checks\" tests=\"\(byFile.count)\" failures=\"\(failures)\">",
        ]
        for (file, list) in byFile.sorted(by: { $0.key < $1.key }) {
            out.append("    <testcase classname=\"stream-checks\" name=\"\(x(file))\">")
            for d in list where d.severity >= failOn {
                out.append(
                    "      <failure type=\"\(x(d.check))\" message=\"\(x("\(d.check): \(d.message)"))\">\(x("\(file):\(d.line): \(d.severity.rawValue) (\(d.level), \(d.source)): \(d.message)"))</failure>"
                )
            }
            let below = list.filter { $0.severity < failOn }
            if !below.isEmpty {
                out.append(
                    "      <system-out>\(x(below.map { "\(file):\($0.line): \($0.severity.rawValue): [\($0.check)] \($0.message)" }.joined(separator: "\n")))</system-out>"
                )
            }
            out.append("    </testcase>")
        }
        out.append("  </testsuite>")
        out.append("</testsuites>")
        return out.joined(separator: "\n") + "\n"
    }
}
