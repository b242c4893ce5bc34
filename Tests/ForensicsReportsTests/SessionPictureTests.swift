import ForensicsCore
import ForensicsReports
import ForensicsTestSupport
import Foundation
import PlaybackForensics
import Testing

/// The HTML report's session picture: a lane for each thing a player is judged by, a legend of
/// what is drawn, every finding and stall on it, labels as the log wrote them, what no source
/// gives said as unknown, a close-up of each incident, and text that stays readable at any width.
@Suite struct SessionPictureTests {
    /// Two incidents five minutes apart: 404s (one on a percent-encoded name) forcing a
    /// down-switch, then a stall the log never shows ending; a seek and a pause between.
    static let script = """
        0.000 play
        0.020 multivariant https://h.example/master.m3u8 200 0.10
        0.150 playlist https://h.example/v20/index.m3u8 200 0.05
        0.300 segment https://h.example/v20/seg_51.ts 200 0.4 dur=6 bytes=1500000
        0.800 initial-ltku variant=20M media=0 buffer=6
        6.000 segment https://h.example/v20/s2.ts 200 0.4 dur=6 bytes=1500000
        50.00 ltku variant=20M media=49 buffer=30
        100.0 segment https://h.example/v20/m%C3%BCsik.ts 404 0.05 dur=6
        100.5 segment https://h.example/v20/s4.ts 404 0.05 dur=6
        101.0 segment https://h.example/v20/s5.ts 404 0.05 dur=6
        101.5 switch 20M -> 15M media=100 buffer=4
        102.0 segment https://h.example/v15/s4.ts 200 0.4 dur=6 bytes=1100000
        200.0 seek
        201.0 seek-done
        250.0 pause
        260.0 rate 1
        400.0 stall
        600.0 segment https://h.example/v15/s90.ts 200 0.4 dur=6 bytes=1100000
        """

    static func report(_ script: String = SessionPictureTests.script) -> AnalysisReport {
        Analyzer().analyze(files: [("events.jsonl", Array(TimelineScript.compile(script).utf8))])
    }

    /// The `pf-svg` pictures of an HTML report, in order.
    static func pictures(_ html: String) -> [String] {
        html.components(separatedBy: #"<svg xmlns="http://www.w3.org/2000/svg" class="picture""#).dropFirst().map {
            $0.components(separatedBy: "</svg>").first ?? ""
        }
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func everyLaneFindingAndStallIsDrawnWithALegend() throws {
        let report = Self.report()
        let html = HTMLReporter(toolVersion: "t").render(report)
        let session = try #require(report.sessions.first)
        let overview = try #require(Self.pictures(html).first)
        for lane in ["player", "variant", "throughput", "buffer", "requests", "findings"] {
            #expect(overview.contains(#"data-lane="\#(lane)""#), "lane \(lane)")
        }
        // Every timed finding is a row of its own, named by its rule.
        let timed = session.findings.filter { $0.start != nil }
        #expect(timed.count >= 2)
        #expect(Self.count(#"<g class="finding""#, in: overview) == timed.count)
        for f in timed { #expect(overview.contains(#"data-rule="\#(f.ruleID)""#)) }
        // The stall the log never shows ending is a marker with "?", not a bar to the session's end.
        #expect(session.session.analysis.stalls.count == 1)
        #expect(overview.contains(#"<circle class="stalled-open""#))
        #expect(!overview.contains(#"<rect class="stalled""#))
        #expect(overview.contains(">?</text>"))
        // The player's states, the ladder's switch and the requests by outcome.
        for cls in [
            "starting", "playing", "seeking", "paused", "level", "switch-down", "req-ok", "req-failed", "throughput",
        ] {
            #expect(overview.contains(#"class="\#(cls)""#), "\(cls) drawn")
        }
        // The legend (after the picture) names every class drawn.
        let legend = try #require(
            html.components(separatedBy: #"<div class="picture-legend">"#).dropFirst().first?.components(
                separatedBy: "</div>"
            ).first)
        for cls in ["stalled-open", "playing", "switch-down", "req-failed", "sev-warning"] {
            #expect(legend.contains(#"<rect class="\#(cls)""#), "legend for \(cls)")
        }
        #expect(!legend.contains(#"<rect class="failed""#), "nothing failed: not in the legend")
    }

    @Test func aCloseUpOfEachIncidentAndTheOverviewShadesThem() throws {
        let html = HTMLReporter(toolVersion: "t").render(Self.report())
        let pictures = Self.pictures(html)
        #expect(pictures.count == 3, "an overview and two close-ups")
        #expect(html.contains("Close-up 1: 2026-11-21T10:01:25.000Z"))
        #expect(html.contains("Close-up 2: 2026-11-21T10:06:25.000Z"))
        #expect(Self.count(#"<rect class="incident""#, in: pictures.first ?? "") == 2)
        // The first close-up is about the 404s: the down-switch's tooltip is there, the stall is not.
        let first = pictures.count > 1 ? pictures[1] : ""
        #expect(first.contains("switch 20 Mbit/s → 15 Mbit/s at +101.5 s"))
        #expect(!first.contains("stalled-open"))
        #expect((pictures.last ?? "").contains("stalled-open"))
    }

    @Test func labelsReadAsTheLogWroteThem() throws {
        let report = Self.report()
        let html = HTMLReporter(toolVersion: "t").render(report)
        #expect(html.contains("segment seg_51.ts → HTTP 200"), "an underscore is kept")
        #expect(html.contains("segment müsik.ts → HTTP 404"), "a percent-encoded name is decoded")
        let markdown = MarkdownReporter(toolVersion: "t").render(report)
        #expect(markdown.contains("segment seg_51.ts :"))
        #expect(markdown.contains("segment müsik.ts :crit"))
    }

    @Test func textKeepsItsSizeAtAnyWidth() throws {
        let html = HTMLReporter(toolVersion: "t").render(Self.report())
        for picture in Self.pictures(html) {
            #expect(!picture.contains("viewBox"), "a scaled drawing shrinks its text")
            #expect(picture.hasPrefix(#" width="100%""#))
        }
        #expect(html.contains("svg.picture text{fill:#1f2328;font-size:12px}"))
        #expect(!html.contains("NaN") && !html.contains("inf%"))
    }

    /// The buffer as the player's events state it: seconds loaded ahead of the play head.
    @Test func theBufferIsDrawnWhereTheEventsStateIt() throws {
        let report = Self.report()
        let events = try #require(report.sessions.first).session.entries.compactMap(\.record.playerEvent)
        #expect(events.compactMap(\.bufferedAhead) == [6, 30, 4])
        let overview = try #require(Self.pictures(HTMLReporter(toolVersion: "t").render(report)).first)
        #expect(overview.contains("30 s loaded ahead at +50 s"))
        #expect(overview.contains("4 s loaded ahead at +101.5 s"))
        // Near miss: the access and error logs state no buffer; the lane says so.
        let logs = try Analyzer().analyze(
            path: TestPaths.sampleLogs.appendingPathComponent("access-error-logs-only").path)
        let other = try #require(Self.pictures(HTMLReporter(toolVersion: "t").render(logs)).first)
        #expect(other.contains("no source in this bundle logs the buffer level"))
        #expect(!other.contains(#"class="buffer""#))
    }

    /// Near miss: a bundle without the player's events draws no player state it cannot know.
    @Test func aLaneNoSourceFeedsSaysSo() throws {
        let report = try Analyzer().analyze(
            path: TestPaths.sampleLogs.appendingPathComponent("access-error-logs-only").path)
        let html = HTMLReporter(toolVersion: "t").render(report)
        let overview = try #require(Self.pictures(html).first)
        #expect(
            overview.contains("no source in this bundle logs the player&#39;s state")
                || overview.contains("no source in this bundle logs the player's state"))
        #expect(!overview.contains(#"class="playing""#))
        #expect(!overview.contains(#"class="starting""#))
        #expect(overview.contains(#"class="stalled-open""#), "the access log's stall count: time and length unknown")
    }

    /// A short, quiet session: two segments, no finding.
    static let quietScript = """
        0.000 play
        0.020 multivariant https://h.example/master.m3u8 200 0.10
        0.300 segment https://h.example/v20/s1.ts 200 0.4 dur=6 bytes=1500000
        0.800 initial-ltku variant=20M
        6.000 segment https://h.example/v20/s2.ts 200 0.4 dur=6 bytes=1500000
        """

    /// Near miss: a short session without findings gets the overview only.
    @Test func aQuietSessionHasNoCloseUp() throws {
        let html = HTMLReporter(toolVersion: "t").render(Self.report(Self.quietScript))
        #expect(Self.pictures(html).count == 1)
        #expect(!html.contains("Close-up"))
        #expect(!html.contains(#"class="incident""#))
    }

    @Test func aBundleOfSessionsOpensWithThemInATable() throws {
        let report = try Analyzer().analyze(
            path: TestPaths.sampleLogs.appendingPathComponent("three-sessions.tar.gz").path)
        let markdown = MarkdownReporter(toolVersion: "t").render(report)
        let table = try #require(markdown.components(separatedBy: "## Sessions\n").dropFirst().first)
        #expect(
            markdown.range(of: "## Sessions\n").map {
                $0.lowerBound < (markdown.range(of: "## Session `")?.lowerBound ?? $0.lowerBound)
            } == true)
        for id in ["11111111-AAAA-4AAA-8AAA-111111111111", "22222222-BBBB-4BBB-8BBB-222222222222"] {
            #expect(table.contains("[`\(id)`](#session-\(id.lowercased()))"))
        }
        let html = HTMLReporter(toolVersion: "t").render(report)
        #expect(html.contains(#"<h2 id="session-11111111-aaaa-4aaa-8aaa-111111111111">"#))
        #expect(html.contains(##"<a href="#session-11111111-aaaa-4aaa-8aaa-111111111111">"##))
        // One session: no table.
        let one = MarkdownReporter(toolVersion: "t").render(Self.report())
        #expect(!one.contains("## Sessions\n"))
    }

    /// A stall no event shows ending: playing stops at it, and what follows is drawn as not known.
    @Test func playingStopsAtAStallThatNeverEnded() throws {
        let script = """
            0.000 play
            0.300 segment https://h.example/v20/s1.ts 200 0.4 dur=6 bytes=1500000
            0.800 initial-ltku variant=20M
            10.00 stall
            60.00 segment https://h.example/v20/s9.ts 200 0.4 dur=6 bytes=1500000
            """
        let overview = try #require(Self.pictures(HTMLReporter(toolVersion: "t").render(Self.report(script))).first)
        #expect(overview.contains("<title>playing: +0.8 s to +10 s</title>"))
        #expect(overview.contains("stalled at +10 s and no resume logged: what the player did after is not known"))
    }

    /// Hostile sizes and values: thousands of switches and requests, absurd rates, a right-to-left
    /// override in a URL. The picture stays bounded, finite, inert and the same on every render.
    @Test func hostileInputDrawsABoundedInertPicture() throws {
        var lines = ["0.000 play", "0.500 initial-ltku variant=20M"]
        for i in 0..<3000 {
            let t = 1 + Double(i) * 0.2
            lines.append("\(t) switch \(i % 2 == 0 ? "20M" : "1M") -> \(i % 2 == 0 ? "1M" : "20M")")
        }
        for i in 0..<5000 {
            lines.append(
                "\(1 + Double(i) * 0.12) segment https://h.example/v/s\(i).ts \(i % 7 == 0 ? 404 : 200) 0.1 dur=6 bytes=\(i % 3 == 0 ? 99_999_999_999 : 1_000_000)"
            )
        }
        lines.append("700 segment https://h.example/v/%E2%80%AEevil.ts?token=%3DSECRETSECRET 404 0.1 dur=6")
        let report = Self.report(lines.joined(separator: "\n"))
        let html = HTMLReporter(toolVersion: "t").render(report)
        #expect(html == HTMLReporter(toolVersion: "t").render(report), "deterministic")
        let pictures = Self.pictures(html)
        #expect(!pictures.isEmpty)
        for p in pictures {
            #expect(p.utf8.count < 400_000, "bounded: \(p.utf8.count) bytes")
            #expect(Self.count(#"class="level""#, in: p) <= 400)
            #expect(!p.contains("NaN") && !p.contains("inf") && !p.contains("e+"))
        }
        #expect(!html.unicodeScalars.contains("\u{202E}"), "a decoded override is made visible, not obeyed")
        #expect(!html.contains("SECRETSECRET"))
    }

    /// Near miss: ranges that cannot be read are an unknown buffer, not an empty one.
    @Test func unreadableRangesAreNoBufferReading() throws {
        let dump = [
            #"{"type":"AVMetricPlayerItemLikelyToKeepUpEvent","date":"2026-11-21T10:00:01Z","sessionID":"S","mediaTime":5,"loadedTimeRanges":[{"foo":1}]}"#,
            #"{"type":"AVMetricPlayerItemLikelyToKeepUpEvent","date":"2026-11-21T10:00:02Z","sessionID":"S","mediaTime":5,"loadedTimeRanges":[]}"#,
            #"{"type":"AVMetricPlayerItemLikelyToKeepUpEvent","date":"2026-11-21T10:00:03Z","sessionID":"S","mediaTime":5,"loadedTimeRanges":[{"start":{"value":4000,"timescale":1000},"duration":{"value":9000,"timescale":1000}}]}"#,
        ].joined(separator: "\n")
        let report = Analyzer().analyze(files: [("events.jsonl", Array(dump.utf8))])
        let events = try #require(report.sessions.first).session.entries.compactMap(\.record.playerEvent)
        #expect(events.map(\.bufferedAhead) == [nil, 0, 8])
    }

    @Test func anchorsAreGitHubs() {
        #expect(MarkdownAnchor.slug("Session 2D5C8F04-9F34") == "session-2d5c8f04-9f34")
        #expect(MarkdownAnchor.slug("Session a.b|c\"d'e_f") == "session-abcde_f")
        #expect(MarkdownAnchor.slug("Session Müsik") == "session-müsik")
        var used = MarkdownAnchor.Used()
        #expect(
            [used.next("timeline"), used.next("timeline"), used.next("sources")] == [
                "timeline", "timeline-1", "sources",
            ])
    }
}
