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
    /// Playlists a capture requested but never received — every request failed (a variant that
    /// answered 404): no check could judge them, and `check` says so rather than pass them
    /// silently. Requests the client cancelled itself are not failures.
    public var notChecked: [(file: String, line: Int, url: String, reason: String)] = []

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
                run.notChecked += unavailablePlaylists(in: file.records, file: file.path)
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

    /// The playlists of a capture whose every request failed and which no request loaded, keyed
    /// by URL without its query (a retry may carry another token), in the order first requested.
    static func unavailablePlaylists(
        in records: [Record], file: String
    ) -> [(
        file: String, line: Int, url: String, reason: String
    )] {
        var order: [String] = []
        var failures: [String: (line: Int, url: String, statuses: [String])] = [:]
        var loaded: Set<String> = []
        for record in records {
            switch record.payload {
            case .playlist(let p):
                if let url = p.url { loaded.insert(URLCanonicalizer.withoutQuery(url)) }
            case .request(let m) where m.kind == .mediaPlaylist || m.kind == .multivariantPlaylist:
                let key = URLCanonicalizer.withoutQuery(m.url)
                if m.error?.isCancellation == true { continue }
                guard m.failed else {
                    if m.status.map({ $0 >= 200 && $0 < 400 }) == true { loaded.insert(key) }
                    continue
                }
                let what =
                    m.status.map { "HTTP \($0)" } ?? m.error.map { e in
                        e.description ?? "\(e.domain ?? "error") \(e.code ?? 0)"
                    } ?? "failed"
                if failures[key] == nil {
                    order.append(key)
                    failures[key] = (record.location.line, m.url, [])
                }
                failures[key]?.statuses.append(what)
            default:
                continue
            }
        }
        return order.compactMap { key in
            guard !loaded.contains(key), let f = failures[key] else { return nil }
            var counted: [(String, Int)] = []
            for s in f.statuses {
                if let i = counted.firstIndex(where: { $0.0 == s }) {
                    counted[i].1 += 1
                } else {
                    counted.append((s, 1))
                }
            }
            let text = counted.map { $0.1 > 1 ? "\($0.0) ×\($0.1)" : $0.0 }.joined(separator: ", ")
            return (
                file, f.line, f.url,
                "every request of it failed (\(text)) and none loaded it: no check could judge it, and a player could not play it"
            )
        }
    }

    // MARK: Output

    public func text(redactor: Redactor) -> String {
        // A whole-playlist defect (line 0) is cited by its file alone, as reports cite one.
        var lines = defects.map { d in
            redactor.clean(
                SourceLocation(file: d.file, line: d.line), "\(d.severity.rawValue): [\(d.check)] \(d.message)")
        }
        let counts = Severity.allCases.reversed().compactMap { s -> String? in
            let n = defects.filter { $0.severity == s }.count
            return n == 0 ? nil : "\(n) \(s.rawValue)"
        }
        for n in notChecked {
            lines.append(
                redactor.clean(SourceLocation(file: n.file, line: n.line), "not checked: \(n.url): \(n.reason)"))
        }
        lines.append(
            "\(playlists) playlist\(playlists == 1 ? "" : "s") checked in \(files.count) file\(files.count == 1 ? "" : "s"): "
                + (counts.isEmpty ? "no defect" : counts.joined(separator: ", "))
                + (notChecked.isEmpty
                    ? ""
                    : "; \(notChecked.count) playlist\(notChecked.count == 1 ? "" : "s") not checked (every request failed)")
        )
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
                "not_checked",
                .array(
                    notChecked.map {
                        .object([
                            ("file", .string(redactor.clean($0.file))), ("line", .integer($0.line)),
                            ("url", .string(redactor.clean($0.url))), ("reason", .string($0.reason)),
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
        // A citation and its text cleaned apart: joined, `apikey.m3u8:12: …` read as a credential.
        func cite(_ file: String, _ line: Int, _ text: String) -> String {
            XMLText.escape(redactor.clean(SourceLocation(file: file, line: line), text))
        }
        var byFile: [String: [Defect]] = [:]
        for f in files { byFile[f] = [] }
        for d in defects { byFile[d.file, default: []].append(d) }
        let unchecked = failOn <= .error ? notChecked : []
        let failures = defects.filter { $0.severity >= failOn }.count + unchecked.count
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"playback-forensics check\" tests=\"\(byFile.count)\" failures=\"\(failures)\">",
            "  <testsuite name=\"stream-checks\" tests=\"\(byFile.count)\" failures=\"\(failures)\">",
        ]
        for (file, list) in byFile.sorted(by: { $0.key < $1.key }) {
            out.append("    <testcase classname=\"stream-checks\" name=\"\(x(file))\">")
            for d in list where d.severity >= failOn {
                out.append(
                    "      <failure type=\"\(x(d.check))\" message=\"\(x("\(d.check): \(d.message)"))\">\(cite(file, d.line, "\(d.severity.rawValue) (\(d.level), \(d.source)): \(d.message)"))</failure>"
                )
            }
            for n in unchecked where n.file == file {
                out.append(
                    "      <failure type=\"not-checked\" message=\"\(x("not checked: \(n.url)"))\">\(cite(file, n.line, "not checked: \(n.url): \(n.reason)"))</failure>"
                )
            }
            let below = list.filter { $0.severity < failOn }
            if !below.isEmpty {
                out.append(
                    "      <system-out>\(below.map { cite(file, $0.line, "\($0.severity.rawValue): [\($0.check)] \($0.message)") }.joined(separator: "\n"))</system-out>"
                )
            }
            out.append("    </testcase>")
        }
        out.append("  </testsuite>")
        out.append("</testsuites>")
        return out.joined(separator: "\n") + "\n"
    }
}
