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
}
