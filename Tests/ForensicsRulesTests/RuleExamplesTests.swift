import ForensicsCore
import ForensicsRules
import PlaybackForensics
import Testing

/// One generic test for every rule's declared examples, in every derived variant: the examples
/// are the rules' tests and their documentation.
@Suite struct RuleExamplesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var ruleID: String
        var index: Int
        var triggering: Bool
        var title: String
        var testDescription: String { "\(ruleID) \(triggering ? "fires" : "stays silent"): \(title)" }
    }

    static var cases: [Case] {
        RuleRegistry.descriptions.flatMap { d in
            d.triggeringExamples.enumerated().map {
                Case(ruleID: d.identifier, index: $0.offset, triggering: true, title: $0.element.title)
            }
                + d.nonTriggeringExamples.enumerated().map {
                    Case(ruleID: d.identifier, index: $0.offset, triggering: false, title: $0.element.title)
                }
        }
    }

    @Test(arguments: cases)
    func exampleBehavesAsDeclared(_ c: Case) throws {
        let d = try #require(RuleRegistry.descriptions.first { $0.identifier == c.ruleID })
        let example = c.triggering ? d.triggeringExamples[c.index] : d.nonTriggeringExamples[c.index]
        for variant in RuleExampleRunner.Variant.allCases {
            guard let prepared = RuleExampleRunner.prepare(example, variant: variant) else { continue }
            let findings = RuleExampleRunner.findings(ruleID: c.ruleID, prepared)
            if c.triggering {
                let anchor = try #require(prepared.anchor, "triggering example needs a ◀ anchor")
                let anchored = findings.filter { f in f.evidence.contains { $0.location == anchor } }
                #expect(
                    !anchored.isEmpty,
                    "[\(variant)] no \(c.ruleID) finding anchored at \(anchor); got \(findings.map(\.title))")
                if let cause = example.expectedCause {
                    #expect(
                        anchored.contains { $0.cause == cause },
                        "[\(variant)] cause: \(anchored.map { $0.cause ?? "nil" })")
                }
                if let severity = example.expectedSeverity {
                    #expect(
                        anchored.contains { $0.severity == severity },
                        "[\(variant)] severity: \(anchored.map(\.severity))")
                }
            } else {
                #expect(findings.isEmpty, "[\(variant)] unexpected: \(findings.map(\.title))")
            }
        }
    }

    @Test func everyRuleHasTwoTriggeringAndTwoNonTriggeringExamples() {
        for d in RuleRegistry.descriptions {
            #expect(d.triggeringExamples.count >= 2, "\(d.identifier)")
            #expect(d.nonTriggeringExamples.count >= 2, "\(d.identifier)")
            #expect(
                d.nonTriggeringExamples.contains { $0.title.lowercased().contains("near miss") },
                "\(d.identifier) needs a near miss")
        }
    }

    @Test func ruleIdentifiersAreTheCataloguesAndUnique() {
        let ids = RuleRegistry.descriptions.map(\.identifier)
        #expect(Set(ids).count == ids.count)
        #expect(
            Set(ids) == [
                "slow-startup", "slow-key-fetch", "missing-session-key", "initial-variant-too-high", "stream-defects",
                "playlist-not-compressed",
                "segment-404-downswitch", "stall", "excessive-switching", "segment-errors", "playback-failed",
                "slow-segment-download", "proxy-unreachable", "proxy-unplayable-content-type", "proxy-origin-errors",
                "proxy-cache-ineffective", "content-key-failed", "playlist-parse-error", "live-start-near-edge",
                "playlist-unavailable", "segment-exceeds-declared-bandwidth",
            ])
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }) }
    }
}
