import Foundation
import ForensicsCore
import ForensicsReports
import PlaybackForensics
import ForensicsTestSupport
import Testing

/// The picture shows the incident: every failed request and every one a finding relies on is
/// drawn (with a caption when healthy ones are left out), a close-up follows a long session's
/// overview, labels carry no secret, and the HTML's SVG axis counts seconds since the session began.
@Suite struct TimelineChartTests {
    func report(_ bundle: String) throws -> AnalysisReport {
        try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent(bundle).path)
    }

    @Test func theFailedRequestsAndACloseUpAreDrawn() throws {
        let markdown = MarkdownReporter(toolVersion: "t").render(try report("cdn-404-stall"))
        let charts = markdown.components(separatedBy: "```mermaid").dropFirst().map {
            $0.components(separatedBy: "```").first ?? ""
        }
        #expect(charts.count == 2, "an overview and a close-up")
        for chart in charts {
            #expect(chart.contains("segment s74.m4s :crit"), "the 404 on s74 is drawn as failed")
            #expect(chart.contains("segment s75.m4s :crit"))
            #expect(chart.contains("stall :crit"))
            #expect(chart.contains("switch 20 Mbit to 15 Mbit :milestone"), "the down-switch is a mark of its own")
            #expect(chart.contains("segment-404-downswitch :active"))
        }
        #expect(markdown.contains("#### Close-up of the findings"))
    }

    @Test func labelsAreRedacted() throws {
        let markdown = MarkdownReporter(toolVersion: "t").render(try report("slow-key-startup"))
        #expect(markdown.contains("content-key fps token REDACTED"))
        let html = HTMLReporter(toolVersion: "t").render(try report("slow-key-startup"))
        #expect(html.contains("content-key fps token REDACTED"))
    }

    @Test func theSVGAxisCountsSecondsSinceTheSessionBegan() throws {
        let html = HTMLReporter(toolVersion: "t").render(try report("cdn-404-stall"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 2)
        #expect(html.contains(">+0 s</text>"))
        #expect(
            html.contains(">+445 s</text>"), "the close-up's ticks are relative to the session start, not the window")
        // The 404 of s74 is a failed bar with its exact relative times in a tooltip.
        #expect(html.contains(#"class="req-failed""#))
        #expect(html.contains("<title>segment s74.m4s: +444 s → +444.045 s</title>"))
    }
}
