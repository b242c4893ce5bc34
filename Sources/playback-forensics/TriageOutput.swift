import ArgumentParser
import Foundation
import PlaybackForensics

/// Triage's output directory (`--output`): `index.md`, `index.html`, `triage.json`, `triage.sqlite`
/// and `bundles/`.
enum TriageOutput {
    /// Why triage cannot start, in words (never Foundation's error dump).
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    static let indexName = "triage.sqlite"
    /// The index being written: it replaces `indexName` whole (a rename) only when the run is done.
    static let newIndexName = indexName + ".new"
    /// Held (flock) for the length of a run: a second run on the same output is refused.
    static let lockName = "triage.lock"
    /// What triage writes there (and `--force` may replace).
    static let ours: Set<String> = [
        "index.md", "index.html", "triage.json", "bundles", indexName, indexName + "-journal", indexName + "-wal",
        indexName + "-shm", newIndexName, newIndexName + "-journal", newIndexName + "-wal", newIndexName + "-shm",
        lockName, newBundlesName, serverRowsName, serverRowsName + "-journal", serverRowsName + "-wal",
        serverRowsName + "-shm",
    ]
    /// The server logs given with `--cdn-logs`, stored once (kept by `--since-index`).
    static let serverRowsName = "cdn-rows.sqlite"

    /// Where a merge gathers the shards' reports before they replace `bundles/` whole.
    static let newBundlesName = "bundles.new"

    /// What `lock` made, to be removed again when the run is refused before it wrote anything.
    struct Lock {
        var output: String
        var createdDirectory: Bool
        var createdLockFile: Bool

        /// Removes what taking the lock created (the lock file; the directory, when it made it).
        func undo() {
            if createdLockFile { unlink(output + "/" + lockName) }
            if createdDirectory { rmdir(output) }
        }
    }

    /// Creates the output directory if missing (and its parents) and takes its lock for the rest
    /// of the process: two runs on one output would delete and rewrite each other's index and
    /// reports.
    @discardableResult
    static func lock(_ output: String) throws -> Lock {
        var info = stat()
        let existed = lstat(output, &info) == 0
        if !existed {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw SetupError(description: "cannot create \(output): \(String(cString: strerror(errno)))")
            }
        }
        let lockExisted = lstat(output + "/" + lockName, &info) == 0
        guard stat(output, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw SetupError(description: "--output \(output) is a file, not a directory")
        }
        let fd = open(output + "/" + lockName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw SetupError(
                description: "cannot lock \(output)/\(lockName): \(String(cString: strerror(errno)))")
        }
        // Not closed: the lock lasts as long as the process.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw SetupError(
                description:
                    "another triage is writing to \(output) (it holds \(lockName)): wait for it to finish, or choose another --output"
            )
        }
        return Lock(output: output, createdDirectory: !existed, createdLockFile: !lockExisted)
    }

    /// Refuses an output whose own entries are symbolic links: triage never writes or deletes
    /// through a link planted in its output (`bundles` pointing elsewhere, an index linked to
    /// another database).
    static func refuseLinks(_ output: String) throws {
        for name in ours.sorted() {
            var info = stat()
            if lstat(output + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                throw SetupError(
                    description:
                        "\(output)/\(name) is a symbolic link; triage does not write through links in its output: remove it, or choose another --output"
                )
            }
        }
        var info = stat()
        if lstat(output + "/bundles", &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw SetupError(description: "\(output)/bundles is not a directory: remove it, or choose another --output")
        }
    }

    /// Opens a fresh index beside the real one (an earlier index's rows copied in when `carryOver`),
    /// to be moved into place by `commit` when the run is done.
    static func openNewIndex(_ output: String, carryOver: Bool) throws -> TriageIndex {
        removeNewIndex(output)
        // The earlier index is copied and made safe in place (`TriageIndex.adopting`), not
        // carried over row by row: the same rows, at the cost of a file copy.
        if carryOver {
            return try TriageIndex.adopting(copyOf: output + "/" + indexName, at: output + "/" + newIndexName)
        }
        return try TriageIndex(path: output + "/" + newIndexName)
    }

    /// Moves the finished index into place whole (rename replaces the old file, never writes into it).
    static func commit(_ index: TriageIndex, to output: String) throws {
        try index.close()
        // What lies beside the index being replaced belongs to it, or was planted: SQLite would
        // replay a write-ahead log into the new index when it is next opened (probe B, F2).
        for suffix in ["-wal", "-shm", "-journal"] { unlink(output + "/" + indexName + suffix) }
        guard rename(output + "/" + newIndexName, output + "/" + indexName) == 0 else {
            throw SetupError(
                description:
                    "cannot move the new index into \(output)/\(indexName): \(String(cString: strerror(errno)))")
        }
    }

    static func removeNewIndex(_ output: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(output + "/" + newIndexName + suffix) }
    }

    /// Prepares the output directory: created if missing; one that holds anything but triage's
    /// own earlier output is refused, and with `force` triage's earlier files are removed first
    /// (so no stale report of an earlier run is mixed in). With `update` (`--since-index`) an
    /// earlier triage's output is kept, to be brought up to date.
    ///
    /// Returns whether an earlier index is there to bring up to date (`update` only). A run killed
    /// before it moved its index into place leaves only `triage.sqlite.new`: `--since-index` then
    /// starts afresh, as `--force` would, and writes what a clean run writes.
    @discardableResult
    static func prepare(_ output: String, force: Bool, update: Bool = false, checkOnly: Bool = false) throws -> Bool {
        var isDirectory: ObjCBool = false
        var carryOver = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SetupError(description: "--output \(output) is a file, not a directory")
            }
            try refuseLinks(output)
            let existing = ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).filter {
                $0 != ".DS_Store" && $0 != lockName && !$0.hasPrefix(newIndexName) && $0 != newBundlesName
            }
            if !existing.isEmpty {
                guard force || update else {
                    throw SetupError(
                        description:
                            "--output \(output) is not empty: choose a new directory, add --since-index to update an earlier triage there, or --force to replace it"
                    )
                }
                guard existing.allSatisfy(ours.contains) else {
                    throw SetupError(
                        description:
                            "--output \(output) holds files triage did not write; --force and --since-index work only on an earlier triage's output"
                    )
                }
                let all = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
                let interrupted = all.contains { $0.hasPrefix(newIndexName) }
                if update, !existing.contains(indexName), !interrupted {
                    throw SetupError(
                        description:
                            "--output \(output) has no \(indexName) (made by an older version?): triage it again without --since-index"
                    )
                }
                if checkOnly { return false }
                carryOver = update && existing.contains(indexName)
                if !carryOver {
                    for name in existing where !name.hasPrefix(newIndexName) && name != newBundlesName {
                        try? FileManager.default.removeItem(atPath: output + "/" + name)
                    }
                }
                // A stale `triage.sqlite.new` of a killed run is removed by `openNewIndex`; a
                // merge's, made before this call, is its result and stays.
            }
        }
        if checkOnly { return false }
        do {
            try FileManager.default.createDirectory(atPath: output + "/bundles", withIntermediateDirectories: true)
        } catch {
            throw SetupError(
                description:
                    "cannot create \(output)/bundles: \(String(cString: strerror(errno == 0 ? EACCES : errno)))")
        }
        guard access(output, W_OK) == 0 else {
            throw SetupError(description: "cannot write to \(output): \(String(cString: strerror(errno)))")
        }
        return carryOver
    }

    /// Each bundle's reports as `bundles/FILE.md`, `bundles/FILE.json` and `bundles/FILE.html`.
    static func reportStore(_ output: String) -> TriageRunner.ReportStore {
        let reports = output + "/bundles"
        return TriageRunner.ReportStore(
            write: { bundle in
                try ReportFile.write(bundle.markdown, to: "\(reports)/\(bundle.file).md", regularOnly: true)
                try ReportFile.write(bundle.json, to: "\(reports)/\(bundle.file).json", regularOnly: true)
                try ReportFile.write(bundle.html, to: "\(reports)/\(bundle.file).html", regularOnly: true)
            },
            remove: { file in
                // A name from an index is a plain name, never a path (`TriageIndex.isSafeFileName`).
                guard TriageIndex.isSafeFileName(file) else { return }
                for ext in ["md", "json", "html"] { unlink("\(reports)/\(file).\(ext)") }
            },
            exists: { file in
                guard TriageIndex.isSafeFileName(file) else { return false }
                return ["md", "json", "html"].allSatisfy { ext in
                    var info = stat()
                    return lstat("\(reports)/\(file).\(ext)", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
                }
            })
    }

    /// The overview files a run may keep as they are: `index.html`, the page that can run code
    /// in a browser, is always written again (a planted page with a matching forged digest must
    /// not survive a run).
    static func keepableOverviewFiles(_ output: String) -> [String] {
        ["index.md", "triage.json"].map { output + "/" + $0 }
    }

    /// Writes the overview, unless nothing in the index changed since the run that wrote it
    /// (`indexChanged` false: no bundle analysed or removed) and `index.md` and `triage.json` are
    /// untouched since a run with these `settings` (the analyzer fingerprint: tool version,
    /// rules, redaction, narrowing) wrote them (`OverviewDigest`, from `stat`): then those two are
    /// kept and only `index.html` is written. The signature is kept in the index for the next run.
    /// An index edited by hand is not noticed: delete `index.md` to have the overview written again.
    static func updateOverview(
        _ index: TriageIndex, to output: String, redactor: Redactor, jsonLines: Bool, indexChanged: Bool,
        settings: String
    ) throws {
        let files = keepableOverviewFiles(output)
        let kept = try? index.meta(OverviewDigest.metaKey)
        let keep = !indexChanged && kept != nil && OverviewDigest.of(files: files, settings: settings) == kept
        try writeOverview(index, to: output, redactor: redactor, jsonLines: jsonLines, onlyHTML: keep)
        if keep { return }
        do {
            try index.setMeta(OverviewDigest.metaKey, OverviewDigest.of(files: files, settings: settings) ?? "")
        } catch {
            Output.stderr("playback-forensics: cannot record the overview in the index: \(error)\n")
            throw ExitCode(1)
        }
    }

    /// `index.md`, `triage.json` and `index.html` (or, `onlyHTML`, the page alone), and the
    /// ranked sessions as JSON Lines on stdout, read from the index as they are written.
    static func writeOverview(
        _ index: TriageIndex, to output: String, redactor: Redactor, jsonLines: Bool, onlyHTML: Bool = false
    ) throws {
        var reporter = TriageReporter(redactor: redactor)
        do {
            try reporter.readSummary(index)
            if onlyHTML {
                try ReportFile.write(try reporter.html(index), to: output + "/index.html", regularOnly: true)
            } else {
                // `triage.json` on a second thread, through a connection of its own (the index is
                // in write-ahead-log mode: readers do not wait for each other), while this one
                // writes `index.md` and the page. Why: the three files were most of a
                // `--since-index` run that analysed a few bundles, and each only reads the index.
                let done = reporter
                // Without a second connection the two writers share the first (GRDB serialises
                // it): the same files, written one after the other.
                let json = (try? TriageIndex(readingOnly: index.path)) ?? index
                let failure = OverviewFailure()
                DispatchQueue.concurrentPerform(iterations: 2) { part in
                    do {
                        if part == 0 {
                            try ReportFile.streaming(to: output + "/index.md", regularOnly: true) { write in
                                try done.markdown(index, write: write)
                            }
                            try ReportFile.write(try done.html(index), to: output + "/index.html", regularOnly: true)
                        } else {
                            try ReportFile.streaming(to: output + "/triage.json", regularOnly: true) { write in
                                try done.json(json, write: write)
                            }
                        }
                    } catch {
                        failure.record(error, part: part)
                    }
                }
                if let error = failure.first { throw error }
            }
            if jsonLines { try reporter.jsonLines(index) { Output.stdout($0) } }
        } catch {
            Output.stderr("playback-forensics: cannot write to \(output): \(error)\n")
            throw ExitCode(1)
        }
    }
}

/// The first error of the overview's writers, in writer order (`index.md` before `triage.json`,
/// as when they were written one after the other), whichever thread finished first.
final class OverviewFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Int: any Error] = [:]

    func record(_ error: any Error, part: Int) {
        lock.lock()
        defer { lock.unlock() }
        errors[part] = error
    }

    var first: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return errors.keys.min().flatMap { errors[$0] }
    }
}
