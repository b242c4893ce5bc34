import Foundation
import Testing

/// Triage says what it could not read, skips what is not a bundle, never overwrites one report
/// with another, and refuses to mix its output into a folder that holds something else.
@Suite(.serialized) struct TriageFailureTests {
    func workspace() throws -> (root: URL, input: URL, output: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-triage-fail-\(UUID().uuidString)")
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        return (root, input, root.appendingPathComponent("out"))
    }

    static let event =
        #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"S1","rate":0,"previousRate":1}"#
        + "\n"

    @Test func unreadableBundlesAreNamedAndStrayFilesSkipped() throws {
        let w = try workspace()
        defer { try? FileManager.default.removeItem(at: w.root) }
        try FileManager.default.copyItem(
            at: CLIRunner.repository.appendingPathComponent("SampleLogs/clean-session.zip"),
            to: w.input.appendingPathComponent("good.zip"))
        try Data("# Bundles from the ticket queue\n".utf8).write(to: w.input.appendingPathComponent("README.md"))
        let empty = w.input.appendingPathComponent("empty-bundle")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("not a log\n".utf8).write(to: empty.appendingPathComponent("notes.txt"))
        let r = try CLIRunner.run(["triage", w.input.path, "--output", w.output.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("1 unreadable (empty-bundle)"))
        #expect(r.stderr.contains("1 other file skipped"))
        let index = try String(contentsOf: w.output.appendingPathComponent("index.md"), encoding: .utf8)
        #expect(index.contains("2 bundles · 1 session · 1 unreadable · 1 other file skipped (README.md)"))
        #expect(index.contains("## Unreadable bundles"))
        #expect(index.contains("- empty-bundle: no playback record in 1 file"))
    }

    @Test func bundlesWhoseNamesMapAlikeGetTheirOwnReports() throws {
        let w = try workspace()
        defer { try? FileManager.default.removeItem(at: w.root) }
        for (name, id) in [("a b", "S1"), ("a_b", "S2"), ("a?b", "S3")] {
            try Data(Self.event.replacingOccurrences(of: "S1", with: id).utf8).write(
                to: w.input.appendingPathComponent(name))
        }
        let long = String(repeating: "x", count: 252)
        try Data(Self.event.replacingOccurrences(of: "S1", with: "S4").utf8).write(
            to: w.input.appendingPathComponent(long))
        let r = try CLIRunner.run(["triage", w.input.path, "--output", w.output.path])
        #expect(r.status == 0, "\(r.stderr)")
        let reports = try FileManager.default.contentsOfDirectory(
            atPath: w.output.appendingPathComponent("bundles").path)
        #expect(reports.filter { $0.hasSuffix(".md") }.count == 4, "\(reports)")
        #expect(r.stderr.contains("0 unreadable"))
    }

    @Test func aNonEmptyOutputIsRefusedWithoutForce() throws {
        let w = try workspace()
        defer { try? FileManager.default.removeItem(at: w.root) }
        try Data(Self.event.utf8).write(to: w.input.appendingPathComponent("one.jsonl"))
        try FileManager.default.createDirectory(at: w.output, withIntermediateDirectories: true)
        try Data("keep me\n".utf8).write(to: w.output.appendingPathComponent("notes.txt"))
        let refused = try CLIRunner.run(["triage", w.input.path, "--output", w.output.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is not empty"))
        #expect(try String(contentsOf: w.output.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep me\n")
        // An earlier triage's own output is replaced with --force, and its stale reports go.
        try FileManager.default.removeItem(at: w.output.appendingPathComponent("notes.txt"))
        #expect(try CLIRunner.run(["triage", w.input.path, "--output", w.output.path]).status == 0)
        try Data("stale".utf8).write(to: w.output.appendingPathComponent("bundles/old.md"))
        #expect(try CLIRunner.run(["triage", w.input.path, "--output", w.output.path]).status == 1)
        #expect(try CLIRunner.run(["triage", w.input.path, "--output", w.output.path, "--force"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: w.output.appendingPathComponent("bundles/old.md").path))
    }

    @Test func setupFailuresAreSentencesNotErrorDumps() throws {
        let w = try workspace()
        defer { try? FileManager.default.removeItem(at: w.root) }
        let missing = try CLIRunner.run([
            "triage", w.root.appendingPathComponent("nope").path, "--output", w.output.path,
        ])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("does not exist"))
        #expect(!missing.stderr.contains("Error Domain"))
        let file = w.root.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        let outputIsFile = try CLIRunner.run(["triage", w.input.path, "--output", file.path])
        #expect(outputIsFile.status == 1)
        #expect(outputIsFile.stderr.contains("is a file, not a directory"))
        #expect(!outputIsFile.stderr.contains("Error Domain"))
        // One bundle given by mistake: said so.
        for name in ["events.jsonl", "more.jsonl"] {
            try Data(Self.event.utf8).write(to: w.input.appendingPathComponent(name))
        }
        let one = try CLIRunner.run(["triage", w.input.path, "--output", w.output.path])
        #expect(one.stderr.contains("looks like one bundle"))
    }

    /// A write-ahead log planted beside OUT's index (made from a copy of it, with a trigger and a
    /// forged row left in the log) is not left for SQLite to replay into the new index: after a
    /// `--since-index` run, OUT holds no `triage.sqlite-wal` and the index neither the trigger nor
    /// the forged text (probe B, F2). Written with python's sqlite3, which CI has.
    @Test func aPlantedWriteAheadLogIsNotLeftBesideTheIndex() throws {
        let (root, fleet, out) = try triagedFleet("pf-wal")
        defer { try? FileManager.default.removeItem(at: root) }
        let index = out.appendingPathComponent("triage.sqlite").path
        let forge = """
            import shutil, sqlite3, sys
            index, copy = sys.argv[1], sys.argv[2]
            shutil.copy(index, copy)
            c = sqlite3.connect(copy)
            c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA wal_autocheckpoint=0")
            c.execute("CREATE TRIGGER forge AFTER INSERT ON bundles BEGIN INSERT INTO meta VALUES ('F' || new.file, 'x'); END")
            c.execute("UPDATE sessions SET top_finding = 'FORGED'"); c.commit()
            shutil.copy(copy + "-wal", index + "-wal")
            c.close()
            """
        let forged = try CLIRunner.runProgram(
            "/usr/bin/env", ["python3", "-c", forge, index, root.appendingPathComponent("copy.sqlite").path])
        #expect(forged.status == 0, "\(forged.stderr)")
        #expect(FileManager.default.fileExists(atPath: index + "-wal"))
        let r = try CLIRunner.run(["triage", fleet.path, "--output", out.path, "--since-index"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: index + "-wal"))
        let read = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            print(c.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").fetchone()[0],
                  c.execute("SELECT count(*) FROM sessions WHERE top_finding = 'FORGED'").fetchone()[0])
            """
        let check = try CLIRunner.runProgram("/usr/bin/env", ["python3", "-c", read, index])
        #expect(
            check.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0 0", "\(check.stdout) \(check.stderr)")
    }

    /// A bundle that was read but holds nothing playback-related (a CDN log alone) is counted and
    /// listed in the overview, never left out of it (probe D): a reader must not take an unlisted
    /// bundle for a judged one. Near miss: the bundle beside it is judged as usual.
    @Test func aBundleWithNothingPlaybackRelatedIsListed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-nothing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fleet = root.appendingPathComponent("fleet")
        let cdnOnly = fleet.appendingPathComponent("cdn-only")
        try FileManager.default.createDirectory(at: cdnOnly, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLIRunner.repository.deletingLastPathComponent().appendingPathComponent(
                "shared/corpus/real-world/cdn/cloudfront-awsdocs-standard-example.log"),
            to: cdnOnly.appendingPathComponent("cloudfront.log"))
        try FileManager.default.copyItem(
            at: CLIRunner.repository.appendingPathComponent("SampleLogs/slow-key-startup"),
            to: fleet.appendingPathComponent("b1"))
        let out = root.appendingPathComponent("out")
        let r = try CLIRunner.run(["triage", fleet.path, "--output", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("1 with nothing playback-related read"), "\(r.stderr)")
        let index = try String(contentsOf: out.appendingPathComponent("index.md"), encoding: .utf8)
        #expect(index.contains("1 with nothing playback-related read"))
        #expect(index.contains("## Bundles with nothing playback-related read"))
        #expect(index.contains("- cdn-only: nothing playback-related was read"), "\(index)")
        #expect(index.contains("b1"))
    }
}

/// Probe F (hostile input, round five): what is planted in OUT where a report goes never blocks
/// the run or passes for a property of the bundle, and an interrupted run leaves no copy of its
/// input behind.
@Suite(.serialized) struct PlantedOutputTests {
    /// The one-bundle fleet triaged once, and a second bundle added for the next run.
    func fleetAndIndex() throws -> (root: URL, fleet: URL, out: URL) {
        let (root, fleet, out) = try triagedFleet("pf-planted")
        try FileManager.default.copyItem(
            at: CLIRunner.repository.appendingPathComponent("SampleLogs/slow-key-startup"),
            to: fleet.appendingPathComponent("b2"))
        return (root, fleet, out)
    }

    /// A FIFO where the new bundle's report goes: refused at once (no reader to wait for), the
    /// run fails (exit 1) and the bundle is not indexed, so the next run, the FIFO gone, writes it.
    @Test func aFIFOWhereAReportGoesFailsTheRunAtOnceAndTheNextRunWritesIt() throws {
        let w = try fleetAndIndex()
        defer { try? FileManager.default.removeItem(at: w.root) }
        let report = w.out.appendingPathComponent("bundles/b2.md").path
        #expect(mkfifo(report, 0o644) == 0)
        let started = Date()
        let r = try CLIRunner.run(["triage", w.fleet.path, "--output", w.out.path, "--since-index"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("b2.md"), "\(r.stderr)")
        unlink(report)
        let again = try CLIRunner.run(["triage", w.fleet.path, "--output", w.out.path, "--since-index"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("1 analysed"), "\(again.stderr)")
        #expect(again.stderr.contains("0 unreadable"), "\(again.stderr)")
        var info = stat()
        #expect(lstat(report, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    }

    /// A symbolic link where a report goes: the target is untouched, the run fails, and the
    /// bundle is not recorded as unreadable for later runs to keep.
    @Test func aLinkWhereAReportGoesIsNoUnreadableBundle() throws {
        let w = try fleetAndIndex()
        defer { try? FileManager.default.removeItem(at: w.root) }
        let victim = w.root.appendingPathComponent("victim.txt")
        try Data("precious\n".utf8).write(to: victim)
        let report = w.out.appendingPathComponent("bundles/b2.md").path
        try FileManager.default.createSymbolicLink(atPath: report, withDestinationPath: victim.path)
        let r = try CLIRunner.run(["triage", w.fleet.path, "--output", w.out.path, "--since-index"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        unlink(report)
        let again = try CLIRunner.run(["triage", w.fleet.path, "--output", w.out.path, "--since-index"])
        #expect(again.status == 0 && again.stderr.contains("0 unreadable"), "\(again.stderr)")
    }

    /// Near miss: `analyze --output` may name a pipe that has a reader (a shell's `>(…)`); one
    /// without a reader fails at once instead of waiting.
    @Test func analyzeIntoAPipeWithoutAReaderFailsAtOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("report.md").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let r = try CLIRunner.run(["analyze", "SampleLogs/cdn-404-stall", "--output", fifo])
        #expect(r.status == 1)
        #expect(r.stderr.contains("a pipe with no reader"), "\(r.stderr)")
    }

    /// Standard input past the member limit is read up to it and judged, the verdict saying the
    /// rest was not read (before: no report at all, and the wrong option named).
    @Test func standardInputPastTheLimitIsReadInPart() throws {
        let line =
            #"{"type":"AVMetricPlayerItemRateChangeEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"S1","rate":1,"previousRate":0}"#
        let script = "yes '\(line)' | head -c 2000000 | \"$1\" analyze - --max-member-size 1MiB --report json"
        let r = try CLIRunner.runProgram("/bin/sh", ["-c", script, "sh", CLIRunner.binary.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("only its first 1048576 bytes were read (--max-member-size)") == false)
        #expect(r.stdout.contains("larger than the limit of 1048576 bytes (--max-member-size): only its first"))
        #expect(r.stdout.contains("\"could-not-judge\""))
    }

    /// Ctrl-C while standard input is spooled: the private copy in TMPDIR is removed.
    @Test func anInterruptedReadOfStandardInputLeavesNoCopy() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("pf-spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let script = "yes | TMPDIR=\"$1\" timeout -s INT 2 \"$2\" analyze - >/dev/null 2>&1; ls -A \"$1\" | wc -l"
        let r = try CLIRunner.runProgram("/bin/sh", ["-c", script, "sh", tmp.path, CLIRunner.binary.path])
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(r.stdout) \(r.stderr)")
    }
}

/// Probe F: a bundle whose name starts with a dot is a bundle (as `analyze` reads it), not
/// silently left out; what a file system or a version-control tool keeps beside them is skipped.
@Suite struct DotNamedBundleTests {
    @Test func dotNamedBundlesAreTriagedAndSystemEntriesSkipped() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-dot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fleet = root.appendingPathComponent("fleet")
        try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
        let sample = CLIRunner.repository.appendingPathComponent("SampleLogs/cdn-404-stall")
        try FileManager.default.copyItem(at: sample, to: fleet.appendingPathComponent("user3"))
        try FileManager.default.copyItem(at: sample, to: fleet.appendingPathComponent("..user2"))
        try FileManager.default.copyItem(at: sample, to: fleet.appendingPathComponent(".git"))
        try Data("x".utf8).write(to: fleet.appendingPathComponent("._user3"))
        let r = try CLIRunner.run(["triage", fleet.path, "--output", root.appendingPathComponent("out").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("triage: 2 bundles"), "\(r.stderr)")
        let index = try String(contentsOf: root.appendingPathComponent("out/index.md"), encoding: .utf8)
        #expect(index.contains("..user2"))
    }
}

/// Probe F: help and completion scripts that cannot be written are failed writes (exit 1), like
/// every other output; near miss: written to a pipe that reads them, exit 0.
@Suite struct HelpWriteFailureTests {
    @Test func helpToAFullDeviceIsExitOne() throws {
        for arguments in ["--help", "analyze --help", "--generate-completion-script bash"] {
            let r = try CLIRunner.runProgram(
                "/bin/sh", ["-c", "\"$1\" \(arguments) > /dev/full; echo \"rc=$?\"", "sh", CLIRunner.binary.path])
            #expect(r.stdout.contains("rc=1"), "\(arguments): \(r.stdout) \(r.stderr)")
            #expect(r.stderr.contains("cannot write to standard output"), "\(arguments)")
        }
        // A file-size limit cuts a report: exit 1 with the reason, and no cut report left behind.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-fsz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("r.html").path
        let limited = try CLIRunner.runProgram(
            "/bin/sh",
            [
                "-c",
                "ulimit -f 8; \"$1\" analyze SampleLogs/cdn-404-stall --report html --output \"$2\"; echo \"rc=$?\"",
                "sh", CLIRunner.binary.path, report,
            ])
        #expect(limited.stdout.contains("rc=1"), "\(limited.stdout) \(limited.stderr)")
        #expect(limited.stderr.contains("File too large"))
        #expect(((try? FileManager.default.attributesOfItem(atPath: report)[.size] as? Int) ?? 0) == 0)
        let ok = try CLIRunner.run(["--help"])
        #expect(ok.status == 0 && ok.stdout.contains("SUBCOMMANDS"))
    }
}

/// Probe G: what `analyze` says of a bundle it cannot read stands in the triage index — its
/// verdict and the reason (a zip cut short, an access log whose rows were cut off).
@Suite struct UnreadableBundleReasonTests {
    @Test func aCutZipKeepsItsReasonAndVerdictInTheIndex() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-cutzip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fleet = root.appendingPathComponent("fleet")
        try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
        let zip = try Data(contentsOf: CLIRunner.repository.appendingPathComponent("SampleLogs/clean-session.zip"))
        try zip.prefix(zip.count / 2).write(to: fleet.appendingPathComponent("cut.zip"))
        let out = root.appendingPathComponent("out")
        let r = try CLIRunner.run(["triage", fleet.path, "--output", out.path])
        #expect(r.stderr.contains("1 unreadable (cut.zip)"), "\(r.stderr)")
        let json = try String(contentsOf: out.appendingPathComponent("triage.json"), encoding: .utf8)
        #expect(json.contains("cannot open zip archive"), "\(json)")
        #expect(json.contains("\"verdict\": \"nothing-read\""))
    }
}

/// A fleet of one bundle (`SampleLogs/cdn-404-stall` as `b1`) under a new temporary root,
/// triaged once into `root/out`.
func triagedFleet(_ prefix: String) throws -> (root: URL, fleet: URL, out: URL) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    let fleet = root.appendingPathComponent("fleet")
    try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
        at: CLIRunner.repository.appendingPathComponent("SampleLogs/cdn-404-stall"),
        to: fleet.appendingPathComponent("b1"))
    let out = root.appendingPathComponent("out")
    #expect(try CLIRunner.run(["triage", fleet.path, "--output", out.path]).status == 0)
    return (root, fleet, out)
}
