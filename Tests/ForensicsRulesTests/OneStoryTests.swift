import Foundation
import ForensicsCore
import ForensicsParsers
import ForensicsRules
import PlaybackForensics
import ForensicsTestSupport
import Testing

/// Findings must read as one consistent story: intervals that do not end before they start, and
/// counts in the words that fit them.
@Suite struct OneStoryTests {
    static var bundles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.sampleLogs.path)) ?? [])
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
    }

    static func checkIntervals(_ report: AnalysisReport, _ what: String) {
        for s in report.sessions {
            for f in s.findings {
                if let start = f.start, let end = f.end {
                    #expect(start <= end, "\(what): \(f.ruleID) '\(f.title)' ends before it starts")
                }
            }
        }
    }

    @Test func everyFindingOfTheSampleBundlesEndsAfterItStarts() throws {
        for bundle in Self.bundles {
            Self.checkIntervals(
                try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent(bundle).path), bundle)
        }
    }

    @Test func everyFindingOfEveryRuleExampleEndsAfterItStarts() {
        for d in RuleRegistry.descriptions {
            for example in d.triggeringExamples + d.nonTriggeringExamples {
                guard let prepared = RuleExampleRunner.prepare(example, variant: .plain) else { continue }
                Self.checkIntervals(Analyzer().analyze(files: prepared.files), "\(d.identifier): \(example.title)")
            }
        }
    }

    @Test func oneFailedRequestIsSingular() throws {
        let engine = try RuleEngine(configuration: ["rules": ["segment-errors": ["minimum-count": 1]]])
        let files = [
            ExampleFixtures.errorLog([ExampleFixtures.errorRow(at: 10, uri: "https://cdn.example.com/a/v1/s1.ts")])
        ]
        let report = Analyzer(ingestor: Ingestor(), rules: engine).analyze(
            files: files.map { ($0.name, Array($0.text.utf8)) })
        let titles = report.sessions.flatMap(\.findings).filter { $0.ruleID == "segment-errors" }.map(\.title)
        #expect(titles == ["1 media request to cdn.example.com failed with HTTP 404"])
    }
}
