import Foundation
import ForensicsCore

/// Reads one bundle member end to end: decompresses it if its bytes are gzip, recognises its
/// format (or takes the forced one), and runs the matching parser. Never throws: anything that
/// goes wrong is a diagnostic on the member, and whatever was read before the problem is kept.
package struct Ingestor: Sendable {
    package var limits: BundleLimits
    package var forcedFormat: InputFormat?
    /// Seconds east of UTC for sources that write local time without an offset (access logs),
    /// when the user stated it; nil when unknown (then clock alignment may still find it).
    package var timezoneOffset: Int?
    /// A named device zone (`--timezone Europe/Berlin`), applied with daylight saving per row.
    package var timeZone: TimeZone?
    /// The cleaning stage (controls made visible; secrets redacted, on by default), run on every
    /// outcome before it leaves the ingestor.
    package var redactor = Redactor()
    /// The formats this ingestor recognises and reads.
    package var registry = FormatRegistry.standard
    /// Set while reading server logs given apart from a bundle: only rows that could concern
    /// it are kept.
    package var serverRowFilter: ServerRowFilter?
    /// Set while storing server logs for triage: rows go there, not into the outcome.
    package var serverRowSink: (any ServerRowSink)?

    package init(limits: BundleLimits = BundleLimits(), forcedFormat: InputFormat? = nil, timezoneOffset: Int? = nil) {
        self.limits = limits
        self.forcedFormat = forcedFormat
        self.timezoneOffset = timezoneOffset
    }

    /// The result of one member; `format` is nil when it was not recognised.
    package struct Outcome: Sendable {
        package var path: String
        package var format: InputFormat?
        package var result: ParseResult?
        package var diagnostics: [Diagnostic]
        /// An archive inside the bundle, spooled to this private file to be expanded in turn.
        var spooledArchive: String?
        /// Why the file was not read (no format's evidence, an encrypted member, a capture with
        /// no media request): listed so in the inputs, never half-read.
        package var notRead: NotRead?

        package init(path: String, format: InputFormat?, result: ParseResult?, diagnostics: [Diagnostic]) {
            self.path = path
            self.format = format
            self.result = result
            self.diagnostics = diagnostics
        }

        /// Names the file by another path (its records and diagnostics too).
        package mutating func rename(to name: String) {
            let old = path
            path = name
            func moved(_ d: Diagnostic) -> Diagnostic {
                var d = d
                if d.location.file == old { d.location.file = name }
                return d
            }
            diagnostics = diagnostics.map(moved)
            guard var r = result else { return }
            result = nil
            r.file = name
            r.diagnostics = r.diagnostics.map(moved)
            for i in r.records.indices where r.records[i].location.file == old { r.records[i].location.file = name }
            result = r
        }

        /// Keeps the file out of the analysis, listed as not read for `reason`.
        package mutating func refuse(_ reason: NotRead) {
            result = nil
            notRead = reason
        }
    }

    /// Reads, parses and cleans one member. With a bundle's budget, the member keeps at most the
    /// records and bytes the bundle has left, and is not read at all once the budget is spent.
    package func ingest(_ member: BundleMember, budget: BundleBudget? = nil) -> Outcome {
        var outcome = ingestKeepingArchive(member, budget: budget)
        if let spooled = outcome.spooledArchive {
            // Only the bundle walk (`ingestBundle`) expands an archive inside a bundle.
            TemporaryFiles.remove(spooled)
            outcome.spooledArchive = nil
            outcome.diagnostics.append(
                Diagnostic(
                    SourceLocation(file: outcome.path, line: 0), .warning,
                    "an archive: its members are read when it is part of a bundle on disk"))
        }
        return outcome
    }

    /// `ingest`, leaving an archive found inside the bundle spooled for `ingestExpanding`.
    func ingestKeepingArchive(_ member: BundleMember, budget: BundleBudget?) -> Outcome {
        if let budget, let reason = budget.exhausted {
            let d = Diagnostic(SourceLocation(file: member.path, line: 0), .warning, "not read: \(reason)")
            return redactor.clean(Outcome(path: member.path, format: nil, result: nil, diagnostics: [d]))
        }
        var outcome = read(member, budget: budget)
        if var result = outcome.result {
            // Taken out first, so the records are held once and changed in place, not copied.
            outcome.result = nil
            TimeOutliers.clear(&result)
            outcome.result = result
        }
        budget?.add(records: outcome.result?.records.count ?? 0)
        return redactor.clean(outcome)
    }

    /// Reads every member of a bundle on disk (directory, archive, file, or `-` for stdin) within
    /// one budget of the limits: the one read loop `analyze`, `timeline`, `parse` and triage share.
    package func ingestBundle(path: String, diagnostics: inout [Diagnostic]) throws -> [Outcome] {
        var incomplete: String?
        return try ingestBundle(path: path, diagnostics: &diagnostics, incomplete: &incomplete)
    }

    /// The same, telling why the bundle was not read to the end (`incomplete`), when a bundle
    /// limit stopped it.
    package func ingestBundle(
        path: String, diagnostics: inout [Diagnostic], incomplete: inout String?
    ) throws -> [Outcome] {
        let budget = BundleBudget(limits: limits)
        defer { Self.noteExhausted(budget, path: path, diagnostics: &diagnostics, incomplete: &incomplete) }
        var outcomes: [Outcome] = []
        var nested: [Diagnostic] = []
        try BundleReader(limits: limits).read(path: path, diagnostics: &diagnostics) { member in
            ingestExpanding(member, budget: budget, depth: 1, into: &outcomes, diagnostics: &nested)
        }
        diagnostics.append(contentsOf: nested)
        return outcomes
    }

    /// The same, reading files of their own on up to `jobs` threads while the walk goes on (a
    /// day of server logs: many large, independent gzip files). A file is opened in the walk
    /// (whose descriptor closes when it moves on) and read by a worker; members streamed from an
    /// archive are read in the walk, in order. The outcomes come in no set order: `assemble`
    /// sorts them by path.
    package func ingestBundle(
        path: String, diagnostics: inout [Diagnostic], incomplete: inout String?, jobs: Int
    ) throws -> [Outcome] {
        guard jobs > 1 else { return try ingestBundle(path: path, diagnostics: &diagnostics, incomplete: &incomplete) }
        let budget = BundleBudget(limits: limits)
        let collected = Collected()
        let group = DispatchGroup()
        let slots = DispatchSemaphore(value: jobs)
        let queue = DispatchQueue(label: "ingest", attributes: .concurrent)
        let ingestor = self
        defer { Self.noteExhausted(budget, path: path, diagnostics: &diagnostics, incomplete: &incomplete) }
        try BundleReader(limits: limits).read(path: path, diagnostics: &diagnostics) { member in
            // Opened now, in the walk; a file that cannot be opened is read inline, which reports it.
            if member.independent, let source = try? member.open() {
                let opened = OpenedSource(source)
                let name = member.path
                slots.wait()
                group.enter()
                queue.async {
                    defer {
                        slots.signal()
                        group.leave()
                    }
                    var outcomes: [Outcome] = []
                    var nested: [Diagnostic] = []
                    ingestor.ingestExpanding(
                        BundleMember(path: name, open: { opened.source }), budget: budget, depth: 1, into: &outcomes,
                        diagnostics: &nested)
                    collected.add(outcomes, nested)
                }
            } else {
                var outcomes: [Outcome] = []
                var nested: [Diagnostic] = []
                ingestExpanding(member, budget: budget, depth: 1, into: &outcomes, diagnostics: &nested)
                collected.add(outcomes, nested)
            }
        }
        group.wait()
        let (outcomes, nested) = collected.take()
        diagnostics.append(contentsOf: nested)
        return outcomes
    }

    /// Says why a bundle was not read to the end, when its budget ran out.
    static func noteExhausted(
        _ budget: BundleBudget, path: String, diagnostics: inout [Diagnostic], incomplete: inout String?
    ) {
        guard let reason = budget.exhausted else { return }
        incomplete = reason
        diagnostics.append(
            Diagnostic(
                SourceLocation(file: path == "-" ? "stdin" : path, line: 0), .error,
                "bundle not read to the end: \(reason)"))
    }

    /// Outcomes gathered from workers.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [Outcome] = []
        private var diagnostics: [Diagnostic] = []

        func add(_ o: [Outcome], _ d: [Diagnostic]) {
            lock.lock()
            defer { lock.unlock() }
            outcomes.append(contentsOf: o)
            diagnostics.append(contentsOf: d)
        }

        func take() -> ([Outcome], [Diagnostic]) {
            lock.lock()
            defer { lock.unlock() }
            return (outcomes, diagnostics)
        }
    }

    /// A source opened in the walk, handed to the worker that reads it (and only to it).
    private final class OpenedSource: @unchecked Sendable {
        let source: any ByteSource
        init(_ source: any ByteSource) { self.source = source }
    }

    /// Ingests a member; an archive inside the bundle (a zip in a zip, a tar.gz in a folder's
    /// zip) is expanded, its members named under it, to `maxArchiveDepth` levels.
    func ingestExpanding(
        _ member: BundleMember, budget: BundleBudget, depth: Int, into outcomes: inout [Outcome],
        diagnostics: inout [Diagnostic]
    ) {
        let outcome = ingestKeepingArchive(member, budget: budget)
        guard let spooled = outcome.spooledArchive else {
            outcomes.append(outcome)
            return
        }
        defer { TemporaryFiles.remove(spooled) }
        guard depth < limits.maxArchiveDepth else {
            outcomes.append(
                Outcome(
                    path: outcome.path, format: nil, result: nil,
                    diagnostics: [
                        Diagnostic(
                            SourceLocation(file: outcome.path, line: 0), .error,
                            "archive nested more than \(limits.maxArchiveDepth) levels deep: not read")
                    ]))
            return
        }
        var walk: [Diagnostic] = []
        var deeper: [Diagnostic] = []
        do {
            try BundleReader(limits: limits).read(archive: spooled, displayedAs: member.path, diagnostics: &walk) {
                inner in
                ingestExpanding(inner, budget: budget, depth: depth + 1, into: &outcomes, diagnostics: &deeper)
            }
        } catch {
            walk.append(Diagnostic(SourceLocation(file: outcome.path, line: 0), .error, "\(error)"))
        }
        diagnostics.append(contentsOf: (walk + deeper).map(redactor.clean))
    }

    func read(_ member: BundleMember, budget: BundleBudget? = nil) -> Outcome {
        var diagnostics: [Diagnostic] = []
        let location = SourceLocation(file: member.path, line: 0)
        if let notRead = member.notRead {
            // Info: the inputs list and the verdict already say it, with the command.
            diagnostics.append(Diagnostic(location, .info, "not read: \(notRead.reason)"))
            var out = Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
            out.notRead = notRead
            return out
        }
        do {
            var raw = PeekableByteSource(try member.open())
            let magic = try raw.peek(2)
            if magic.isEmpty {
                diagnostics.append(Diagnostic(location, .warning, "empty file"))
                var out = Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
                out.notRead = NotRead("empty file", hidesEvidence: false)
                return out
            }
            var source = raw
            // Stacked gzip (a `.gz` of a `.gz`) is unwrapped layer by layer, to a small depth.
            var layers = 0
            while GzipByteSource.isGzip(try source.peek(2)) {
                guard layers < limits.maxArchiveDepth else {
                    diagnostics.append(
                        Diagnostic(location, .error, "gzip nested more than \(limits.maxArchiveDepth) times: not read"))
                    return Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
                }
                layers += 1
                source = PeekableByteSource(
                    try GzipByteSource(source, name: member.path, limit: limits.maxDecompressedSize))
            }
            if layers > 1 {
                diagnostics.append(Diagnostic(location, .info, "gzip inside gzip (\(layers) layers): unwrapped"))
            }
            if layers > 0 {
                // Inflating on a second core while this one parses (zlib stays the inflater).
                source = PeekableByteSource(ReadAheadByteSource(source))
            }
            if let budget {
                source = PeekableByteSource(BudgetedByteSource(base: source, budget: budget, path: member.path))
            }
            var prefix: [UInt8]
            do {
                prefix = try source.peek(SniffText.length)
            } catch {
                diagnostics.append(Diagnostic(location, .error, "\(error)"))
                return Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
            }
            if forcedFormat == nil, BundleReader.isArchive(prefix) {
                // Expanded by the bundle walk (`ingestExpanding`), from a private copy: a zip
                // needs random access, and a member's bytes can be read only once.
                var out = Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
                out.spooledArchive = try BundleReader.spool(&source, limit: limits.maxMemberSize, name: member.path)
                return out
            }
            if CROnlyLineEndingSource.applies(to: prefix) {
                diagnostics.append(
                    Diagnostic(location, .info, "lines end in CR alone (classic Mac): read as line breaks"))
                source = PeekableByteSource(CROnlyLineEndingSource(source))
                prefix = try source.peek(SniffText.length)
            }
            if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF])
                || UnclaimedContent.isUTF16WithoutBOM(prefix)
            {
                diagnostics.append(
                    Diagnostic(location, .error, "UTF-16 text is not supported: convert the file to UTF-8"))
                var out = Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
                out.notRead = NotRead("UTF-16 text (convert the file to UTF-8)", hidesEvidence: true)
                return out
            }
            let configured = forcedFormat == nil ? registry.sniffConfigured(prefix) : nil
            guard let format = forcedFormat ?? configured?.format ?? registry.sniff(prefix) else {
                let notRead = UnclaimedContent.describe(prefix, name: member.path)
                diagnostics.append(Diagnostic(location, .info, "not read: \(notRead.reason)"))
                var out = Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
                out.notRead = notRead
                return out
            }
            // A forced format reads only a file that shows its evidence: forcing the proxy-log
            // reader on a console capture invented an origin failure.
            if let forced = forcedFormat, let reader = registry.reader(for: forced), let text = SniffText(prefix),
                !reader.sniff(text)
            {
                let reason =
                    "forced as \(forced.rawValue) (--log-format), but none of that format's evidence is in its first \(SniffText.length / 1024) KiB"
                diagnostics.append(Diagnostic(location, .warning, "not read: \(reason)"))
                var out = Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
                out.notRead = NotRead(reason, hidesEvidence: true)
                return out
            }
            let maxRecords = min(limits.maxRecordsPerFile, budget?.recordsLeft ?? Int.max)
            var result = try parse(
                &source, format: format, path: member.path, maxRecords: maxRecords, configured: configured)
            // A parser that reads a whole document first (HAR, a metric document) may hold more.
            if result.records.count > maxRecords {
                result.records.removeLast(result.records.count - maxRecords)
                _ = result.reachedRecordLimit(maxRecords, line: result.records.last?.location.line ?? 0)
            }
            if result.unkeptDiagnostics > 0 {
                result.diagnostics.append(
                    Diagnostic(
                        location, .warning,
                        "\(result.unkeptDiagnostics) more diagnostics not kept (at most \(ParseResult.maxDiagnostics) per file)"
                    ))
            }
            result.diagnostics.insert(contentsOf: diagnostics, at: 0)
            var out = Outcome(path: member.path, format: format, result: result, diagnostics: [])
            out.notRead = result.notRead
            return out
        } catch {
            diagnostics.append(Diagnostic(location, .error, "\(error)"))
            var out = Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
            out.notRead = NotRead("could not be read: \(error)", hidesEvidence: true)
            return out
        }
    }

    /// Runs the format's reader on the member's bytes.
    func parse(
        _ source: inout PeekableByteSource, format: InputFormat, path: String, maxRecords: Int = .max,
        configured: ServerLogDeclaration? = nil
    ) throws -> ParseResult {
        var context = ReadContext(
            path: path, limits: limits, maxRecords: maxRecords, timezoneOffset: timezoneOffset, timeZone: timeZone)
        context.serverRowFilter = serverRowFilter
        context.serverRowSink = serverRowSink
        if let configured { return try configured.read(&source, context: context) }
        guard let reader = registry.reader(for: format) else {
            var result = ParseResult(file: path, format: format)
            result.diagnostics.append(
                Diagnostic(SourceLocation(file: path, line: 0), .error, "no reader for format '\(format.rawValue)'"))
            return result
        }
        return try reader.read(&source, context: context)
    }
}

#if DEBUG || FUZZING
extension Redactor {
    /// Whether two records hold the same values: `==` on the payloads (cheap), and their full
    /// descriptions when that says no (a NaN is not equal to itself, but describes the same).
    static func sameRecord(_ a: Record, _ b: Record) -> Bool {
        func equal() -> Bool {
            guard a.sessionID == b.sessionID, a.time == b.time, a.location == b.location, a.format == b.format
            else { return false }
            switch (a.payload, b.payload) {
            case (.request(let x), .request(let y)): return x == y
            case (.player(let x), .player(let y)): return x == y
            case (.error(let x), .error(let y)): return x == y
            case (.summary(let x), .summary(let y)): return x == y
            case (.accessLog(let x), .accessLog(let y)): return x == y
            case (.errorLog(let x, let u), .errorLog(let y, let v)): return x == y && u == v
            case (.proxy(let x), .proxy(let y)): return x == y
            case (.console(let x), .console(let y)): return x == y
            case (.playlist(let x), .playlist(let y)): return x == y
            case (.unknown(let x), .unknown(let y)): return x == y
            default: return false
            }
        }
        return equal() || String(reflecting: a) == String(reflecting: b)
    }
}
#endif

extension Redactor {
    /// The redaction stage for one member's outcome: its name (a saved `index.m3u8?token=…`),
    /// every record and every diagnostic.
    package func clean(_ outcome: consuming Ingestor.Outcome) -> Ingestor.Outcome {
        var out = outcome
        out.path = clean(out.path)
        out.notRead = out.notRead.map { NotRead(clean($0.reason), hidesEvidence: $0.hidesEvidence) }
        out.diagnostics = out.diagnostics.map(clean)
        if var result = out.result {
            out.result = nil  // the records are redacted in place, not copied
            let file = clean(result.file)
            result.file = file
            var memo = CleanDetailsMemo()
            for i in result.records.indices {
                if needsCleaning(result.records[i], memo: &memo) {
                    var r = clean(result.records[i])
                    r.location.file = file
                    result.records[i] = r
                } else {
                    #if DEBUG || FUZZING
                    // Every test and fuzz input checks the skip: cleaning would have changed nothing.
                    precondition(
                        Self.sameRecord(clean(result.records[i]), result.records[i]),
                        "cleaning skipped: \(String(reflecting: result.records[i]))")
                    #endif
                    if result.records[i].location.file != file { result.records[i].location.file = file }
                }
            }
            result.diagnostics = result.diagnostics.map(clean)
            result.producer = result.producer.map(clean)
            out.result = result
        }
        return out
    }
}
