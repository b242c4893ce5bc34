import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import PlaybackForensics

/// Contracts between modules are types (issue 31): evidence names its timeline entry, a finding
/// names its subject, KPIs name their source.
@Suite struct TypedContractsTests {
    static var bundles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.sampleLogs.path)) ?? [])
            .filter { $0 != "README.md" }.sorted()
    }

    /// Every piece of evidence of every finding on every sample bundle remembers the timeline
    /// entry it came from (a server row: the request it is joined to), so a report opens its
    /// excerpt there and never searches for the record.
    @Test(arguments: bundles) func everyEvidenceNamesItsTimelineEntry(bundle: String) throws {
        let report = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent(bundle).path)
        for r in report.sessions {
            for f in r.findings {
                for e in f.evidence {
                    let index = try #require(e.timelineIndex, "\(bundle) \(f.ruleID): \(e.location)")
                    #expect(r.session.entries.indices.contains(index))
                }
            }
        }
    }

    /// The findings a fleet groups by host and status say so in their subject.
    @Test func segmentErrorsNameHostAndStatusAsTheirSubject() throws {
        let report = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("cdn-404-stall").path)
        let errors = try #require(report.sessions.first?.findings.first { $0.ruleID == "segment-errors" })
        #expect(errors.subject.host == "edge7.cdn.example.net")
        #expect(errors.subject.status != nil)
        let down = try #require(report.sessions.first?.findings.first { $0.ruleID == "segment-404-downswitch" })
        #expect(down.subject.variantBandwidth == 20_000_000)
    }

    /// With CDN rows behind a stall's cause, the stall names the POP that served them.
    @Test func aServerSideStallNamesItsPOP() throws {
        let report = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("cdn-slow-origin").path)
        let stall = try #require(report.sessions.first?.findings.first { $0.ruleID == "stall" })
        #expect(stall.cause == "slow-origin")
        #expect(stall.subject.pop == "FRA56-P3")
    }

    @Test func kpiProvenanceIsTyped() throws {
        let report = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("cdn-slow-origin").path)
        let k = try #require(report.sessions.first?.session.kpis)
        #expect(k.provenance[.stallCount] == .timeline)
        #expect(k.provenance[.playingTime] == .summaryEvent)
        #expect(k.provenanceByName.map(\.0) == k.provenanceByName.map(\.0).sorted())
    }
}
