import Foundation
import Testing

/// Wrong input does not "succeed": a folder with no playback record exits 1 with one sentence
/// naming what was read and what is expected; archive clutter from other platforms is ignored.
@Suite struct NothingToAnalyzeTests {
    func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-nothing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir
    }

    @Test func anEmptyFolderExitsOneWithASentence() throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLIRunner.run(["analyze", dir.path, "--fail-on", "info"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("no files to read"))
        #expect(r.stderr.contains("expected AVMetrics events"))
    }

    @Test func aFolderOfNonLogsExitsOneNamingWhatWasRead() throws {
        let dir = try folder([
            "hosts": "127.0.0.1 localhost\n", "notes.txt": "call the CDN on Monday\n", "conf/app.ini": "[a]\nb=1\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLIRunner.run(["analyze", dir.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("read 3 files"))
        #expect(r.stderr.contains("none holds a playback record"))
    }

    @Test func macOSClutterIsIgnored() throws {
        let event =
            #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"S","rate":0,"previousRate":1}"#
            + "\n"
        let dir = try folder([
            "logs/events.jsonl": event, "__MACOSX/logs/._events.jsonl": "\u{0}\u{5}\u{16}\u{7}Mac OS X",
            "logs/.DS_Store": "Bud1",
            ".DS_Store": "Bud1",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLIRunner.run(["analyze", dir.path, "--report", "json"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("__MACOSX"))
        #expect(!r.stdout.contains(".DS_Store"))
        #expect(r.stdout.contains("logs/events.jsonl"))
    }

    /// An archive piped in is recognised like the same file on disk.
    @Test(arguments: [("clean-session.zip", 1), ("three-sessions.tar.gz", 3)])
    func archivesOnStandardInputAreExpanded(name: String, sessions: Int) throws {
        let r = try CLIRunner.run(
            ["analyze", "-", "--report", "json"],
            stdin: CLIRunner.repository.appendingPathComponent("SampleLogs/" + name))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "\"session_id\"").count - 1 == sessions)
        #expect(r.stdout.contains("\"path\": \"stdin/"))
    }

    /// A misspelt subcommand or rule id gets a suggestion, not a complaint about the bundle path.
    @Test func typosGetASuggestion() throws {
        let command = try CLIRunner.run(["analyse", "SampleLogs/cdn-404-stall"])
        #expect(command.status == 64)
        #expect(command.stderr.contains("unknown command 'analyse'. Did you mean 'analyze'?"))
        let rule = try CLIRunner.run(["rules", "slow-key-fetc"])
        #expect(rule.status == 64)
        #expect(rule.stderr.contains("Did you mean 'slow-key-fetch'?"))
        // A bundle path is still a bundle path (analyze is the default command).
        let path = try CLIRunner.run(["SampleLogs/cdn-404-stall"])
        #expect(path.status == 0)
    }

    /// Zone names and sizes with units are accepted; nonsense is still refused.
    @Test func zoneNamesAndSizesWithUnitsAreAccepted() throws {
        for args in [
            ["--timezone", "CET"], ["--timezone", "Europe/Berlin"], ["--max-line-length", "1MiB"],
            ["--max-member-size", "1.5G"],
        ] {
            let r = try CLIRunner.run(["analyze", "SampleLogs/access-error-logs-only"] + args)
            #expect(r.status == 2 || r.status == 0, "\(args): \(r.stderr)")
        }
        #expect(
            try CLIRunner.run(["analyze", "SampleLogs/access-error-logs-only", "--timezone", "Mars/Olympus"]).status
                == 64)
        #expect(
            try CLIRunner.run(["analyze", "SampleLogs/access-error-logs-only", "--max-line-length", "12 parsecs"])
                .status == 64)
    }

    /// Colour on a terminal (a pseudo-terminal from `script`), none with NO_COLOR or in a pipe.
    @Test func colourOnATerminalOnly() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("pf-colour-\(UUID().uuidString).md")
            .path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let command = "\(CLIRunner.binary.path) analyze SampleLogs/cdn-404-stall --output \(out)"
        let terminal = try CLIRunner.runProgram(
            "/usr/bin/script", ["-qc", command, "/dev/null"], environment: ["NO_COLOR": ""])
        #expect(terminal.stdout.contains("\u{1B}[31merror\u{1B}[0m"), "\(terminal.stdout)")
        let plain = try CLIRunner.runProgram(
            "/usr/bin/script", ["-qc", command, "/dev/null"], environment: ["NO_COLOR": "1"])
        #expect(plain.stdout.contains("worst error"))
        #expect(!plain.stdout.contains("\u{1B}["))
    }
}

/// Shell completions offer the values an option takes: rule ids, formats, severities.
@Suite struct CompletionTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsOfferRuleIdsFormatsAndSeverities(shell: String) throws {
        let r = try CLIRunner.run(["--generate-completion-script", shell])
        #expect(r.status == 0)
        for value in ["slow-key-fetch", "proxy-cache-ineffective", "metric-events", "har-capture", "critical"] {
            #expect(r.stdout.contains(value), "\(shell) completion lacks \(value)")
        }
    }
}
