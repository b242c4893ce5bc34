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
    }
}
