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
