import Foundation
import PlaybackForensics
import Testing

/// Every JSON output of every command validates against `Documentation/playback-forensics.schema.json`:
/// `analyze --report json`, `timeline --json` / `--json-lines`, `parse --json` / `--json-lines`,
/// `triage.json` and `triage --json-lines`, on every sample bundle.
@Suite(.serialized) struct JSONSchemaTests {
    static let schema = CLIRunner.repository.appendingPathComponent("Documentation/playback-forensics.schema.json")
    static let bundles = [
        "access-error-logs-only", "cdn-404-stall", "clean-session.zip", "ktvhttpcache-2x-ijkplayer",
        "proxy-octet-stream", "slow-key-startup", "three-sessions.tar.gz", "cdn-slow-origin", "console-fairplay",
    ]

    func expectValid(_ text: String, _ definition: String, _ label: String) throws {
        let validator = try JSONSchemaValidator(schemaFile: Self.schema)
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        let problems = validator.validate(value, definition: definition)
        #expect(problems.isEmpty, "\(label) against \(definition): \(problems.prefix(3))")
    }

    @Test(arguments: bundles) func everyCommandsJSONValidates(bundle: String) throws {
        let path = "SampleLogs/\(bundle)"
        try expectValid(try CLIRunner.run(["analyze", path, "--report", "json"]).stdout, "report", "analyze \(bundle)")
        try expectValid(try CLIRunner.run(["timeline", path, "--json"]).stdout, "timeline", "timeline \(bundle)")
        try expectValid(try CLIRunner.run(["parse", path, "--json"]).stdout, "parse", "parse \(bundle)")
        for line in try CLIRunner.run(["timeline", path, "--json-lines"]).stdout.split(separator: "\n") {
            try expectValid(String(line), "timeline_line", "timeline --json-lines \(bundle)")
        }
        for line in try CLIRunner.run(["parse", path, "--json-lines"]).stdout.split(separator: "\n") {
            try expectValid(String(line), "parse_line", "parse --json-lines \(bundle)")
        }
    }

    @Test func triageJSONAndJSONLinesValidate() throws {
        let (fleet, out) = try CLIRunner.sampleFleet(Self.bundles)
        defer {
            try? FileManager.default.removeItem(at: fleet)
            try? FileManager.default.removeItem(at: out)
        }
        let r = try CLIRunner.run(["triage", fleet.path, "--output", out.path, "--json-lines"])
        #expect(r.status == 0)
        try expectValid(
            try String(contentsOf: out.appendingPathComponent("triage.json"), encoding: .utf8), "triage", "triage.json")
        for line in r.stdout.split(separator: "\n") {
            try expectValid(String(line), "triage_line", "triage --json-lines")
        }
        for report in try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("bundles").path)
        where report.hasSuffix(".json") {
            try expectValid(
                try String(contentsOf: out.appendingPathComponent("bundles/\(report)"), encoding: .utf8), "report",
                report)
        }
    }

    /// Every enum of format identifiers in the schema is the registry's list: the schema follows
    /// the formats' declarations, never a list of its own.
    @Test func theSchemasFormatEnumsAreTheRegistrysFormats() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schema))
        var enums: [[String]] = []
        func walk(_ v: Any) {
            if let o = v as? [String: Any] {
                if let e = o["enum"] as? [String], e.contains("metric-events") { enums.append(e) }
                o.values.forEach(walk)
            } else if let a = v as? [Any] {
                a.forEach(walk)
            }
        }
        walk(schema)
        #expect(enums.count >= 4)
        let formats = FormatCatalog.all.map(\.format.rawValue) + ServerLogLayout.kinds.map(\.format.rawValue)
        for e in enums { #expect(e == formats) }
    }

    /// The check can fail: a wrong type, an undeclared field and a missing one are each caught.
    @Test func theValidatorRejectsWhatTheSchemaDoesNot() throws {
        let validator = try JSONSchemaValidator(schemaFile: Self.schema)
        let good: [String: Any] = ["file": "a.log", "line": 3, "time": NSNull(), "summary": "x"]
        #expect(validator.validate(good, definition: "evidence").isEmpty)
        var wrongType = good
        wrongType["line"] = "3"
        #expect(!validator.validate(wrongType, definition: "evidence").isEmpty)
        var extra = good
        extra["surprise"] = 1
        #expect(!validator.validate(extra, definition: "evidence").isEmpty)
        var missing = good
        missing["summary"] = nil
        #expect(!validator.validate(missing, definition: "evidence").isEmpty)
        #expect(!validator.validate(["kind": "request"], definition: "record").isEmpty)
    }
}
