import ForensicsCore
import Foundation
import Testing

@testable import ForensicsIndex

/// Merging shards' indexes (`triage merge`): every bundle's rows arrive whole, problems are grouped
/// across the shards as if one run had seen them all, and a bundle in two shards is refused.
@Suite struct IndexMergeTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pf-merge-\(UUID().uuidString)")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A bundle with one session whose one finding is `rule` on `host`.
    func bundle(_ name: String, rule: String, host: String, startup: Double) -> IndexedBundle {
        var b = IndexedBundle(name: name, file: name, contentHash: "hash-\(name)", analyzer: "test")
        var k = KPIs()
        k.startupTime = startup
        k.provenance[.startupTime] = .timeline
        var s = IndexedSession(id: "S-\(name)", ordinal: 0, kpis: k, sources: ["metric-events"])
        s.worst = .warning
        s.findings = [
            IndexedFinding(
                ordinal: 0, ruleID: rule, severity: .warning, title: "\(rule) on \(host)", start: Timestamp(100),
                end: Timestamp(101), problem: ProblemKey(ruleID: rule, host: host, status: "HTTP 404"),
                evidence: [IndexedEvidence(file: "m.jsonl", line: 3, time: Timestamp(100), summary: "x")])
        ]
        b.sessions = [s]
        return b
    }

    func shard(_ name: String, _ bundles: [IndexedBundle]) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let index = try TriageIndex(path: path(name))
        for b in bundles { try index.store(b) }
        _ = try index.updateProblems()
        try index.close()
        return path(name)
    }

    @Test func twoShardsMergeIntoTheSameProblemsAsOneRun() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = bundle("a", rule: "segment-errors", host: "edge1", startup: 1)
        let b = bundle("b", rule: "segment-errors", host: "edge1", startup: 3)
        let c = bundle("c", rule: "slow-key-fetch", host: "keys", startup: 2)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let one = try TriageIndex(path: path("whole.sqlite"))
        for x in [a, b, c] { try one.store(x) }
        let expected = try one.updateProblems()
        let expectedRows = try one.rowsAsText()
        try one.close()

        let first = try shard("1.sqlite", [a])
        let second = try shard("2.sqlite", [b, c])
        let merged = try TriageIndex(path: path("merged.sqlite"))
        _ = try merged.absorb(first)
        _ = try merged.absorb(second)
        let problems = try merged.updateProblems()
        #expect(problems.map(\.key.text) == expected.map(\.key.text))
        #expect(problems.first?.sessions == 2, "one problem over both shards")
        #expect(problems.map(\.findings) == expected.map(\.findings))
        #expect(try merged.rowsAsText() == expectedRows)
        #expect(try merged.counts().bundles == 3)
        try merged.close()
    }

    @Test func aBundleInTwoShardsIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = bundle("a", rule: "segment-errors", host: "edge1", startup: 1)
        let first = try shard("1.sqlite", [a])
        let second = try shard("2.sqlite", [a])
        let merged = try TriageIndex(path: path("merged.sqlite"))
        _ = try merged.absorb(first)
        #expect(throws: TriageIndex.IndexError.self) { try merged.absorb(second) }
        #expect(try merged.counts().bundles == 1, "the refused shard left nothing behind")
        // Near miss: two bundles whose sessions share an id are two bundles, not a clash.
        var other = bundle("b", rule: "segment-errors", host: "edge1", startup: 1)
        other.sessions[0].id = a.sessions[0].id
        _ = try merged.absorb(try shard("3.sqlite", [other]))
        #expect(try merged.counts().bundles == 2)
        try merged.close()
    }
}
