import Foundation
import ForensicsRules
import ForensicsTestSupport
import Testing

/// `Documentation/Rules/ID.md` is generated from the rule descriptions; this test keeps it fresh.
/// Regenerate with `UPDATE_RULE_DOCS=1 swift test --filter RuleDocumentationTests`.
@Suite struct RuleDocumentationTests {
    @Test func generatedRulePagesAreUpToDate() throws {
        let dir = TestPaths.repository.appendingPathComponent("Documentation/Rules")
        let update = ProcessInfo.processInfo.environment["UPDATE_RULE_DOCS"] != nil
        if update { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        var index = ["# Rules", "", "| id | name | kind | default severity |", "| --- | --- | --- | --- |"]
        for entry in RuleEngine().entries {
            let d = entry.description
            let url = dir.appendingPathComponent("\(d.identifier).md")
            let expected = RuleDocumentation.markdown(entry)
            index.append(
                "| [`\(d.identifier)`](\(d.identifier).md) | \(d.name) | \(d.kind.rawValue) | \(d.defaultSeverity.rawValue) |"
            )
            if update { try Data(expected.utf8).write(to: url) }
            let actual = try? String(contentsOf: url, encoding: .utf8)
            #expect(
                actual == expected,
                "Documentation/Rules/\(d.identifier).md is stale: run UPDATE_RULE_DOCS=1 swift test --filter RuleDocumentationTests"
            )
        }
        let indexText = index.joined(separator: "\n") + "\n"
        let indexURL = dir.appendingPathComponent("README.md")
        if update { try Data(indexText.utf8).write(to: indexURL) }
        #expect((try? String(contentsOf: indexURL, encoding: .utf8)) == indexText)
    }
}
