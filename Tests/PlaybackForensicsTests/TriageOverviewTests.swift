import ForensicsCore
import ForensicsIndex
import Foundation
import Testing

@testable import PlaybackForensics

/// The HTML overview lists the worst `htmlSessionLimit` sessions (read with SQL's LIMIT, the
/// rest never read) and says how many more `index.md` has; the Markdown lists them all.
@Suite struct TriageOverviewTests {
    @Test func theHTMLPageListsTheWorstAndCountsTheRest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-overview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let index = try TriageIndex(path: dir.appendingPathComponent("triage.sqlite").path)
        let total = TriageReporter.htmlSessionLimit + 3
        for n in 0..<total {
            var bundle = IndexedBundle(name: "b\(n)", file: "b\(n)", contentHash: "h\(n)", analyzer: "x")
            bundle.sessions = [IndexedSession(id: "S\(n)", ordinal: 0, kpis: KPIs(), sources: [])]
            try index.store(bundle)
        }
        try index.updateProblems()
        let reporter = TriageReporter(redactor: Redactor())
        let html = try reporter.html(index)
        let markdown = try reporter.markdown(index)
        try index.close()
        #expect(html.contains("The other 3 sessions are in index.md and triage.json"))
        #expect(html.components(separatedBy: "<td>\(TriageReporter.htmlSessionLimit)</td>").count == 2)
        #expect(!html.contains("<td>\(TriageReporter.htmlSessionLimit + 1)</td>"))
        #expect(markdown.contains("| \(total) | "), "the Markdown lists every session")
        #expect(!markdown.contains("The other"))
    }

    /// A console's "at least" error count and an unended stall's "at least" duration stay lower
    /// bounds through the index: `triage.json` flags the session's KPI and counts them in the
    /// distribution, `index.md` says so beside it. Near miss: counts a source measured whole
    /// (the other bundle) carry no flag.
    @Test func lowerBoundsSurviveTheIndex() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-lower-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let index = try TriageIndex(path: dir.appendingPathComponent("triage.sqlite").path)
        for n in 0..<2 {
            var kpis = KPIs()
            kpis.errorCount = 2
            kpis.stallCount = 1
            kpis.stallDuration = 4
            kpis.errorCountIsLowerBound = n == 0
            kpis.stallDurationIsLowerBound = n == 0
            var bundle = IndexedBundle(name: "b\(n)", file: "b\(n)", contentHash: "h\(n)", analyzer: "x")
            bundle.sessions = [IndexedSession(id: "S\(n)", ordinal: 0, kpis: kpis, sources: [])]
            try index.store(bundle)
        }
        try index.updateProblems()
        var ranked: [String: KPIs] = [:]
        try index.forEachRankedSession { ranked[$0.sessionID] = $0.kpis }
        #expect(ranked["S0"]?.errorCountIsLowerBound == true && ranked["S0"]?.stallDurationIsLowerBound == true)
        #expect(ranked["S1"]?.errorCountIsLowerBound == false && ranked["S1"]?.stallDurationIsLowerBound == false)
        var reporter = TriageReporter(redactor: Redactor())
        try reporter.readSummary(index)
        let markdown = try reporter.markdown(index)
        let json = try reporter.json(index)
        try index.close()
        #expect(markdown.contains("| error_count | 2 (1 of them at least) |"))
        #expect(markdown.contains("| stall_duration | 2 (1 of them at least) |"))
        #expect(markdown.contains("| stall_count | 2 |"))
        #expect(json.components(separatedBy: "\"error_count_is_lower_bound\": true").count == 2)
        #expect(json.components(separatedBy: "\"sessions_lower_bound\": 1").count == 3)
    }

    /// The KPI distributions read in one pass equal those read a column at a time (a count and an
    /// ordered scan each): unknown values left out, integers and reals alike, every percentile.
    @Test func oneScanGivesTheSameDistributionsAsOneQueryPerKPI() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-distributions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let index = try TriageIndex(path: dir.appendingPathComponent("triage.sqlite").path)
        for n in 0..<37 {
            var kpis = KPIs()
            kpis.startupTime = n % 3 == 0 ? nil : Double((n * 7919) % 101) / 10
            kpis.stallCount = n % 5 == 0 ? nil : (n * 31) % 4
            kpis.errorCount = n % 2 == 0 ? 0 : n
            kpis.rebufferRatio = n == 4 ? 0.5 : nil
            var bundle = IndexedBundle(name: "b\(n)", file: "b\(n)", contentHash: "h\(n)", analyzer: "x")
            bundle.sessions = [IndexedSession(id: "S\(n)", ordinal: 0, kpis: kpis, sources: [])]
            try index.store(bundle)
        }
        let percentiles: [Double] = [0, 1, 50, 90, 99, 100]
        let all = try index.distributions(percentiles: percentiles)
        #expect(all.count == TriageIndex.kpiColumns.count)
        for column in TriageIndex.kpiColumns {
            let one = try index.distribution(column, percentiles: percentiles)
            #expect(all[column]?.count == one.count, "\(column)")
            #expect(all[column]?.values == one.values, "\(column)")
        }
        #expect(all["startup_time"]?.count == 24)
        #expect(all["rebuffer_ratio"]?.values == [0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
        #expect(all["stall_duration"]?.count == 0)
        try index.close()
    }
}
