import Foundation
import ForensicsTestSupport
import PlaybackForensics
import Testing

@testable import playback_forensics

@Suite struct ConfigurationTests {
    @Test func thresholdsSeveritiesAndEnablingAreConfigurable() throws {
        let engine = try ConfigurationLoader.load(
            text: """
                rules:
                  slow-startup:
                    warning-seconds: 10
                  stall:
                    severity: critical
                  segment-errors:
                    enabled: false
                """)
        #expect(engine.rule("slow-startup")?.optionsJSON.contains("\"warning-seconds\":10") == true)
        // The error threshold follows a warning threshold given above it (probe P).
        #expect(engine.rule("slow-startup")?.optionsJSON.contains("\"error-seconds\":10") == true)
        #expect(engine.rule("stall")?.severity == .critical)
        #expect(engine.rule("segment-errors")?.enabled == false)
        let report = try Analyzer(rules: engine).analyze(
            path: TestPaths.sampleLogs.appendingPathComponent("slow-key-startup").path)
        #expect(!report.sessions.flatMap(\.findings).contains { $0.ruleID == "slow-startup" })
    }

    @Test func jsonConfigurationIsAccepted() throws {
        let engine = try ConfigurationLoader.load(text: #"{"rules": {"slow-key-fetch": {"slow-seconds": 2}}}"#)
        #expect(engine.rule("slow-key-fetch")?.optionsJSON.contains("\"slow-seconds\":2") == true)
    }

    @Test func errorsNameTheRuleAndKey() {
        #expect(throws: ConfigurationError.unknownOption(rule: "stall", key: "bogus")) {
            try ConfigurationLoader.load(text: "rules:\n  stall:\n    bogus: 1\n")
        }
        #expect(throws: ConfigurationError.unknownRule("no-such-rule")) {
            try ConfigurationLoader.load(text: "rules:\n  no-such-rule:\n    enabled: false\n")
        }
        #expect(
            throws: ConfigurationError.invalidValue(rule: "stall", key: "look-back-seconds", reason: "must be a number")
        ) {
            try ConfigurationLoader.load(text: "rules:\n  stall:\n    look-back-seconds: soon\n")
        }
        #expect(
            throws: ConfigurationError.invalidValue(
                rule: "stall", key: "severity", reason: "must be one of info, warning, error, critical")
        ) {
            try ConfigurationLoader.load(text: "rules:\n  stall:\n    severity: loud\n")
        }
        // Probe P: a warning threshold above the error one leaves the values between judged by
        // neither. Near miss: equal thresholds are fine.
        #expect(
            throws: ConfigurationError.invalidValue(
                rule: "slow-startup", key: "error-seconds",
                reason:
                    "error-seconds (2.01) must be at least warning-seconds (3), or values between them are judged by neither"
            )
        ) {
            try ConfigurationLoader.load(
                text: "rules:\n  slow-startup:\n    warning-seconds: 3\n    error-seconds: 2.01\n")
        }
        #expect(throws: Never.self) {
            try ConfigurationLoader.load(
                text: "rules:\n  slow-startup:\n    warning-seconds: 3\n    error-seconds: 3\n")
        }
    }
}

/// The configuration is read within limits (issue 30): what expanded to gigabytes, overflowed the
/// stack or silently let the last key win is refused with the file, line and reason.
@Suite struct ConfigurationLimitTests {
    func refusal(_ text: String) -> ConfigurationDocument.ReadError? {
        do {
            _ = try ConfigurationDocument(text: text)
            return nil
        } catch let error as ConfigurationDocument.ReadError {
            return error
        } catch {
            return nil
        }
    }

    @Test func aliasesAnchorsAndTagsAreRefused() {
        #expect(refusal("a: &x [1, 2]\nb: *x\n")?.reason.contains("anchors") == true)
        #expect(refusal("a: !!python/object:os.system x\n")?.reason.contains("tags") == true)
        #expect(refusal("a: 1\n---\nb: 2\n")?.reason.contains("more than one YAML document") == true)
    }

    @Test func nestingAndSizeAreBounded() {
        let deep = String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)
        #expect(refusal(deep)?.reason.contains("nested deeper than 32") == true)
        let block = (0..<40).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n")
        #expect(refusal(block)?.line == 33)
        #expect(refusal("# " + String(repeating: "x", count: 1 << 20))?.reason.contains("larger than") == true)
        // Near miss: 32 levels is within the limit.
        let ok = (0..<31).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " 1\n"
        #expect(refusal(ok) == nil)
    }

    @Test func duplicateKeysAreRefusedWithBothLines() {
        let error = refusal("rules:\n  stall:\n    severity: error\n  stall:\n    severity: info\n")
        #expect(error?.line == 4)
        #expect(error?.reason == "duplicate key 'stall' (first at line 2)")
        // Near miss: the same key in two different mappings.
        #expect(refusal("rules:\n  stall:\n    enabled: true\n  slow-startup:\n    enabled: true\n") == nil)
    }

    @Test func scalarsKeepTheirYAMLAndJSONTypes() throws {
        let d = try ConfigurationDocument(text: "a: 10\nb: 0.5\nc: true\nd: 'true'\ne: ~\nf: soon\n")
        let v = d.value as? [String: Any]
        #expect(v?["a"] as? Int == 10)
        #expect(v?["b"] as? Double == 0.5)
        #expect(v?["c"] as? Bool == true)
        #expect(v?["d"] as? String == "true")
        #expect(v?["f"] as? String == "soon")
    }

    @Test func fileErrorsNameFileLineAndKey() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pf-config-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: path) }
        try "rules:\n  stall:\n    look-back-seconds: soon\n".write(to: path, atomically: true, encoding: .utf8)
        do {
            _ = try ConfigurationLoader.load(path: path.path)
            Issue.record("accepted")
        } catch let error as ConfigurationLoader.FileError {
            #expect(error.description == "\(path.path):3: rule 'stall': option 'look-back-seconds' must be a number")
        }
        #expect(throws: ConfigurationLoader.FileError.self) { try ConfigurationLoader.load(path: "/dev/zero") }
    }
}
