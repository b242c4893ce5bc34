import Foundation
import ForensicsCore
import ForensicsCorrelation
import ForensicsParsers
import ForensicsRules

/// The library façade: reads a bundle, correlates it into sessions and judges them.
/// Pure apart from reading the bundle: no clock, no environment, no printing.
public struct Analyzer: Sendable {
    package var ingestor: Ingestor
    package var rules: RuleEngine
    /// Diagnostics listed per input file at most; the rest are counted.
    public var maxDiagnosticsPerFile = 200

    public init(options: AnalysisOptions = AnalysisOptions(), rules: RuleSet = RuleSet()) {
        self.init(ingestor: options.ingestor, rules: rules.engine)
    }

    /// With a reader registry or rule list of the caller's own (tests, benchmarks).
    package init(ingestor: Ingestor, rules: RuleEngine = RuleEngine()) {
        self.ingestor = ingestor
        self.rules = rules
    }

    /// Every setting that can change what an analysis finds, as one deterministic text: the
    /// reading limits and options, the formats, and each rule with its enabled state, severity
    /// and effective options (what triage's index compares to know a bundle needs a new analysis).
    public var settingsDescription: String {
        var lines = [
            "limits \(ingestor.limits)", "format \(ingestor.forcedFormat?.rawValue ?? "-")",
            "offset \(ingestor.timezoneOffset.map(String.init) ?? "-")", "zone \(ingestor.timeZone?.identifier ?? "-")",
            "redact \(ingestor.redactor.enabled)",
            "formats \(ingestor.registry.readers.map { $0.declaration.format.rawValue }.joined(separator: ","))",
        ]
        for d in ingestor.registry.configured {
            lines.append("layout \(d.format.rawValue) \(String(describing: d.layout))")
        }
        for e in rules.entries {
            lines.append(
                "rule \(e.description.identifier) \(e.enabled) \(e.severityOverride?.rawValue ?? "-") \(e.optionsJSON)")
        }
        return lines.joined(separator: "\n")
    }

    /// Each file of a bundle with its records and diagnostics, not correlated (`parse`).
    public func read(path: String) throws -> ParsedBundle {
        var bundleDiagnostics: [Diagnostic] = []
        let outcomes = try ingestor.ingestBundle(path: path, diagnostics: &bundleDiagnostics)
        return ParsedBundle(
            files: outcomes.map { o in
                var file = ParsedBundle.File(
                    path: o.path, format: o.format, records: o.result?.records ?? [],
                    diagnostics: o.diagnostics + (o.result?.diagnostics ?? []))
                if o.result?.clock == .deviceLocalZoneUnknown { file.timeBasis = .deviceLocalZoneUnknown }
                return file
            },
            diagnostics: bundleDiagnostics)
    }

    /// Analyzes a bundle on disk (directory, archive, file, or `-` for stdin), with server logs
    /// (CDN or web-server access logs: files, folders or archives) kept apart from it: their rows
    /// are joined to the bundle's sessions, and a file among them that is not a server log is
    /// listed as not read, never taken for a client's log.
    public func analyze(path: String, serverLogs: [String] = []) throws -> AnalysisReport {
        var bundleDiagnostics: [Diagnostic] = []
        var incomplete: String?
        var outcomes = try ingestor.ingestBundle(path: path, diagnostics: &bundleDiagnostics, incomplete: &incomplete)
        // A day of server logs holds every viewer: read through the bundle's keys, so that only
        // rows that could join one of its requests are held.
        var serverIngestor = ingestor
        var serverCut: [String] = []
        if !serverLogs.isEmpty { serverIngestor.serverRowFilter = Self.filter(outcomes, registry: ingestor.registry) }
        serverIngestor.limits.maxBundleBytes = ingestor.limits.maxServerLogBytes
        for (n, logs) in serverLogs.enumerated() {
            // Named apart from the bundle's own files: `cdn-logs/<n>/<member>`, and the path as
            // given (a home directory, a user name) never shown.
            let root = serverLogs.count == 1 ? "cdn-logs" : "cdn-logs/\(n + 1)"
            var logDiagnostics: [Diagnostic] = []
            // A day of logs is many large, independent files: read on every core.
            var cut: String?
            var more = try serverIngestor.ingestBundle(
                path: logs, diagnostics: &logDiagnostics, incomplete: &cut,
                jobs: max(1, min(8, ProcessInfo.processInfo.activeProcessorCount)))
            if let cut {
                serverCut.append(
                    "the server logs \(root) were read in part (\(cut.replacingOccurrences(of: "--max-bundle-size", with: "--max-cdn-log-size"))): requests after the cut may have no server row"
                )
            }
            for var d in logDiagnostics {
                d.location.file =
                    d.location.file == logs ? root : root + "/" + Self.relative(d.location.file, to: logs)
                d.message = d.message.replacingOccurrences(of: logs, with: root)
                bundleDiagnostics.append(d)
            }
            for i in more.indices {
                let name = more[i].path == logs ? Self.lastComponent(logs) : more[i].path
                more[i].rename(to: "\(root)/\(name)")
                // A file that names a CDN's fields but no reader could read (cut short, damaged,
                // a layout not known): given as a server log, it hides the rows it holds.
                if more[i].format == nil, let notRead = more[i].notRead, notRead.reason.hasPrefix("CDN access log") {
                    more[i].refuse(
                        NotRead(
                            "given with --cdn-logs as a server log, but no reader could read it (cut short, damaged, or a layout this tool does not know): \(notRead.reason)",
                            hidesEvidence: true))
                    continue
                }
                guard let format = more[i].format, ingestor.registry.semantics(of: format).role.makesSessions else {
                    continue
                }
                more[i].refuse(
                    NotRead(
                        "given with --cdn-logs, but it is a \(format.rawValue) file, not a server log: put it in the bundle",
                        hidesEvidence: true))
            }
            outcomes.append(contentsOf: more)
        }
        var report = assemble(bundle: path, outcomes: consume outcomes, bundleDiagnostics: bundleDiagnostics)
        report.incomplete = incomplete
        report.caveats.append(contentsOf: serverCut)
        return report
    }

    /// The keys of a bundle's client records (paths, response header values, session ids, time),
    /// widened to any clock offset when a source's zone is unknown.
    static func filter(_ outcomes: [Ingestor.Outcome], registry: FormatRegistry) -> ServerRowFilter {
        var filter = ServerRowFilter()
        for o in outcomes {
            guard let result = o.result, registry.semantics(of: result.format).role.makesSessions else { continue }
            for record in result.records { filter.add(record) }
            // Local times of an unknown zone may be off by up to 14 hours.
            if result.clock == .deviceLocalZoneUnknown, result.deviceZone == nil { filter.slack = 15 * 3600 }
        }
        return filter
    }

    /// `path` inside `root`, without it; else `path`'s last component.
    static func relative(_ path: String, to root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : lastComponent(path)
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// A session read from a file that lost rows (a row refused, a file cut short) has figures
    /// that may be low: the stalls, errors and playing time of what was lost are not in them
    /// (probe N: "stalls 2" beside a refused row of 4). Said as a gap, naming the first line.
    static func rowsLost(_ session: Session, _ lostAt: [String: Int]) -> String? {
        guard !lostAt.isEmpty else { return nil }
        var files: [String: Int] = [:]
        for e in session.entries {
            if let line = lostAt[e.location.file] { files[e.location.file] = line }
        }
        guard let (file, line) = files.min(by: { $0.key < $1.key }) else { return nil }
        let more = files.count > 1 ? " (and \(files.count - 1) more file\(files.count == 2 ? "" : "s"))" : ""
        return
            "\(file): rows not read (the first at line \(line))\(more), see the diagnostics: the key figures count only what was read and may be low"
    }

    /// A stall the `stall` rule puts down to a seek outside the buffer is the seek's wait, not
    /// rebuffering (the viewer asked for it): it
    /// leaves the stall count, duration and rebuffering ratio, and is counted as a seek wait.
    /// Why here: the cause is the rule's (its detector, its options); counting it again in the
    /// correlator would be a second judgment of the same stall. Only a count from the session's
    /// own stall events is changed: a player's summary or access log counts as the player does.
    /// (Probe N: "no problem found" beside "stalls 1 (6.4 s), rebuffering 11.9 %".)
    static func excludeSeekWaits(_ k: inout KPIs, _ findings: [Finding]) {
        guard k.provenance[.stallCount] == .timeline, let n = k.stallCount, n > 0 else { return }
        let waits = findings.filter(\.isSeekWait)
        guard !waits.isEmpty else { return }
        var waited: Double? = 0
        for w in waits {
            if case .number(let d)? = w.details["duration"], d >= 0 {
                waited = waited.map { $0 + d }
            } else {
                waited = nil
            }
        }
        k.stallCount = max(0, n - waits.count)
        k.seekWaitCount = waits.count
        k.seekWaitDuration = waited
        if let d = k.stallDuration {
            k.stallDuration = waited.map { max(0, d - $0) }
        }
        if k.stallCount == 0 {
            k.stallDuration = 0
            k.stallDurationIsLowerBound = false
        }
        if let playing = k.playingTime, let stalled = k.stallDuration, playing + stalled > 0 {
            k.rebufferRatio = stalled / (playing + stalled)
        } else {
            k.rebufferRatio = nil
        }
    }

    /// Analyzes files given in memory (tests, rule examples).
    public func analyze(files: [(name: String, bytes: [UInt8])], bundle: String = "memory") -> AnalysisReport {
        let budget = BundleBudget(limits: ingestor.limits)
        let outcomes = files.map { file in
            ingestor.ingest(BundleMember(path: file.name, open: { MemoryByteSource(file.bytes) }), budget: budget)
        }
        return assemble(bundle: bundle, outcomes: consume outcomes, bundleDiagnostics: [])
    }

    /// Takes the outcomes (`consuming`) so that each file's records move on to the correlator
    /// instead of being held here as well until the report is done.
    func assemble(
        bundle: String, outcomes: consuming [Ingestor.Outcome], bundleDiagnostics: [Diagnostic]
    ) -> AnalysisReport {
        var inputs: [AnalysisReport.Input] = []
        var sources: [SourceFile] = []
        var caveats: [String] = []
        var diagnostics = bundleDiagnostics.map(ingestor.redactor.clean)
        var outcomes = consume outcomes
        outcomes.sort { $0.path < $1.path }
        for i in outcomes.indices {
            let records = outcomes[i].result?.records ?? []
            outcomes[i].result?.records = []
            // A captured media playlist with no segment cannot play: whatever else is judged,
            // the stream itself could not be (a malformed playlist read leniently ends so).
            for playlist in outcomes[i].result?.playlists ?? []
            where !playlist.isMultivariant && playlist.hasHeader && playlist.segments.isEmpty
                && playlist.trailingPartCount == 0 && playlist.preloadHints.isEmpty && playlist.skip == nil
            {
                caveats.append(
                    "\(ingestor.redactor.clean(playlist.url ?? outcomes[i].path)) (in \(outcomes[i].path)): a media playlist with no playable segment"
                )
            }
            let outcome = outcomes[i]
            // A server log cut short by a limit: requests after the cut have no row to join.
            if let r = outcome.result, r.stoppedAtRecordLimit,
                !ingestor.registry.semantics(of: r.format).role.makesSessions
            {
                caveats.append(
                    "\(ingestor.redactor.clean(outcome.path)): a server log read in part (record limit): requests after its last row read have no server row to join"
                )
            }
            var fileDiagnostics = outcome.diagnostics + (outcome.result?.diagnostics ?? [])
            let count = fileDiagnostics.count
            if fileDiagnostics.count > maxDiagnosticsPerFile {
                fileDiagnostics = Array(fileDiagnostics.prefix(maxDiagnosticsPerFile))
                fileDiagnostics.append(
                    Diagnostic(
                        SourceLocation(file: outcome.path, line: 0), .warning,
                        "\(count - maxDiagnosticsPerFile) more diagnostics not listed"))
            }
            diagnostics.append(contentsOf: fileDiagnostics)
            inputs.append(
                AnalysisReport.Input(
                    path: outcome.path, format: outcome.format, records: records.count,
                    diagnostics: count, producer: outcome.result?.producer, notRead: outcome.notRead))
            inputs[inputs.count - 1].rowsRead = outcome.result?.serverCoverage?.rows
            if let result = outcome.result {
                sources.append(
                    SourceFile(
                        path: result.file, format: result.format,
                        semantics: ingestor.registry.semantics(of: result.format), records: records,
                        clock: result.clock, deviceZone: result.deviceZone))
                sources[sources.count - 1].coverage = result.serverCoverage
            }
        }
        outcomes = []
        let correlation = Correlator().correlate(consume sources)
        diagnostics.append(contentsOf: correlation.diagnostics)
        // The session-making formats a session has no file of: what its report says is missing.
        let clientFormats = ingestor.registry.descriptors.filter(\.semantics.role.makesSessions).map(\.format)
        // Files that lost rows (an error at a line: a row refused, a file cut short): the first
        // such line of each, for the sessions that read them.
        var lostAt: [String: Int] = [:]
        for d in diagnostics where d.severity >= .error && d.location.line > 0 {
            lostAt[d.location.file] = min(lostAt[d.location.file] ?? .max, d.location.line)
        }
        let sessions = correlation.sessions.map { session in
            var session = session
            session.absentSources = clientFormats.filter { !session.sources.contains($0) }
            let findings = rules.evaluate(session)
            // One story: the rule that judged playback failed (from the error log's last rows, a
            // summary's error, the console) settles the fatal-error figure, and a failure is an
            // error however the sources counted them.
            if findings.contains(where: { $0.ruleID == PlaybackFailedRule.description.identifier }) {
                session.kpis.fatalError = true
                if session.kpis.errorCount == 0 { session.kpis.errorCount = 1 }
                // A source that cannot count errors still showed this one: at least one.
                if session.kpis.errorCount == nil {
                    session.kpis.errorCount = 1
                    session.kpis.errorCountIsLowerBound = true
                    session.kpis.provenance[.errorCount] = .timeline
                }
            }
            Self.excludeSeekWaits(&session.kpis, findings)
            // What the session cannot show, judged on all its findings (before any narrowing).
            // Only when the count is the timeline's own (no stall event seen): a summary's or an
            // access log's count is the player's, and stands.
            let rateDrops =
                session.kpis.provenance[.stallCount] == .timeline || session.kpis.stallCount == nil
                ? Self.rateDropsUnjudged(session) : nil
            if rateDrops != nil, session.kpis.stallCount == 0 {
                // Stalls that could not be told from pauses are unknown, not none.
                session.kpis.stallCount = nil
                session.kpis.stallDuration = nil
                session.kpis.rebufferRatio = nil
            }
            let gaps = [
                Self.unmeasured(session, registry: ingestor.registry), Self.unexplained(session, findings), rateDrops,
                Self.startupUnmeasured(session), Self.severalItems(session), Self.rowsLost(session, lostAt),
            ].compactMap { $0 }
            return AnalysisReport.SessionResult(session: session, findings: findings, gaps: gaps)
        }
        diagnostics.sort { $0.location < $1.location }
        var report = AnalysisReport(
            bundle: ingestor.redactor.clean(bundle), inputs: inputs, sessions: sessions, diagnostics: diagnostics,
            unassignedRecords: correlation.unassigned.count)
        report.caveats = caveats
        report.serverRows = correlation.serverRows
        report.unjoinedServerRows = correlation.unjoinedServerRows
        return report
    }

    /// Key figures no finding accounts for (errors the player recovered from, below every rule's
    /// threshold): "no problem found" beside a KPI table with stalls or errors would tell two
    /// stories (rules.md). A session with a finding at warning level or above needs no such
    /// reason; stalls are accounted for by a `stall` finding of any severity (a stall after a
    /// seek is one, at info), errors by any other finding.
    /// A dump with no stall event whose player rate fell to 0 and came back only through a
    /// likely-to-keep-up (the player re-buffering): a stall a recorder wrote as its superclass,
    /// the rate-change event (`metric-event-dump.md`: test subclasses first), cannot be told from
    /// a pause by the rate alone. The stalls are then not judged, and the verdict says so.
    static func rateDropsUnjudged(_ session: Session) -> String? {
        guard !session.entries.contains(where: { $0.record.playerEvent?.kind == .stall }) else { return nil }
        // A stall's signature: the rate falls to 0, the player becomes likely to keep up, and
        // the rate comes back at once (the player resumes itself) — or never, in what was
        // logged. A pause is resumed later by the viewer (probe L: a buffer refilled while
        // paused is no stall).
        var dropped: Timestamp?
        var ready: Timestamp?
        var count = 0
        var first: (Timestamp?, Double?)?
        func suspect() {
            count += 1
            if first == nil {
                var waited: Double?
                if let from = dropped?.secondsSince1970, let to = ready?.secondsSince1970 { waited = to - from }
                first = (dropped, waited)
            }
        }
        var pendingDrop = false
        var pendingReady = false
        for e in session.entries {
            guard let p = e.record.playerEvent else { continue }
            switch p.kind {
            case .rateChange where (p.rate ?? 1) == 0 && (p.previousRate ?? 0) > 0:
                (dropped, ready, pendingDrop, pendingReady) = (e.time, nil, true, false)
            case .rateChange:
                if pendingReady, let r = ready?.secondsSince1970, let t = e.time?.secondsSince1970, t - r <= 1 {
                    suspect()
                }
                (pendingDrop, pendingReady) = (false, false)
            case .seek, .seekDidComplete:
                (pendingDrop, pendingReady) = (false, false)
            case .likelyToKeepUp where pendingDrop && !pendingReady:
                (ready, pendingReady) = (e.time, true)
            default:
                break
            }
        }
        // Ready again and never resumed in what was logged: a stall cannot be ruled out.
        if pendingReady { suspect() }
        guard count > 0, let first else { return nil }
        let when = first.0.map { " at \($0.iso8601(session.timeBasis))" } ?? ""
        let wait = first.1.map { ", a likely-to-keep-up \(NumberFormat.seconds($0)) later" } ?? ""
        return
            "stalls could not be judged: the player's rate fell to 0\(when)\(wait) and no stall event was recorded (\(count) such drop\(count == 1 ? "" : "s")) — a stall written as a rate change (a recorder that tests the rate-change class before its stall subclass) cannot be told from a pause"
    }

    /// The player became ready, but nothing shows when loading began — no request, no play
    /// request before it, no stated startup time: the startup is unknown, and so is whether it
    /// was slow (probe L: an empty window read as 0 s). Left to `unmeasured` when the stalls are
    /// unknown too (it names both).
    static func startupUnmeasured(_ session: Session) -> String? {
        guard session.kpis.startupTime == nil, session.kpis.stallCount != nil,
            let ready = session.entries.first(where: { $0.record.playerEvent?.kind == .initialLikelyToKeepUp })
        else { return nil }
        let when = ready.time.map { " at \($0.iso8601(session.timeBasis))" } ?? ""
        return
            "startup time could not be judged: the player was ready\(when), but no request, no earlier play request and no stated startup time (timeTaken, timeSpentInInitialStartup) shows when loading began"
    }

    /// More than one initial likely-to-keep-up: the session holds several player items (one
    /// upload per app session). Each item's stated startup is judged (`slow-startup`), but the
    /// session's figures — playing time, rebuffering, the startup breakdown — span them all.
    static func severalItems(_ session: Session) -> String? {
        let items = session.playerItemStarts.count
        guard items > 1 else { return nil }
        return
            "the session holds \(items) player items (an initial likely-to-keep-up each, one session ID): its key figures span them all, the gaps between them included; upload one dump per item (or a session ID per item) to judge each"
    }

    static func unexplained(_ session: Session, _ findings: [Finding]) -> String? {
        guard !findings.contains(where: { $0.severity >= .warning }) else { return nil }
        let k = session.kpis
        let stallRule = StallRule.description.identifier
        var shown: [String] = []
        if let n = k.stallCount, n > 0, !findings.contains(where: { $0.ruleID == stallRule }) {
            shown.append("\(n) stall\(n == 1 ? "" : "s")")
        }
        let otherFinding = findings.contains { $0.ruleID != stallRule }
        if let n = k.errorCount, n > 0, !otherFinding { shown.append("\(n) error\(n == 1 ? "" : "s")") }
        if k.fatalError == true, !otherFinding { shown.append("a fatal error") }
        guard !shown.isEmpty else { return nil }
        return
            "the key figures show \(shown.joined(separator: " and ")) that no finding explains (see the key figures and the timeline)"
    }

    /// What a session's sources cannot show, when that leaves "no problem" unclaimable: a session
    /// told only by sources that measure nothing (a device console states the errors it logs, but
    /// its silence proves nothing), or one whose requests were seen but whose player was not (a
    /// proxy log, a HAR capture, an error log: stalls and startup need player events or the
    /// access log's counts, and a ticket is usually about exactly those). Playlists alone show the
    /// stream, which the stream checks judge, but not whether it played. The reason, without the
    /// session's name.
    static func unmeasured(_ session: Session, registry: FormatRegistry) -> String? {
        let declarations = session.sources.compactMap { registry.reader(for: $0)?.declaration }
        guard !declarations.isEmpty, declarations.count == session.sources.count else { return nil }
        let names = declarations.map(\.displayName).joined(separator: ", ")
        let capabilities = declarations.reduce(into: SourceSemantics.Capabilities()) {
            $0.formUnion($1.semantics.capabilities)
        }
        if capabilities.isEmpty {
            return
                "the only source read is \(names), which states errors when they are logged but whose silence proves nothing: stalls, startup and requests cannot be judged from it (add the player's access and error logs, AVMetrics events or a HAR capture)"
        }
        // Judged by what was measured, not by capability alone: a console's player lines can
        // still give the stalls.
        guard session.kpis.stallCount == nil else { return nil }
        let unknown = session.kpis.startupTime == nil ? "stalls and startup time" : "stalls"
        if capabilities.contains(.stallCounts) {
            // An access log is there, but its rows leave the stalls untold (`-`, or no column).
            var rows = 0
            var untold = 0
            for e in session.entries {
                guard case .accessLog(let a) = e.record.payload else { continue }
                rows += 1
                if a.stalls == nil { untold += 1 }
            }
            let which =
                untold < rows
                ? "\(untold) of its access log's \(rows) rows carry no stall count (c-stalls is -), so the stalls of those periods are unknown"
                : "no row of its access log carries a stall count (c-stalls)"
            return "\(unknown) cannot be judged: \(which), and no other source (\(names)) records the player's stalls"
        }
        if session.sources.contains(.metricEvents), session.capabilities.contains(.playerEvents) {
            return
                "\(unknown) cannot be judged: its AVMetrics dump holds no event that starts or ends a stall (a stall, a likely-to-keep-up after the first, a rate change, a summary's count; an app records the event types it chooses): record those too, or add the player's access log"
        }
        if session.sources.contains(.metricEvents) {
            return
                "\(unknown) cannot be judged: its AVMetrics dump holds no event of the player's own (an app records the event types it chooses), only requests and errors (record the player's events too, or add its access log)"
        }
        let shows = capabilities.subtracting(.playlists).isEmpty ? "show the stream" : "show requests and errors"
        return
            "\(unknown) cannot be judged: its sources (\(names)) \(shows), not what the player did (add AVMetrics events or the player's access log)"
    }
}
