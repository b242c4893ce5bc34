import ForensicsCore
import ForensicsIndex
import ForensicsParsers
import Foundation

/// Triage with a day of server logs: the logs read once into a `ServerRowStore`, each bundle's
/// rows looked up there by its keys — never the logs read again per bundle.
extension Analyzer {
    /// What storing server logs did.
    package struct StoredLogs: Sendable {
        /// Given files read now, and given files already stored as they are.
        package var read = 0
        package var reused = 0
        package var rows = 0
        /// Problems reading them (a file that is not a server log, a gzip cut short), by file.
        package var diagnostics: [Diagnostic] = []
    }

    /// Reads server logs (files, folders of them, archives) into `store`: each row, redacted, by
    /// its keys; each file's coverage. A file stored before, unchanged and read with the same
    /// settings, is not read again; files no longer given are dropped.
    package func storeServerLogs(_ paths: [String], in store: ServerRowStore) throws -> StoredLogs {
        var out = StoredLogs()
        var given: [(path: String, name: String)] = []
        for (n, root) in paths.enumerated() {
            let prefix = paths.count == 1 ? "cdn-logs" : "cdn-logs/\(n + 1)"
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
                throw TriageIndex.IndexError(description: "--cdn-logs: \(root): no such file or folder")
            }
            if isDirectory.boolValue {
                let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
                for relative in files {
                    let full = root + "/" + relative
                    var dir: ObjCBool = false
                    // Only regular files inside the folder: a link out of it is not followed.
                    guard FileManager.default.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue,
                        (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) == nil
                    else { continue }
                    given.append((full, prefix + "/" + relative))
                }
            } else {
                given.append((root, prefix + "/" + Self.lastComponent(root)))
            }
        }
        let settings = settingsDescription
        try store.keepOnly(containers: Set(given.map(\.name)))
        for (path, name) in given {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            if try store.hasContainer(name, size: size, modified: modified, settings: settings) {
                out.reused += 1
                continue
            }
            try store.removeContainer(name)
            let sink = StoreSink(
                store: store, container: name, size: size, modified: modified, settings: settings,
                redactor: ingestor.redactor)
            var reading = ingestor
            reading.serverRowSink = sink
            // A day of logs is read under the server-log limit, with no per-bundle time limit.
            reading.limits.maxBundleBytes = ingestor.limits.maxServerLogBytes
            reading.limits.timeLimit = nil
            var diagnostics: [Diagnostic] = []
            var cut: String?
            var outcomes = try reading.ingestBundle(path: path, diagnostics: &diagnostics, incomplete: &cut)
            try sink.flush()
            for i in outcomes.indices {
                // The name rows were handed to the sink under, before the file is renamed.
                let read = outcomes[i].result?.file ?? outcomes[i].path
                let shown =
                    outcomes[i].path == path || outcomes[i].path == Self.lastComponent(path)
                    ? name : name + "/" + Self.relative(outcomes[i].path, to: path)
                outcomes[i].rename(to: shown)
                let o = outcomes[i]
                var notes = o.diagnostics + (o.result?.diagnostics ?? [])
                if let format = o.format, ingestor.registry.semantics(of: format).role.makesSessions {
                    notes.append(
                        Diagnostic(
                            SourceLocation(file: shown, line: 0), .warning,
                            "given with --cdn-logs, but it is a \(format.rawValue) file, not a server log: not read"))
                }
                let id = try sink.fileID(for: read, shownAs: shown)
                let coverage = o.result?.serverCoverage ?? ServerLogCoverage()
                out.rows += coverage.rows
                // A file cut by a limit stays incomplete: the next run reads it again.
                if cut != nil || o.result?.stoppedAtRecordLimit == true { continue }
                try store.finishFile(
                    id,
                    format: o.format.flatMap {
                        ingestor.registry.serverDeclaration(for: $0) == nil ? nil : $0.rawValue
                    },
                    coverage: coverage,
                    diagnostics: notes.prefix(maxDiagnosticsPerFile).map {
                        "\($0.location.line)\u{1F}\($0.severity.rawValue)\u{1F}\(ingestor.redactor.clean($0).message)"
                    })
                out.diagnostics.append(contentsOf: notes.map(ingestor.redactor.clean))
            }
            out.diagnostics.append(contentsOf: diagnostics.map(ingestor.redactor.clean))
            if let cut {
                out.diagnostics.append(
                    Diagnostic(
                        SourceLocation(file: name, line: 0), .error,
                        "read in part (\(cut); for server logs the limit is --max-cdn-log-size): not stored whole, read again next run"
                    ))
            }
            out.read += 1
        }
        try store.finishStoring()
        return out
    }

    /// Analyzes a bundle with the server rows of `store` that could concern it.
    package func analyze(path: String, serverStore store: ServerRowStore) throws -> AnalysisReport {
        var bundleDiagnostics: [Diagnostic] = []
        var incomplete: String?
        var outcomes = try ingestor.ingestBundle(path: path, diagnostics: &bundleDiagnostics, incomplete: &incomplete)
        let filter = Self.filter(outcomes, registry: ingestor.registry)
        for file in try store.files() {
            let format = file.format.map { InputFormat($0) }
            var result = ParseResult(file: file.name, format: format ?? InputFormat("not-read"))
            if let format, let declaration = ingestor.registry.serverDeclaration(for: format) {
                for row in try store.rows(file: file.id, filter: filter, limit: ingestor.limits.maxRecordsPerFile) {
                    if let record = declaration.reread(
                        header: row.header, raw: row.raw, line: row.line, file: file.name)
                    {
                        result.records.append(ingestor.redactor.clean(record))
                    }
                }
            }
            result.serverCoverage = file.coverage
            result.diagnostics = file.diagnostics.compactMap { text in
                let parts = text.split(separator: "\u{1F}", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3, let line = Int(parts[0]), let severity = Severity(rawValue: String(parts[1]))
                else { return nil }
                return Diagnostic(SourceLocation(file: file.name, line: line), severity, String(parts[2]))
            }
            var outcome = Ingestor.Outcome(
                path: file.name, format: format, result: format == nil ? nil : result, diagnostics: [])
            if format == nil {
                outcome.diagnostics = result.diagnostics
                outcome.notRead = NotRead("not a server log this tool reads", hidesEvidence: true)
            }
            outcomes.append(outcome)
        }
        var report = assemble(bundle: path, outcomes: consume outcomes, bundleDiagnostics: bundleDiagnostics)
        report.incomplete = incomplete
        return report
    }
}

/// Rows of one given file on their way into the store: redacted, batched, each member of an
/// archive a stored file of its own.
final class StoreSink: ServerRowSink, @unchecked Sendable {
    let store: ServerRowStore
    let container: String
    let size: Int64
    let modified: Double
    let settings: String
    let redactor: Redactor
    private let lock = NSLock()
    private var batch: [(file: String, row: ServerRowStore.NewRow)] = []
    private var ids: [String: Int64] = [:]
    private var error: (any Error)?

    init(
        store: ServerRowStore, container: String, size: Int64, modified: Double, settings: String, redactor: Redactor
    ) {
        self.store = store
        self.container = container
        self.size = size
        self.modified = modified
        self.settings = settings
        self.redactor = redactor
    }

    func take(_ record: Record, header: String?) {
        let clean = redactor.clean(record)
        guard case .serverRequest(let r) = clean.payload, let start = r.start?.secondsSince1970 else { return }
        lock.lock()
        defer { lock.unlock() }
        batch.append(
            (
                record.location.file,
                ServerRowStore.NewRow(
                    line: record.location.line, start: start, path: r.path, requestID: r.requestID,
                    session: r.sessionHeader?.uppercased(), header: header, raw: r.raw)
            ))
        if batch.count >= 20_000 { flushLocked() }
    }

    /// The stored file of a member (read from `file`, shown as `shown`), begun when first seen.
    func fileID(for file: String, shownAs shown: String) throws -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        if let id = ids[file] {
            try store.rename(id, to: shown)
            return id
        }
        let id = try store.beginFile(
            name: shown, container: container, size: size, modified: modified, settings: settings)
        ids[file] = id
        return id
    }

    func flush() throws {
        lock.lock()
        defer { lock.unlock() }
        flushLocked()
        if let error { throw error }
    }

    private func flushLocked() {
        guard error == nil, !batch.isEmpty else {
            batch = []
            return
        }
        do {
            var byFile: [String: [ServerRowStore.NewRow]] = [:]
            for (file, row) in batch { byFile[file, default: []].append(row) }
            for (file, rows) in byFile.sorted(by: { $0.key < $1.key }) {
                let id: Int64
                if let known = ids[file] {
                    id = known
                } else {
                    id = try store.beginFile(
                        name: file, container: container, size: size, modified: modified, settings: settings)
                    ids[file] = id
                }
                try store.add(rows, file: id)
            }
        } catch {
            self.error = error
        }
        batch = []
    }
}
