import Foundation
import PlaybackForensics
import Testing

/// Fleet triage (issue 19): problem groups against a generated fleet's ground truth, shards that
/// merge into exactly one run's output, incremental runs that analyse only new bundles.
@Suite(.serialized) struct TriageFleetTests {
    /// A fleet from `Scripts/make_triage_fleet.py --problems` in a fresh folder, with its truth.
    struct Fleet {
        var root: URL
        var bundles: URL { root.appendingPathComponent("fleet") }
        var truth: URL { root.appendingPathComponent("truth.json") }
        func output(_ name: String) -> URL { root.appendingPathComponent(name) }
    }

    static func makeFleet(_ n: Int, seed: Int = 7) throws -> Fleet {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let fleet = Fleet(root: root)
        try grow(fleet, by: n, from: 0, seed: seed)
        return fleet
    }

    static func grow(_ fleet: Fleet, by n: Int, from first: Int, seed: Int = 7) throws {
        let r = try CLIRunner.runProgram(
            "/usr/bin/env",
            [
                "python3", "Scripts/make_triage_fleet.py", String(n), fleet.bundles.path, "--problems", "--truth",
                fleet.truth.path, "--seed", String(seed), "--first", String(first),
            ])
        #expect(r.status == 0, "\(r.stderr)")
    }

    static func json(_ url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Every file of a triage output except the SQLite file, by relative path, with the index's rows.
    static func contents(_ output: URL) throws -> (files: [String: Data], rows: [String]) {
        var files: [String: Data] = [:]
        let base = output.path
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = base + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                relative != "triage.sqlite"
            else { continue }
            files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        // The overview's signature is of its files' `stat` (their inodes and times): it differs
        // between two directories holding the same bytes, which `files` compares.
        let rows = try TriageIndex(path: base + "/triage.sqlite").rowsAsText().filter {
            !$0.hasPrefix("meta|\"\(OverviewDigest.metaKey)\"")
        }
        return (files, rows)
    }

    @Test func problemGroupsAndTheirSessionCountsEqualTheInjectedTruth() throws {
        let fleet = try Self.makeFleet(80)
        defer { try? FileManager.default.removeItem(at: fleet.root) }
        let out = fleet.output("out")
        let r = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let truth = try Self.json(fleet.truth)
        let expected = truth["problems"] as? [String: Int] ?? [:]
        #expect(expected.count >= 10, "the mix should inject many groups")
        let triage = try Self.json(out.appendingPathComponent("triage.json"))
        let problems = triage["problems"] as? [[String: Any]] ?? []
        var got: [String: Int] = [:]
        for p in problems { got[p["key"] as? String ?? "?"] = p["sessions"] as? Int }
        #expect(got == expected)
        // Ranked by harm (sessions weighed by the worst severity), each with up to three examples
        // that exist as reports.
        let weights = ["info": 1, "warning": 3, "error": 9, "critical": 27]
        let harms = problems.map {
            ($0["sessions"] as? Int ?? 0) * (weights[$0["worst_severity"] as? String ?? ""] ?? 0)
        }
        #expect(harms == harms.sorted(by: >))
        for p in problems {
            let examples = p["examples"] as? [[String: Any]] ?? []
            #expect(!examples.isEmpty && examples.count <= 3)
            for e in examples {
                let report = e["report"] as? String ?? ""
                #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(report).path), "\(report)")
            }
            let share = p["share"] as? Double ?? -1
            let sessions = Double(p["sessions"] as? Int ?? 0)
            let total = Double(truth["sessions"] as? Int ?? 0)
            #expect(abs(share - sessions / total) < 0.0001)
        }
        // The overview leads with the problems.
        let index = try String(contentsOf: out.appendingPathComponent("index.md"), encoding: .utf8)
        let problemsAt = index.range(of: "## Problems, most harm first")?.lowerBound
        let sessionsAt = index.range(of: "## Sessions, worst first")?.lowerBound
        #expect(problemsAt != nil && sessionsAt != nil && problemsAt! < sessionsAt!)
        // So does the HTML page, a self-contained file.
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        let htmlProblems = html.range(of: "Problems, most harm first")?.lowerBound
        let htmlSessions = html.range(of: "Sessions, worst first")?.lowerBound
        #expect(htmlProblems != nil && htmlSessions != nil && htmlProblems! < htmlSessions!)
        #expect(!html.contains("<script"))
    }

    @Test func fourShardsMergeIntoExactlyWhatOneRunWrites() throws {
        let fleet = try Self.makeFleet(40, seed: 11)
        defer { try? FileManager.default.removeItem(at: fleet.root) }
        let whole = fleet.output("whole")
        #expect(try CLIRunner.run(["triage", fleet.bundles.path, "--output", whole.path]).status == 0)
        var shards: [String] = []
        var sizes: [Int] = []
        for k in 1...4 {
            let out = fleet.output("shard-\(k)")
            let r = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--shard", "\(k)/4"])
            #expect(r.status == 0, "\(r.stderr)")
            shards.append(out.path)
            var count = 0
            try TriageIndex(path: out.path + "/triage.sqlite").forEachBundle { _ in count += 1 }
            sizes.append(count)
        }
        #expect(sizes.reduce(0, +) == 42, "every bundle (and the two strays) in exactly one shard: \(sizes)")
        #expect(sizes.allSatisfy { $0 > 0 })
        let merged = fleet.output("merged")
        let r = try CLIRunner.run(["triage", "merge"] + shards + ["--output", merged.path])
        #expect(r.status == 0, "\(r.stderr)")
        let a = try Self.contents(whole)
        let b = try Self.contents(merged)
        #expect(a.files.keys.sorted() == b.files.keys.sorted())
        for (name, data) in a.files { #expect(b.files[name] == data, "\(name) differs") }
        #expect(a.rows == b.rows)
        #expect(a.rows.count > 100)

        // The same shard twice is two overlapping runs, not a fleet: refused, naming the bundle.
        let twice = try CLIRunner.run(["triage", "merge", shards[0], shards[0], "--output", fleet.output("twice").path])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("more than one of the outputs"))

        // Three of four shards are not the fleet: refused, naming the missing one, and nothing is
        // written; told otherwise, merged.
        let partial = fleet.output("partial")
        let three = try CLIRunner.run(["triage", "merge"] + shards.dropLast() + ["--output", partial.path])
        #expect(three.status == 1)
        #expect(three.stderr.contains("missing 4/4"), "\(three.stderr)")
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        let allowed = try CLIRunner.run(
            ["triage", "merge"] + shards.dropLast() + ["--output", partial.path, "--allow-incomplete"])
        #expect(allowed.status == 0, "\(allowed.stderr)")

        // A report replaced by a link is named and not copied; a `bundles` that is a link refuses
        // the shard (probe B, F9): nothing outside is read, nothing drops without a word.
        let fm = FileManager.default
        let first = shards[0] + "/bundles"
        let report = try #require(try fm.contentsOfDirectory(atPath: first).sorted().first { $0.hasSuffix(".md") })
        try fm.removeItem(atPath: first + "/" + report)
        try fm.createSymbolicLink(atPath: first + "/" + report, withDestinationPath: "/etc/passwd")
        let linked = try CLIRunner.run(["triage", "merge"] + shards + ["--output", fleet.output("linked").path])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stderr.contains("\(report) is not a plain file"), "\(linked.stderr)")
        #expect(!fm.fileExists(atPath: fleet.output("linked").path + "/bundles/" + report))
        try fm.moveItem(atPath: first, toPath: shards[0] + "/elsewhere")
        try fm.createSymbolicLink(atPath: first, withDestinationPath: shards[0] + "/elsewhere")
        let refused = try CLIRunner.run(["triage", "merge"] + shards + ["--output", fleet.output("refused").path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is not a directory"), "\(refused.stderr)")
    }

    @Test func anIncrementalRunAnalysesOnlyTheNewBundles() throws {
        let fleet = try Self.makeFleet(40, seed: 5)
        defer { try? FileManager.default.removeItem(at: fleet.root) }
        let out = fleet.output("daily")
        #expect(try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path]).status == 0)
        let reports = out.appendingPathComponent("bundles")
        func modified(_ name: String) throws -> Date? {
            try FileManager.default.attributesOfItem(atPath: reports.appendingPathComponent(name).path)[
                .modificationDate] as? Date
        }
        let oldReports = try FileManager.default.contentsOfDirectory(atPath: reports.path).sorted()
        let before = try oldReports.map(modified)
        Thread.sleep(forTimeInterval: 1.1)
        // 10 % more bundles, drawn from the same sequence.
        try Self.grow(fleet, by: 4, from: 40, seed: 5)
        let r = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--since-index"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("; 4 analysed, 42 unchanged since the index, 0 removed"), "\(r.stderr)")
        // The old bundles' reports were not written again.
        #expect(try oldReports.map(modified) == before)
        // And the result is what a full run over the grown fleet writes.
        let full = fleet.output("full")
        #expect(try CLIRunner.run(["triage", fleet.bundles.path, "--output", full.path]).status == 0)
        let a = try Self.contents(out)
        let b = try Self.contents(full)
        #expect(a.files == b.files)
        #expect(a.rows == b.rows)
        // Its problems still equal the (grown) truth.
        let expected = try Self.json(fleet.truth)["problems"] as? [String: Int] ?? [:]
        let problems = try Self.json(out.appendingPathComponent("triage.json"))["problems"] as? [[String: Any]] ?? []
        #expect(
            Dictionary(
                uniqueKeysWithValues: problems.map { ($0["key"] as? String ?? "?", $0["sessions"] as? Int ?? 0) })
                == expected)

        // A bundle that left the fleet leaves the index and its reports go.
        let gone = try FileManager.default.contentsOfDirectory(atPath: fleet.bundles.path).sorted().first {
            $0.hasPrefix("b")
        }
        let goneName = try #require(gone)
        try FileManager.default.removeItem(at: fleet.bundles.appendingPathComponent(goneName))
        let again = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--since-index"])
        #expect(again.stderr.contains("; 0 analysed, 45 unchanged since the index, 1 removed"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: reports.appendingPathComponent(goneName + ".md").path))

        // A file touched but not changed (the same bytes, new times) fails the first check and
        // passes the content hash: nothing is analysed again.
        let files = FileManager.default.enumerator(at: fleet.bundles, includingPropertiesForKeys: [.isRegularFileKey])
        let touched = try #require(
            (files?.allObjects as? [URL])?.sorted { $0.path < $1.path }.first {
                (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            })
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: touched.path)
        let afterTouch = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--since-index"])
        #expect(
            afterTouch.stderr.contains("; 0 analysed, 45 unchanged since the index, 0 removed"), "\(afterTouch.stderr)")

        // Other analyzer settings analyse everything again.
        let config = fleet.root.appendingPathComponent("rules.yml")
        try "rules:\n  slow-startup:\n    severity: error\n".write(to: config, atomically: true, encoding: .utf8)
        let changed = try CLIRunner.run([
            "triage", fleet.bundles.path, "--output", out.path, "--since-index", "--config", config.path,
        ])
        #expect(changed.stderr.contains("; 45 analysed, 0 unchanged since the index, 0 removed"), "\(changed.stderr)")
    }

    /// A `--since-index` run that changed nothing keeps the `index.md` and `triage.json` it wrote
    /// (issue 36: writing them was half of such a run) and writes `index.html` again; a file
    /// edited or deleted since is written again, and any change to the index writes them all.
    @Test func anUnchangedRunKeepsTheOverviewItWrote() throws {
        let fleet = try Self.makeFleet(12, seed: 3)
        defer { try? FileManager.default.removeItem(at: fleet.root) }
        let out = fleet.output("keep")
        #expect(try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path]).status == 0)
        let names = ["index.md", "triage.json", "index.html"]
        func url(_ name: String) -> URL { out.appendingPathComponent(name) }
        func modified() throws -> [Date?] {
            try names.map { try FileManager.default.attributesOfItem(atPath: url($0).path)[.modificationDate] as? Date }
        }
        let written = try names.map { try Data(contentsOf: url($0)) }
        let dates = try modified()
        Thread.sleep(forTimeInterval: 1.1)
        // A page planted in place of index.html never survives a run, whatever the index says.
        try Data("<script>alert(1)</script>".utf8).write(to: url("index.html"))
        let idle = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--since-index"])
        #expect(idle.status == 0 && idle.stderr.contains("; 0 analysed"), "\(idle.stderr)")
        #expect(try Array(modified().prefix(2)) == Array(dates.prefix(2)))
        #expect(try names.map { try Data(contentsOf: url($0)) } == written)
        // Edited in place to the same size, its modification time set back: the status-change
        // time, which no user call sets, still tells (the files are signed by `stat`).
        var same = written[0]
        same[same.startIndex] = same[same.startIndex] == UInt8(ascii: "#") ? UInt8(ascii: "=") : UInt8(ascii: "#")
        let handle = try FileHandle(forWritingTo: url("index.md"))
        try handle.write(contentsOf: same)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: dates[0] as Any], ofItemAtPath: url("index.md").path)
        let setBack = try #require(try modified()[0]).timeIntervalSince(try #require(dates[0]))
        #expect(abs(setBack) < 0.001)
        let sameSize = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--since-index"])
        #expect(sameSize.status == 0, "\(sameSize.stderr)")
        #expect(try Data(contentsOf: url("index.md")) == written[0])
        // Edited or deleted since: written again, as it was.
        try Data("tampered".utf8).write(to: url("index.md"))
        try FileManager.default.removeItem(at: url("triage.json"))
        let mended = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--since-index"])
        #expect(mended.status == 0, "\(mended.stderr)")
        #expect(try names.map { try Data(contentsOf: url($0)) } == written)
        // Near miss: one more bundle changes the index, and the overview is written anew.
        try Self.grow(fleet, by: 1, from: 12, seed: 3)
        let afterMend = try modified()
        Thread.sleep(forTimeInterval: 1.1)
        let grown = try CLIRunner.run(["triage", fleet.bundles.path, "--output", out.path, "--since-index"])
        #expect(grown.stderr.contains("; 1 analysed"), "\(grown.stderr)")
        #expect(try modified().allSatisfy { d in !afterMend.contains(d) })
        #expect(try Data(contentsOf: url("triage.json")) != written[1])
    }

    @Test func shardAndMergeRefuseWhatTheyCannotDo() throws {
        for bad in ["0/4", "5/4", "a/b", "4", "1/0", "1/10001"] {
            let r = try CLIRunner.run(["triage", "SampleLogs", "--output", "/tmp/unused", "--shard", bad])
            #expect(r.status != 0)
            #expect(r.stderr.contains("--shard must be K/N"), "\(bad): \(r.stderr)")
        }
        let r = try CLIRunner.run(["triage", "merge", "SampleLogs", "--output", "/tmp/unused-merge"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not a triage output"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/unused-merge"))
    }

    /// A secret planted in a URL and in a bundle's name appears nowhere in the index's bytes.
    @Test func theIndexHoldsNoPlantedSecret() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-secret-\(UUID().uuidString)")
        let bundle = root.appendingPathComponent("fleet/ticket-token=PLANTEDNAME42")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for file in ["accesslog.txt", "errorlog.txt"] {
            let text = try String(
                contentsOf: CLIRunner.repository.appendingPathComponent("SampleLogs/access-error-logs-only/\(file)"),
                encoding: .utf8)
            try text.replacingOccurrences(of: ".ts ", with: ".ts?token=PLANTEDSECRET42 ")
                .replacingOccurrences(of: "https://edge3", with: "https://user:PLANTEDPASS42@edge3")
                .write(to: bundle.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let out = root.appendingPathComponent("out")
        let r = try CLIRunner.run(["triage", root.appendingPathComponent("fleet").path, "--output", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = try Data(contentsOf: out.appendingPathComponent("triage.sqlite"))
        #expect(bytes.count > 0)
        for secret in ["PLANTEDSECRET42", "PLANTEDNAME42", "PLANTEDPASS42"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in triage.sqlite")
        }
        let rows = try TriageIndex(path: out.path + "/triage.sqlite").rowsAsText()
        #expect(rows.contains { $0.hasPrefix("findings|") })
    }
}
