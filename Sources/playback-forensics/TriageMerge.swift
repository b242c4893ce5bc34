import ArgumentParser
import Foundation
import PlaybackForensics

/// `triage merge OUT… --output OUT`: what one run over the whole fleet would have written, from
/// the outputs of shard runs (`triage --shard K/N`): the index's rows are copied, the problems
/// regrouped over all of them, the overview written anew, the bundles' reports copied.
struct TriageMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the outputs of 'triage --shard K/N' runs into the output of one run.")

    @Argument(help: "The shard runs' output directories.", completion: .directory)
    var inputs: [String]

    @Option(name: .long, help: "Where to write the merged index.md, triage.json, triage.sqlite and bundles/.")
    var output: String

    @Flag(name: .long, help: "Replace an earlier triage's output in --output.")
    var force = false

    @Flag(name: .long, help: "Do not redact secrets in the overview (as the shard runs were made).")
    var noRedact = false

    @Flag(
        name: .long,
        help: "Merge even when the outputs are not every shard of one split (some K of the N are missing).")
    var allowIncomplete = false

    func run() throws {
        guard !inputs.isEmpty else { throw ValidationError("name at least one shard output to merge") }
        let index: TriageIndex
        let counts: TriageIndex.Counts
        // What taking the lock created, removed again if the merge is refused: a refused merge
        // leaves the output as it was (and never touches another run's files: nothing is
        // removed unless this run holds the lock).
        var lock: TriageOutput.Lock?
        do {
            for input in inputs {
                var info = stat()
                guard lstat(input + "/" + TriageOutput.indexName, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    throw TriageOutput.SetupError(
                        description: "\(input) is not a triage output (no \(TriageOutput.indexName) in it)")
                }
                if URL(fileURLWithPath: input).standardized.path == URL(fileURLWithPath: output).standardized.path {
                    throw TriageOutput.SetupError(description: "--output \(output) is one of the inputs")
                }
            }
            lock = try TriageOutput.lock(output)
            // Checked first, changed only once every shard has been read: a refused merge leaves
            // the output as it was.
            try TriageOutput.prepare(output, force: force, checkOnly: true)
            index = try TriageOutput.openNewIndex(output, carryOver: false)
            var analyzer: String?
            var tool: String?
            var shards: [String: String] = [:]
            for input in inputs {
                let meta = try index.absorb(input + "/" + TriageOutput.indexName)
                if let shard = meta["shard"] { shards[shard] = input }
                let (a, t) = (meta["analyzer"], meta["tool_version"])
                if let analyzer, let a, a != analyzer {
                    throw TriageOutput.SetupError(
                        description:
                            "\(input) was triaged with other settings or another version (\(t ?? "unknown")) than \(inputs[0]): one run's shards must share them"
                    )
                }
                analyzer = analyzer ?? a
                tool = tool ?? t
            }
            // Every shard of one split, or the merge is not what one run over the fleet writes.
            if !allowIncomplete, let missing = Self.missingShards(Array(shards.keys)) {
                throw TriageOutput.SetupError(
                    description:
                        "the outputs are not every shard of one split: \(missing) (add --allow-incomplete to merge them anyway)"
                )
            }
            // The reports are gathered aside first: everything that can fail on a shard's content
            // happens before the earlier output is touched.
            let gathered = output + "/" + TriageOutput.newBundlesName
            try? FileManager.default.removeItem(atPath: gathered)
            try FileManager.default.createDirectory(atPath: gathered, withIntermediateDirectories: false)
            for input in inputs { try copyReports(from: input + "/bundles", to: gathered) }
            try TriageOutput.prepare(output, force: force)
            rmdir(output + "/bundles")
            guard rename(gathered, output + "/bundles") == 0 else {
                throw TriageOutput.SetupError(
                    description:
                        "cannot move the merged reports into \(output)/bundles: \(String(cString: strerror(errno)))")
            }
            if let analyzer { try index.setMeta("analyzer", analyzer) }
            // A complete merge is one run over the whole fleet.
            if Self.missingShards(Array(shards.keys)) == nil { try index.setMeta("shard", "1/1") }
            if let tool { try index.setMeta("tool_version", tool) }
            try index.updateProblems()
            counts = try index.counts()
        } catch {
            if let lock {
                TriageOutput.removeNewIndex(output)
                try? FileManager.default.removeItem(atPath: output + "/" + TriageOutput.newBundlesName)
                lock.undo()
            }
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        try TriageOutput.updateOverview(
            index, to: output, redactor: Redactor(enabled: !noRedact), jsonLines: false, indexChanged: true,
            settings: (try? index.meta("analyzer")) ?? "")
        do {
            try TriageOutput.commit(index, to: output)
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        Output.stderr(
            "triage merge: \(inputs.count) outputs, \(counts.bundles) bundles, \(counts.sessions) sessions, \(counts.problems) problems; wrote \(output)/index.md\n"
        )
    }

    /// What is missing from a set of `K/N` shard names, in words, or nil when they are `1/N` … `N/N`.
    static func missingShards(_ shards: [String]) -> String? {
        let parsed = shards.compactMap(TriageShard.init)
        let counts = Set(parsed.map(\.count))
        guard counts.count == 1, let n = counts.first else {
            return shards.isEmpty ? nil : "shards of different splits (\(shards.sorted().joined(separator: ", ")))"
        }
        let have = Set(parsed.map(\.index))
        let missing = (1...n).filter { !have.contains($0) }
        guard !missing.isEmpty else { return nil }
        let listed = missing.prefix(10).map { "\($0)/\(n)" }.joined(separator: ", ")
        return "missing \(listed)\(missing.count > 10 ? " and \(missing.count - 10) more" : "")"
    }

    /// Copies every report file (plain files only: a link planted in a shard output is not
    /// followed). A `bundles` that is not a directory of its own (a link) refuses the shard; a
    /// report that is not a plain file is named, never dropped without a word (probe B, F9).
    func copyReports(from source: String, to destination: String) throws {
        var directory = stat()
        if lstat(source, &directory) == 0, (directory.st_mode & S_IFMT) != S_IFDIR {
            throw TriageOutput.SetupError(
                description: "\(source) is not a directory (a link?): the shard's reports are not read through it")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: source)) ?? []
        for name in names.sorted() where name.hasSuffix(".md") || name.hasSuffix(".json") || name.hasSuffix(".html") {
            var info = stat()
            guard lstat(source + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                Output.stderr(
                    "triage merge: \(Redactor.visibleControls(source + "/" + name)) is not a plain file (a link?): not copied\n"
                )
                continue
            }
            let text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
            try ReportFile.write(text, to: destination + "/" + name, regularOnly: true)
        }
    }
}
