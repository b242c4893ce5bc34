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
    /// What triage writes there (and `--force` may replace).
    static let ours: Set<String> = [
        "index.md", "index.html", "triage.json", "bundles", indexName, indexName + "-journal", indexName + "-wal",
        indexName + "-shm",
    ]

    /// Prepares the output directory: created if missing; one that holds anything but triage's
    /// own earlier output is refused, and with `force` triage's earlier files are removed first
    /// (so no stale report of an earlier run is mixed in). With `update` (`--since-index`) an
    /// earlier triage's output is kept, to be brought up to date.
    static func prepare(_ output: String, force: Bool, update: Bool = false) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SetupError(description: "--output \(output) is a file, not a directory")
            }
            let existing = ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).filter {
                $0 != ".DS_Store"
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
                if update, !existing.contains(indexName) {
                    throw SetupError(
                        description:
                            "--output \(output) has no \(indexName) (made by an older version?): triage it again without --since-index"
                    )
                }
                if !update {
                    for name in existing { try? FileManager.default.removeItem(atPath: output + "/" + name) }
                }
            }
        }
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
    }

    /// Each bundle's reports as `bundles/FILE.md` and `bundles/FILE.json`.
    static func reportStore(_ output: String) -> TriageRunner.ReportStore {
        let reports = output + "/bundles"
        return TriageRunner.ReportStore(
            write: { bundle in
                try ReportFile.write(bundle.markdown, to: "\(reports)/\(bundle.file).md")
                try ReportFile.write(bundle.json, to: "\(reports)/\(bundle.file).json")
            },
            remove: { file in
                for ext in ["md", "json"] { unlink("\(reports)/\(file).\(ext)") }
            })
    }

    /// `index.md`, `triage.json` and `index.html` (and the ranked sessions as JSON Lines on
    /// stdout), read from the index as they are written.
    static func writeOverview(_ index: TriageIndex, to output: String, redactor: Redactor, jsonLines: Bool) throws {
        let reporter = TriageReporter(redactor: redactor)
        do {
            try ReportFile.streaming(to: output + "/index.md") { write in try reporter.markdown(index, write: write) }
            try ReportFile.streaming(to: output + "/triage.json") { write in try reporter.json(index, write: write) }
            try ReportFile.write(try reporter.html(index), to: output + "/index.html")
            if jsonLines { try reporter.jsonLines(index) { Output.stdout($0) } }
        } catch {
            Output.stderr("playback-forensics: cannot write to \(output): \(error)\n")
            throw ExitCode(1)
        }
    }
}
