import Foundation
import Testing

/// `--report html`: one self-contained file (no script, nothing fetched) with the Markdown
/// report's content and its timelines as inline SVG; log text never becomes markup.
@Suite struct HTMLReportTests {
    @Test(arguments: ["cdn-404-stall", "slow-key-startup", "access-error-logs-only", "ktvhttpcache-2x-ijkplayer"])
    func selfContainedWithTheSameFindings(bundle: String) throws {
        let html = try CLIRunner.run(["analyze", "SampleLogs/\(bundle)", "--report", "html"])
        #expect(html.status == 0 || html.status == 2)
        let page = html.stdout
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("src=\"http"))
        #expect(!page.contains("<link"))
        #expect(!page.contains("```"), "a Markdown fence was left unconverted")
        #expect(page.contains("<svg"))
        #expect(page.contains("seconds since the session began"))
        // Every finding title of the Markdown report is in the HTML.
        let markdown = try CLIRunner.run(["analyze", "SampleLogs/\(bundle)"]).stdout
        for line in markdown.split(separator: "\n") where line.hasPrefix("#### ") {
            guard let dash = line.range(of: " — ") else { continue }
            let title = line[dash.upperBound...]
            if title.contains(where: { "\\`*_[]<>&".contains($0) }) { continue }
            #expect(page.contains(title), "\(bundle): '\(title)' missing from the HTML")
        }
    }

    @Test func logTextCannotBecomeMarkup() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let host = #"evil.example\n# ALL CLEAR\n<img src=x onerror=alert(1)><!--<script>alert(2)</script>"#
        let entries = (0..<4).map { i in
            #"{"startedDateTime":"2026-11-21T10:00:0\#(i).000Z","time":50,"request":{"method":"GET","url":"https://\#(host)/v/s\#(i).ts?token=SECRETHTML","headers":[]},"response":{"status":503,"headers":[],"content":{"size":0,"mimeType":"video/mp2t"}}}"#
        }
        try Data(#"{"log":{"version":"1.2","entries":[\#(entries.joined(separator: ","))]}}"#.utf8)
            .write(to: dir.appendingPathComponent("capture.har"))
        let page = try CLIRunner.run(["analyze", dir.path, "--report", "html"]).stdout
        #expect(page.contains("segment-errors"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("<!--"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("SECRETHTML"))
        #expect(!page.contains("<h1>ALL CLEAR") && !page.contains("<h1> ALL CLEAR"))
    }
}
