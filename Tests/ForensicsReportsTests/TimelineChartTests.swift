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
        #expect(html.contains("content-key fps?token=REDACTED"))
        #expect(!html.contains("eyJhbGciOiJIUzI1NiJ9"), "the token appears nowhere in the page")
    }

    @Test func theSVGAxisCountsSecondsSinceTheSessionBegan() throws {
        let html = HTMLReporter(toolVersion: "t").render(try report("cdn-404-stall"))
        #expect(
            html.components(separatedBy: #"<svg xmlns="http://www.w3.org/2000/svg" class="picture""#).count - 1 == 2)
        #expect(html.contains(">+0 s</text>"))
        #expect(
            html.contains(">+445 s</text>"), "the close-up's ticks are relative to the session start, not the window")
        // The 404 of s74 is a failed bar with its status and exact relative time in a tooltip.
        #expect(html.contains(#"class="req-failed""#))
        #expect(html.contains("<title>segment s74.m4s → HTTP 404 in 0.045 s at +444 s"))
    }

    /// A short session's Mermaid axis counts fractions of a second (every tick read `+0 s`).
    @Test func aShortSessionsMermaidAxisHasFractions() throws {
        let short = Analyzer().analyze(files: [
            ("events.jsonl", Array(TimelineScript.compile(SessionPictureTests.quietScript).utf8))
        ])
        let markdown = MarkdownReporter(toolVersion: "t").render(short)
        #expect(markdown.contains("axisFormat +%s.%L s"))
        let long = MarkdownReporter(toolVersion: "t").render(try report("cdn-404-stall"))
        #expect(long.contains("axisFormat +%s s"))
    }
}
