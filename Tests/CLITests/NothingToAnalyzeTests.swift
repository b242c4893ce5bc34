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
        // The report is still written, and says there was nothing to judge (issue 29).
        #expect(r.stdout.contains("**Bundle verdict: nothing to judge**"))
        #expect(!r.stdout.contains("No problem found"))
        #expect(r.stderr.contains("no files to read"))
        #expect(r.stderr.contains("expected AVMetrics events"))
        // JSON: a document in every case, with a machine-readable status.
        let j = try CLIRunner.run(["analyze", dir.path, "--report", "json"])
        #expect(j.status == 1)
        let doc = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any]
        let verdict = doc?["verdict"] as? [String: Any]
        #expect(verdict?["status"] as? String == "nothing-read")
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
        #expect(r.stderr.contains("notes.txt: text with none of a known format's evidence"))
        // `timeline` too: one sentence and exit 1, never an empty timeline and exit 0.
        let t = try CLIRunner.run(["timeline", dir.path])
        #expect(t.status == 1)
        #expect(t.stdout.isEmpty)
        #expect(t.stderr.contains("none holds a playback record"))
    }

    /// A zip whose members are encrypted (general-purpose flag bit 0, APPNOTE 4.4.4): a bundle
    /// that could hold the logs is not "none holds a playback record" but "could not be read".
    static func encryptedZip(name: String, content: [UInt8]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16((v >> 16) & 0xFFFF) }
        let n = Array(name.utf8)
        let local =
            u32(0x0403_4B50) + u16(20) + u16(1) + u16(0) + u16(0) + u16(0) + u32(0) + u32(content.count)
            + u32(content.count) + u16(n.count) + u16(0) + n + content
        let central =
            u32(0x0201_4B50) + u16(20) + u16(20) + u16(1) + u16(0) + u16(0) + u16(0) + u32(0) + u32(content.count)
            + u32(content.count) + u16(n.count) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(0) + n
        let end =
            u32(0x0605_4B50) + u16(0) + u16(0) + u16(1) + u16(1) + u32(central.count) + u32(local.count) + u16(0)
        return local + central + end
    }

    @Test func anEncryptedZipIsNamedAsNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-encrypted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("logs.zip")
        try Data(Self.encryptedZip(name: "access.log", content: Array("x".utf8))).write(to: zip)
        let r = try CLIRunner.run(["analyze", zip.path, "--report", "json"])
        #expect(r.status == 1)
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let verdict = doc?["verdict"] as? [String: Any]
        #expect(verdict?["status"] as? String == "nothing-read")
        let reasons = verdict?["could_not_judge"] as? [String] ?? []
        #expect(reasons.contains { $0.contains("encrypted zip member") }, "\(reasons)")
        let md = try CLIRunner.run(["analyze", zip.path])
        #expect(md.stdout.contains("encrypted zip member"))
        #expect(!md.stdout.contains("No problem found"))
    }

    /// `--fail-on` never passes a gate on evidence that could not be judged: exit 3.
    @Test func failOnExitsThreeWhenPartCouldNotBeJudged() throws {
        let dir = try folder([
            "access.log": """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
            #Date: 2026/11/21 10:00:00.000
            #Fields: date time uri cs-guid s-ip c-observed-bitrate sc-indicated-bitrate c-stalls c-duration-watched c-startup-time
            2026/11/21 10:00:02.002 https://cdn.example.com/a/v20/index.m3u8 6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10 203.0.113.7 25000000.000 20000000 0 120.500 0.500

            """,
            "error.log": """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
            #Date: 2026/11/21 10:02:00.000
            #Fields: date time uri cs-guid s-ip status domain comment cs-iftype

            """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLIRunner.run(["analyze", dir.path, "--fail-on", "warning"]).status == 3)
        #expect(try CLIRunner.run(["analyze", dir.path]).status == 0)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("error.log"))
        #expect(try CLIRunner.run(["analyze", dir.path, "--fail-on", "warning"]).status == 0)
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
