import Foundation
import Crypto
import ForensicsCore
import ForensicsIndex
import ForensicsParsers
import ForensicsReports
import ForensicsRules

/// Batch triage of a directory of user bundles, in parallel, with memory that does not grow with
/// the number of bundles: each bundle's reports go to the caller's sink as soon as it is done (the
/// CLI writes them to disk) and only a small summary is kept.
///
/// What counts as one bundle: every entry directly inside the directory — a subdirectory, an
/// archive (`.zip`, `.tar`, `.tar.gz`/`.tgz`) or a single log file. Hidden entries are skipped.
public struct TriageRunner: Sendable {
    public var analyzer: Analyzer
    public var jobs: Int
    public var redactor: Redactor
    /// What each bundle's report is narrowed to (sessions, time window, minimum severity).
    public var narrowing = ReportNarrowing()
    /// The run's output directory: never a bundle, even inside the fleet directory.
    public var excluding: String?
    /// A day of server logs stored once (`--cdn-logs`): each bundle's rows are looked up there.
    package var serverStore: ServerRowStore?
    /// What the stored logs are (files, rows, times): part of the analyzer's fingerprint, so a
    /// bundle is analysed again when the logs beside it change.
    package var serverLogsDescription = ""

    public init(analyzer: Analyzer, jobs: Int, redactor: Redactor = Redactor()) {
        self.analyzer = analyzer
        self.jobs = max(1, jobs)
        self.redactor = redactor
    }

    /// Why triage cannot start, in words (never Foundation's error dump).
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The bundles under `directory`, sorted by name.
    public static func bundles(in directory: String, excluding output: String? = nil) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw SetupError(description: "\(directory) does not exist")
        }
        guard isDirectory.boolValue else {
            throw SetupError(
                description:
                    "\(directory) is a file, not a directory of bundles (to analyze one bundle: playback-forensics analyze \(directory))"
            )
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw SetupError(description: "cannot list \(directory): \(String(cString: strerror(EACCES)))")
        }
        // The output directory inside the fleet (`triage fleet --output fleet/.triage`) is the
        // run's own, told by device and inode, whatever its name.
        var out = stat()
        let outputID = output.flatMap { stat($0, &out) == 0 ? (out.st_dev, out.st_ino) : nil }
        return names.filter { name in
            guard !isSystemEntry(name), !BundleReader.isPlatformClutter(name) else { return false }
            guard let outputID else { return true }
            var info = stat()
            return !(stat(directory + "/" + name, &info) == 0 && info.st_dev == outputID.0 && info.st_ino == outputID.1)
        }.sorted()
    }

    /// What a file system, a version-control tool or macOS keeps beside the bundles: never a
    /// user's bundle. Any other name is one, a leading dot included (`.user1.jsonl`, `..bundle`):
    /// skipping dot-names silently lost bundles (probe F), and `analyze` reads them.
    static func isSystemEntry(_ name: String) -> Bool {
        name == "." || name == ".." || name.hasPrefix("._")
            || [
                ".git", ".svn", ".hg", ".Trashes", ".Trash", ".Spotlight-V100", ".fseventsd", ".TemporaryItems",
                ".DocumentRevisions-V100", ".localized", ".directory",
            ].contains(name)
    }

    /// Whether a directory of bundles looks like one bundle given by mistake: log files directly
    /// inside, and no subdirectory or archive.
    public static func looksLikeOneBundle(_ directory: String, names: [String]) -> Bool {
        guard names.count >= 2 else { return false }
        for name in names {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
            let lower = name.lowercased()
            if isDirectory.boolValue || [".zip", ".tar", ".tgz", ".tar.gz"].contains(where: lower.hasSuffix) {
                return false
            }
        }
        return true
    }

    /// One bundle's reports, handed to the store: `file` is a name unique in the run, safe on any
    /// file system, for the caller to store them under.
    public struct BundleReports: Sendable {
        public var file: String
        public var markdown: String
        public var json: String
        /// The same report as one self-contained page (`index.html` links to it).
        public var html: String
    }

    /// Where a run's per-bundle reports go (the CLI: `OUTDIR/bundles/FILE.{md,json,html}`). Called on
    /// the workers, so it must be safe to call concurrently.
    public struct ReportStore: Sendable {
        public var write: @Sendable (BundleReports) throws -> Void
        /// Removes a bundle's reports (it left the fleet, or another bundle took its file name).
        public var remove: @Sendable (_ file: String) -> Void
        /// Whether a bundle's reports are there (one deleted since the last run is made again).
        public var exists: @Sendable (_ file: String) -> Bool

        public init(
            write: @escaping @Sendable (BundleReports) throws -> Void,
            remove: @escaping @Sendable (_ file: String) -> Void = { _ in },
            exists: @escaping @Sendable (_ file: String) -> Bool = { _ in true }
        ) {
            self.write = write
            self.remove = remove
            self.exists = exists
        }
    }

    /// What a run did: the bundles it analysed, the ones it took from the index unchanged
    /// (`--since-index`), the ones of an earlier run that are gone from the fleet.
    public struct RunStatistics: Sendable, Hashable {
        public var analyzed = 0
        public var reused = 0
        public var removed = 0
        /// Bundles of the fleet outside this run's shard.
        public var otherShards = 0
    }

    /// The share of the fleet this run triages (`--shard K/N`); nil: all of it.
    public var shard: TriageShard?

    /// What analyses the bundles, as one text: tool version, rules with their effective
    /// settings, reading options, narrowing and redaction. An index row made by a different
    /// analyzer is analysed again.
    public var analyzerFingerprint: String {
        var parts = ["tool \(ToolInfo.version)", "redact \(redactor.enabled)", analyzer.settingsDescription]
        if !serverLogsDescription.isEmpty { parts.append("server logs \(serverLogsDescription)") }
        parts.append(
            "narrowing \(narrowing.sessionPrefix ?? "-") \(narrowing.since.map { String($0.secondsSince1970) } ?? "-") \(narrowing.until.map { String($0.secondsSince1970) } ?? "-") \(narrowing.minimumSeverity?.rawValue ?? "-")"
        )
        let digest = SHA256.hash(data: Array(parts.joined(separator: "\n").utf8))
        return BundleContentHash.hex(digest.prefix(16))
    }

    /// Triages every bundle of `directory` (of this run's shard) into `index`, handing each
    /// analysed bundle's reports to `store`, and groups the index's findings into problems.
    ///
    /// With `incremental`, a bundle the index already holds with the same content hash, name
    /// and analyzer is not analysed again (its rows and reports stay); bundles the index holds
    /// that are gone from the fleet (or from this shard) are removed with their reports.
    ///
    /// Memory: each worker holds one bundle's analysis at a time; what is kept of it goes to the
    /// index at once, and the overview is read back from the index at the end.
    public func run(
        directory: String, index: TriageIndex, store: ReportStore, incremental: Bool = false,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws -> RunStatistics {
        let all = try Self.bundles(in: directory, excluding: excluding)
        let allFiles = Self.uniqueFileNames(all.map(redactor.clean))
        let clean = self.redactor
        let chosen = zip(all, allFiles).filter { name, _ in shard.map { $0.contains(clean.clean(name)) } ?? true }
        let names = chosen.map(\.0)
        let files = chosen.map(\.1)
        var statistics = RunStatistics()
        statistics.otherShards = all.count - names.count
        let fingerprint = analyzerFingerprint
        let known = incremental ? try index.knownBundles() : [:]
        let current = Set(files)
        let gone = known.keys.filter { !current.contains($0) }.sorted()
        try index.remove(gone)
        for file in gone { store.remove(file) }
        statistics.removed = gone.count
        try index.setMeta("tool_version", ToolInfo.version)
        try index.setMeta("analyzer", fingerprint)
        // Which share of the fleet this is (`1/1` for a whole run): a merge knows when one is missing.
        try index.setMeta("shard", shard.map { "\($0.index)/\($0.count)" } ?? "1/1")

        let results = WorkQueue(count: names.count)
        let markdown = MarkdownReporter(redactor: redactor, toolVersion: ToolInfo.version)
        let json = JSONReporter(redactor: redactor, toolVersion: ToolInfo.version)
        let html = HTMLReporter(redactor: redactor, toolVersion: ToolInfo.version)
        let analyzer = self.analyzer
        let narrowing = self.narrowing
        let serverStore = self.serverStore
        let redactor = self.redactor
        let failure = FirstError()
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, names.count))) { _ in
            while failure.error == nil, let i = results.next() {
                // Shown cleaned: a bundle's name is log-derived text too (a signed query, an override).
                let name = redactor.clean(names[i])
                let path = directory + "/" + names[i]
                let file = files[i]
                do {
                    if let refusal = Self.leavesDirectory(path, directory: directory) {
                        var bundle = IndexedBundle(
                            name: name, file: file, contentHash: "refused", analyzer: fingerprint)
                        bundle.error = refusal
                        if known[file] != nil { store.remove(file) }
                        try index.store(bundle)
                        results.finish(reused: false)
                        progress?(results.doneCount, names.count)
                        continue
                    }
                    // First check: the files' sizes, times and inodes, without reading them; the
                    // content hash only when they changed (a touched file may hold the same bytes).
                    let limits = analyzer.ingestor.limits
                    let metadata = (try? BundleContentHash.metadataKey(path: path, limits: limits)) ?? ""
                    let old = known[file].flatMap { k in
                        k.name == name && k.analyzer == fingerprint && (!k.hasReports || store.exists(file)) ? k : nil
                    }
                    if let old, !metadata.isEmpty, old.metadataKey == metadata {
                        results.finish(reused: true)
                        progress?(results.doneCount, names.count)
                        continue
                    }
                    let hash = (try? BundleContentHash.of(path: path, limits: limits)) ?? "unreadable"
                    if let old, old.contentHash == hash {
                        if !metadata.isEmpty { try index.updateMetadataKey(metadata, of: file) }
                        results.finish(reused: true)
                    } else {
                        if known[file] != nil { store.remove(file) }
                        var bundle = IndexedBundle(name: name, file: file, contentHash: hash, analyzer: fingerprint)
                        bundle.metadataKey = metadata
                        do {
                            let whole =
                                try serverStore.map { try analyzer.analyze(path: path, serverStore: $0) }
                                ?? analyzer.analyze(path: path)
                            let report = narrowing.apply(whole)
                            if report.inputs.allSatisfy({ $0.records == 0 }) {
                                Self.describeEmpty(report, path: path, into: &bundle, redactor: redactor)
                            } else {
                                do {
                                    try store.write(
                                        BundleReports(
                                            file: file, markdown: markdown.render(report), json: json.render(report),
                                            html: html.render(report)))
                                } catch {
                                    // The output's fault, not the bundle's: the run fails (exit 1)
                                    // and the bundle is not indexed, so the next run analyses it.
                                    throw ReportWriteFailure(underlying: error)
                                }
                                bundle = IndexedBundle(
                                    name: name, file: file, contentHash: hash, analyzer: fingerprint, report: report,
                                    redactor: redactor)
                                bundle.metadataKey = metadata
                            }
                        } catch let failed as ReportWriteFailure {
                            throw failed
                        } catch {
                            bundle.error = "\(error)"
                        }
                        try index.store(bundle)
                        results.finish(reused: false)
                    }
                } catch {
                    failure.record(error)
                }
                progress?(results.doneCount, names.count)
            }
        }
        if let error = failure.error { throw error }
        try index.updateProblems()
        statistics.analyzed = results.analyzed
        statistics.reused = results.reused
        return statistics
    }

    /// A bundle without any playback record: a stray file beside the bundles (a README) is
    /// skipped; a folder or archive without a log is unreadable, and named; one whose reading a
    /// limit cut short says so (with the limit), since what was not read may hold the records.
    static func describeEmpty(
        _ report: AnalysisReport, path: String, into bundle: inout IndexedBundle, redactor: Redactor = Redactor()
    ) {
        // What `analyze` says of it stands in the index too (probe G: a truncated zip was "no files
        // in it" with no verdict, its "cannot open zip archive" lost).
        let verdict = report.verdict
        bundle.verdict = verdict.status
        bundle.couldNotJudge = verdict.couldNotJudge.map(redactor.redact)
        bundle.inputProblems = report.diagnostics.filter { $0.severity >= .error }.count
        defer {
            if let problem = report.diagnostics.first(where: { $0.severity >= .warning }), let error = bundle.error,
                !bundle.skipped
            {
                bundle.error = error + " (\(redactor.clean(problem.location, problem.message).prefix(300)))"
            }
        }
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let isArchive = report.inputs.count > 1 || report.inputs.contains { $0.path.contains("/") }
        if let cut = report.incomplete {
            bundle.error = "read in part (\(cut)): no playback record read by then"
            bundle.incomplete = cut
            bundle.skipped = false
            return
        }
        bundle.error =
            report.inputs.isEmpty
            ? "no files in it"
            : "no playback record in \(report.inputs.count) file\(report.inputs.count == 1 ? "" : "s")"
        // A stray file is skipped; a file a format claimed (its rows cut off) or one that may hold
        // evidence that was not read (a forced format without its evidence) is not stray.
        bundle.skipped =
            !isDirectory.boolValue && !isArchive && report.diagnostics.allSatisfy { $0.severity < .error }
            && !report.inputs.contains { i in
                i.notRead.map { $0.hidesEvidence } ?? (i.format != nil)
            }
    }

    /// Why an entry of the fleet directory is refused: a symbolic link whose target lies outside
    /// the directory (a link to `/etc` is not a user's bundle). Nil for every other entry.
    static func leavesDirectory(_ path: String, directory: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        guard target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            return "refused: a symbolic link to outside the fleet directory"
        }
        return nil
    }

    /// A bundle's report file name: ASCII letters, digits, `-`, `_` and `.` kept, any other
    /// Character `_`; at most 120 Characters, short enough for any file system with `.json` added
    /// (a 252-character name made the bundle "unreadable"); never a leading dot (it would hide
    /// the report).
    static func safeFileName(_ name: String) -> String {
        asciiSafeFileName(name) ?? characterSafeFileName(name)
    }

    /// `safeFileName` of a name in ASCII without CR (a CR LF pair is one Character): there a byte
    /// is a Character. Why: Character by Character, naming the reports was a tenth of a
    /// `--since-index` run that changed nothing (2,000 bundles). Nil for any other name.
    static func asciiSafeFileName(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
            var out = bytes.prefix(120).map { b -> UInt8 in
                switch b {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                    b
                default: UInt8(ascii: "_")
                }
            }
            if out.first == UInt8(ascii: ".") || out.isEmpty { out.insert(UInt8(ascii: "_"), at: 0) }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `safeFileName`, Character by Character: any name.
    static func characterSafeFileName(_ name: String) -> String {
        let mapped = name.map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "_"
        }
        var safe = String(String(mapped).prefix(120))
        if safe.hasPrefix(".") || safe.isEmpty { safe = "_" + safe }
        return safe
    }

    /// One report file name per bundle: names that map to the same safe name (`a b`, `a_b`,
    /// `a?b`) get `~2`, `~3`, … in name order, so no report replaces another. `~` is never in a
    /// safe name, so a suffixed name cannot meet another bundle's own name, and the suffix depends
    /// only on the names that map to the same safe name (all in one shard, see `TriageShard`).
    static func uniqueFileNames(_ names: [String]) -> [String] {
        var used: Set<String> = []
        return names.map { name in
            let base = safeFileName(name)
            var candidate = base
            var n = 2
            while !used.insert(candidate.lowercased()).inserted {
                candidate = "\(base)~\(n)"
                n += 1
            }
            return candidate
        }
    }

    /// Hands out bundle indices to workers and counts what they did.
    final class WorkQueue: @unchecked Sendable {
        private let lock = NSLock()
        private let count: Int
        private var nextIndex = 0
        private(set) var analyzed = 0
        private(set) var reused = 0

        init(count: Int) { self.count = count }

        func next() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }

        func finish(reused wasReused: Bool) {
            lock.lock()
            if wasReused { reused += 1 } else { analyzed += 1 }
            lock.unlock()
        }

        var doneCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return analyzed + reused
        }
    }

    /// The first error that stops the run (the index cannot be written): workers stop taking bundles.
    final class FirstError: @unchecked Sendable {
        private let lock = NSLock()
        private var first: (any Error)?

        var error: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return first
        }

        func record(_ e: any Error) {
            lock.lock()
            if first == nil { first = e }
            lock.unlock()
        }
    }
}

/// A bundle's report could not be written (a FIFO, a directory or a link in its place, a full
/// disk): a failure of the run, never a property of the bundle.
struct ReportWriteFailure: Error, CustomStringConvertible {
    var underlying: any Error
    var description: String { "\(underlying)" }
}
