import ForensicsCore
import ForensicsReports
import ForensicsTestSupport
import Foundation
import Testing

@testable import PlaybackForensics

/// The verdict and the key figures tell one story (rules.md: "never 'no problem found' while the
/// KPI table shows stalls or errors"), and a figure no source measured stays unknown. Fixtures are
/// AVMetrics events as `metric-event-dump.md` describes them, an access log and a Cloudflare
/// Logpush row as their vendors document them.
@Suite struct KeyFiguresVerdictTests {
    static let session = "6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10"

    static func event(_ type: String, at time: String, _ fields: String) -> String {
        "{\"type\":\"\(type)\",\"date\":\"2026-11-21T\(time)Z\",\"sessionID\":\"\(session)\"\(fields.isEmpty ? "" : ",")\(fields)}"
    }

    static func segment(_ n: Int, at second: Int) -> String {
        let start = String(format: "10:00:%02d.000", second)
        let end = String(format: "10:00:%02d.200", second)
        return event(
            "AVMetricHLSMediaSegmentRequestEvent", at: end,
            """
            "url":"https://cdn.example.com/a/v1/seg\(n).ts","mediaType":"vide","segmentDuration":6.0,\
            "indexFileURL":"https://cdn.example.com/a/v1/prog.m3u8","mediaResourceRequestEvent":{\
            "url":"https://cdn.example.com/a/v1/seg\(n).ts","requestStartTime":"2026-11-21T\(start)Z",\
            "responseEndTime":"2026-11-21T\(end)Z","readFromCache":false,"networkTransactionMetrics":{\
            "transactionMetrics":[{"response":{"statusCode":200}}]}}
            """)
    }

    static let started = event(
        "AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:00.700",
        "\"timeTaken\":0.68,\"variant\":{\"peakBitRate\":2000000,\"url\":\"https://cdn.example.com/a/v1/prog.m3u8\"}")

    static func summary(stalls: Int, recovering: Double) -> String {
        event(
            "AVMetricPlayerItemPlaybackSummaryEvent", at: "10:05:00.000",
            "\"stallCount\":\(stalls),\"variantSwitchCount\":0,\"playbackDuration\":300,\"timeSpentRecoveringFromStall\":\(recovering),\"timeSpentInInitialStartup\":0.68"
        )
    }

    /// A HAR 1.2 capture (as Charles writes one) of the given entries, joined.
    static func harCapture(_ entries: String) -> [UInt8] {
        Array(#"{"log":{"version":"1.2","creator":{"name":"Charles Proxy","version":"4.6"},"entries":["#.utf8)
            + Array(entries.utf8) + Array("]}}".utf8)
    }

    func analyze(_ lines: [String], name: String = "metrics.jsonl") -> AnalysisReport {
        Analyzer().analyze(files: [(name, Array(lines.joined(separator: "\n").utf8))])
    }

    /// A dump of player events alone: the likely-to-keep-up states the startup (6.5 s) and the
    /// item's rate turns to 1 at that instant (or just before). The startup is the player's 6.5 s
    /// and `slow-startup` fires — never 0 s and "no problem found". Near miss: a request opens
    /// the window, and the window is the startup.
    @Test func thePlayersStartupTimeIsNotARateChangesZero() throws {
        for rateAt in ["10:00:06.500", "10:00:06.495"] {
            let report = analyze([
                Self.event(
                    "AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:06.500",
                    "\"timeTaken\":6.5,\"variant\":{\"peakBitRate\":5000000}"),
                Self.event("AVMetricPlayerItemRateChangeEvent", at: rateAt, "\"rate\":1,\"previousRate\":0"),
            ])
            let session = try #require(report.sessions.first)
            #expect(session.session.kpis.startupTime == 6.5, "\(rateAt)")
            #expect(session.findings.contains { $0.ruleID == "slow-startup" && $0.severity == .error }, "\(rateAt)")
            #expect(report.verdict.status == .problemsFound)
        }
        // A timeTaken no player could report is no startup: unknown, with a warning.
        let absurd = analyze([
            Self.event("AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:06.500", "\"timeTaken\":1e300"),
            Self.event("AVMetricPlayerItemRateChangeEvent", at: "10:00:06.500", "\"rate\":1,\"previousRate\":0"),
        ])
        #expect(absurd.sessions.first?.session.kpis.startupTime.map { $0 < 86_400 } ?? true)
        #expect(absurd.diagnostics.contains { $0.message.contains("timeTaken") && $0.severity == .warning })
        // A play request pressed 3 s before: its window stands, whatever timeTaken counts from
        // (probe L: 6.5 s from a preloaded item's load is not the viewer's wait).
        let pressed = analyze([
            Self.event("AVMetricPlayerItemRateChangeEvent", at: "10:00:03.500", "\"rate\":1,\"previousRate\":0"),
            Self.event(
                "AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:06.500", "\"timeTaken\":6.5"),
        ])
        #expect(pressed.sessions.first?.session.kpis.startupTime == 3)
        // No stated time and an empty window: unknown, and said — never 0 s and no problem.
        let unstated = analyze([
            Self.event("AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:06.500", ""),
            Self.event("AVMetricPlayerItemRateChangeEvent", at: "10:00:06.500", "\"rate\":1,\"previousRate\":0"),
        ])
        #expect(unstated.sessions.first?.session.kpis.startupTime == nil)
        #expect(unstated.verdict.couldNotJudge.contains { $0.contains("startup time could not be judged") })
        let timed = analyze([Self.segment(0, at: 0), Self.started])
        #expect(timed.sessions.first?.session.kpis.startupTime.map { ($0 * 100).rounded() / 100 } == 0.7)
    }

    /// A stall a recorder wrote as its superclass (a rate change 1 → 0, then the player's
    /// likely-to-keep-up 6 s later) is no "no problem found": the stalls could not be judged and
    /// their count is unknown. Near miss: a pause resumed by a rate change back to 1 is a pause.
    /// A module-qualified type (`AVFoundation.AVMetricPlayerItemStallEvent`) is the stall event.
    @Test func stallsWrittenAsRateChangesAreNotJudgedAsNone() throws {
        let drop = Self.event("AVMetricPlayerItemRateChangeEvent", at: "10:00:30.000", "\"rate\":0,\"previousRate\":1")
        let rebuffered = Self.event(
            "AVMetricPlayerItemLikelyToKeepUpEvent", at: "10:00:36.000", "\"timeTaken\":6.0")
        let report = analyze([Self.segment(0, at: 0), Self.started, drop, rebuffered])
        let session = try #require(report.sessions.first)
        #expect(report.verdict.status == .couldNotJudge)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("stalls could not be judged") })
        #expect(session.session.kpis.stallCount == nil)
        let resumed = Self.event(
            "AVMetricPlayerItemRateChangeEvent", at: "10:00:36.000", "\"rate\":1,\"previousRate\":0")
        let paused = analyze([Self.segment(0, at: 0), Self.started, drop, resumed])
        // A pause whose buffer refilled (a likely-to-keep-up) and that the viewer resumed a
        // minute later is a pause (probe L); the player resuming itself at once is a stall's.
        let refilled = Self.event("AVMetricPlayerItemLikelyToKeepUpEvent", at: "10:00:31.000", "\"timeTaken\":1.0")
        let later = Self.event("AVMetricPlayerItemRateChangeEvent", at: "10:01:30.000", "\"rate\":1,\"previousRate\":0")
        let pausedLong = analyze([Self.segment(0, at: 0), Self.started, drop, refilled, later])
        #expect(pausedLong.verdict.status == .noProblemFound)
        let atOnce = Self.event(
            "AVMetricPlayerItemRateChangeEvent", at: "10:00:36.100", "\"rate\":1,\"previousRate\":0")
        let selfResumed = analyze([Self.segment(0, at: 0), Self.started, drop, rebuffered, atOnce])
        #expect(selfResumed.verdict.couldNotJudge.contains { $0.contains("stalls could not be judged") })
        #expect(paused.verdict.status == .noProblemFound)
        #expect(paused.sessions.first?.session.kpis.stallCount == 0)
        // The player's own count stands: a summary saying 0 stalls is no gap (review).
        let counted = analyze([
            Self.segment(0, at: 0), Self.started, drop, rebuffered, Self.summary(stalls: 0, recovering: 0),
        ])
        #expect(counted.sessions.first?.session.kpis.stallCount == 0)
        #expect(!counted.verdict.couldNotJudge.contains { $0.contains("stalls could not be judged") })
        let qualified = Self.event(
            "AVFoundation.AVMetricPlayerItemStallEvent", at: "10:00:30.000", "\"rate\":0,\"previousRate\":1")
        let stalled = analyze([Self.segment(0, at: 0), Self.started, qualified, rebuffered])
        #expect(stalled.sessions.first?.session.kpis.stallCount == 1)
        #expect(stalled.sessions.first?.findings.contains { $0.ruleID == "stall" } == true)
        // A dump whose every type is qualified is recognised as a dump (probe L).
        let allQualified = [Self.segment(0, at: 0), Self.started, qualified, rebuffered].map {
            $0.replacingOccurrences(of: "\"type\":\"AVMetric", with: "\"type\":\"AVFoundation.AVMetric")
        }
        let whole = analyze(allQualified)
        #expect(whole.inputs.first?.format == .metricEvents)
        #expect(whole.sessions.first?.session.kpis.stallCount == 1)
    }

    /// A stall after a seek out of the buffer is explained by its info-level `stall` finding:
    /// the bundle verdict ("no problem found") and the session's agree — no "no rule explains"
    /// beside it (probe K). Near miss: a stall no finding explains still says so.
    @Test func aSeeksStallIsExplainedInBothVerdicts() throws {
        let seek = [
            Self.event("AVMetricPlayerItemSeekEvent", at: "10:00:30.000", "\"rate\":1,\"previousRate\":1"),
            Self.event("AVMetricPlayerItemStallEvent", at: "10:00:30.050", "\"rate\":0,\"previousRate\":1"),
            Self.event(
                "AVMetricPlayerItemSeekDidCompleteEvent", at: "10:00:30.100",
                "\"rate\":0,\"previousRate\":1,\"didSeekInBuffer\":false"),
            Self.event("AVMetricPlayerItemLikelyToKeepUpEvent", at: "10:00:31.500", "\"timeTaken\":1.4"),
        ]
        let report = analyze([Self.segment(0, at: 0), Self.started] + seek)
        #expect(report.verdict.status == .noProblemFound)
        let text = markdown(report)
        #expect(!text.contains("No rule explains"))
        // Probe N: the wait the seek asked for is no stall and no rebuffering, so the key
        // figures agree with "no problem found"; it is listed apart.
        let kpis = try #require(report.sessions.first?.session.kpis)
        #expect(kpis.stallCount == 0 && kpis.seekWaitCount == 1 && kpis.rebufferRatio == 0, "\(kpis)")
        #expect(text.contains("| Waits after a seek (not stalls) | 1 (1.45 s) |"), "\(text)")
        #expect(text.contains("after a seek outside the buffer — cause: seek (not counted as a stall)"))
        // The chart tells the same story: a wait after a seek, not a critical stall bar.
        #expect(text.contains("wait after a seek :active") && !text.contains("stall :crit"), "\(text)")
        let page = HTMLReporter(toolVersion: "test").render(report)
        #expect(page.contains("waiting after a seek") && !page.contains(">stalled "))
        // Near miss: a seek the player completed inside the buffer explains no stall after it.
        let inBuffer = [
            Self.event("AVMetricPlayerItemSeekEvent", at: "10:00:30.000", "\"rate\":1,\"previousRate\":1"),
            Self.event(
                "AVMetricPlayerItemSeekDidCompleteEvent", at: "10:00:30.100",
                "\"rate\":1,\"previousRate\":1,\"didSeekInBuffer\":true"),
            Self.event("AVMetricPlayerItemStallEvent", at: "10:00:30.200", "\"rate\":0,\"previousRate\":1"),
            Self.event("AVMetricPlayerItemLikelyToKeepUpEvent", at: "10:00:36.600", "\"timeTaken\":6.4"),
        ]
        let stalled = analyze([Self.segment(0, at: 0), Self.started] + inBuffer)
        #expect(stalled.verdict.status != .noProblemFound)
        #expect(stalled.sessions.first?.session.kpis.stallCount == 1)
        #expect(stalled.sessions.first?.findings.contains { $0.ruleID == "stall" && $0.cause != "seek" } == true)
    }

    /// A summary's impossible values (a negative duration, a bit rate of 1e300) are unknown with
    /// a warning, not a playing time of -5 s and a rebuffer ratio of 600 % (probe K). Near miss:
    /// the summary's sound values are read.
    @Test func impossibleSummaryValuesAreUnknown() throws {
        let bad = Self.event(
            "AVMetricPlayerItemPlaybackSummaryEvent", at: "10:05:00.000",
            "\"stallCount\":1,\"playbackDuration\":-5,\"timeSpentRecoveringFromStall\":30,\"timeWeightedAverageBitrate\":1e300,\"variantSwitchCount\":2"
        )
        let report = analyze([Self.segment(0, at: 0), Self.started, bad])
        let k = try #require(report.sessions.first?.session.kpis)
        #expect(k.timeWeightedAverageBitrate.map { $0 < 1e12 } ?? true)
        #expect(k.playingTime.map { $0 >= 0 } ?? true)
        #expect(k.rebufferRatio.map { $0 <= 1 } ?? true)
        #expect(k.variantSwitchCount == 2)
        #expect(report.diagnostics.contains { $0.severity == .warning && $0.message.contains("playbackDuration -5") })
        let sound = analyze([Self.segment(0, at: 0), Self.started, Self.summary(stalls: 0, recovering: 0)])
        #expect(!sound.diagnostics.contains { $0.message.contains("out of range") })
    }

    /// `missing-session-key` is a warning only when the key wait lengthened a startup of more
    /// than 1 s (rules.md); a 50 ms key in a 0.6 s startup is info (probe L).
    @Test func aFastKeyInAShortStartupIsInfo() throws {
        func key(at start: String, end: String) -> String {
            Self.event(
                "AVMetricContentKeyRequestEvent", at: end,
                "\"contentKeySpecifier\":{\"keySystem\":\"FairPlayStreaming\",\"identifier\":\"skd://key-42\"},\"mediaResourceRequestEvent\":{\"url\":\"https://keys.example.com/fps\",\"requestStartTime\":\"2026-11-21T\(start)Z\",\"responseEndTime\":\"2026-11-21T\(end)Z\"}"
            )
        }
        let master = Self.event(
            "AVMetricHLSPlaylistRequestEvent", at: "10:00:00.100",
            "\"url\":\"https://cdn.example.com/a/master.m3u8\",\"isMultivariantPlaylist\":true,\"mediaResourceRequestEvent\":{\"url\":\"https://cdn.example.com/a/master.m3u8\",\"requestStartTime\":\"2026-11-21T10:00:00.000Z\",\"responseEndTime\":\"2026-11-21T10:00:00.100Z\"}"
        )
        let playlist = Array(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000\nv1/prog.m3u8\n".utf8)
        func severity(_ lines: [String]) -> Severity? {
            let report = Analyzer().analyze(files: [
                ("metrics.jsonl", Array(lines.joined(separator: "\n").utf8)), ("master.m3u8", playlist),
            ])
            return report.sessions.flatMap(\.findings).first { $0.ruleID == "missing-session-key" }?.severity
        }
        let ready = Self.event(
            "AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:00.600", "\"timeTaken\":0.6")
        #expect(severity([master, key(at: "10:00:00.150", end: "10:00:00.200"), ready]) == .info)
        let late = Self.event(
            "AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:02.600", "\"timeTaken\":2.6")
        #expect(severity([master, key(at: "10:00:00.150", end: "10:00:01.700"), late]) == .warning)
    }

    /// One initial likely-to-keep-up logged twice (the same instant) is one player item, no
    /// "several items" caveat; two a minute apart are two (review of probe L's fix).
    @Test func aRepeatedReadyEventIsOneItem() {
        let twice = analyze([Self.segment(0, at: 0), Self.started, Self.started])
        #expect(!twice.verdict.couldNotJudge.contains { $0.contains("player items") })
        let second = Self.event(
            "AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:01:40.000", "\"timeTaken\":0.8")
        let two = analyze([Self.segment(0, at: 0), Self.started, second])
        #expect(two.verdict.couldNotJudge.contains { $0.contains("holds 2 player items") })
    }

    /// Stalls only the player's summary counts (no stall event times them): a `stall` finding
    /// with their count and time, no all-clear. Near miss: a summary of no stalls is an all-clear.
    @Test func stallsASummaryCountsAreNoAllClear() throws {
        let report = analyze([Self.segment(0, at: 0), Self.started, Self.summary(stalls: 3, recovering: 12.5)])
        let session = try #require(report.sessions.first)
        #expect(session.session.kpis.stallCount == 3)
        #expect(report.verdict.status == .problemsFound)
        let stall = try #require(session.findings.first { $0.ruleID == "stall" })
        #expect(stall.title.contains("3 times, 12.5 s in all, as the player's playback summary counts them"))

        let clean = analyze([Self.segment(0, at: 0), Self.started, Self.summary(stalls: 0, recovering: 0)])
        #expect(clean.sessions.first?.session.kpis.stallCount == 0)
        #expect(clean.verdict.status == .noProblemFound)
    }

    /// An error the player recovered from shows in the key figures: no all-clear beside it.
    @Test func anErrorThePlayerRecoveredFromIsNoAllClear() {
        let recovered = Self.event(
            "AVMetricErrorEvent", at: "10:00:10.000",
            "\"didRecover\":true,\"error\":{\"domain\":\"CoreMediaErrorDomain\",\"code\":-12938,\"localizedDescription\":\"HTTP 404: File Not Found\"}"
        )
        let report = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), recovered])
        #expect(report.sessions.first?.session.kpis.errorCount == 1)
        #expect(report.verdict.status != .noProblemFound)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("1 error that no finding") })
    }

    /// A dump of requests alone (an app records the event types it chooses) cannot say the
    /// player never stalled: stalls and fatal errors unknown, not 0. Nor can one whose only player
    /// event is the initial likely-to-keep-up. Near miss: a rate change shows the events that
    /// start and end stalls were recorded, and the silence about stalls then counts.
    @Test func aDumpOfRequestsAloneCannotClearStalls() throws {
        let report = analyze((0..<5).map { Self.segment($0, at: $0 * 6) })
        let kpis = try #require(report.sessions.first?.session.kpis)
        #expect(kpis.stallCount == nil)
        #expect(kpis.fatalError == nil)
        #expect(report.verdict.status == .couldNotJudge)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("holds no event of the player's own") })

        // The initial likely-to-keep-up alone (an app that measures startup) shows startup, not
        // that stalls were recorded (probe D, D9).
        let startupOnly = analyze([Self.started] + (0..<5).map { Self.segment($0, at: $0 * 6) })
        #expect(startupOnly.sessions.first?.session.kpis.startupTime != nil)
        #expect(startupOnly.sessions.first?.session.kpis.stallCount == nil)
        #expect(
            startupOnly.verdict.couldNotJudge.contains { $0.contains("holds no event that starts or ends a stall") })

        let rate = Self.event("AVMetricPlayerItemRateChangeEvent", at: "10:00:00.710", "\"rate\":1,\"previousRate\":0")
        let played = analyze([Self.started, rate] + (0..<5).map { Self.segment($0, at: $0 * 6) })
        #expect(played.sessions.first?.session.kpis.stallCount == 0)
        #expect(played.verdict.status == .noProblemFound)
    }

    /// A stall the dump ends in never recovered: its duration is unknown, not 0 s, and so is the
    /// rebuffering ratio. Near miss: a stall that recovered is timed.
    @Test func aStallThatNeverEndedIsBoundedOrUnknown() throws {
        let stall = Self.event("AVMetricPlayerItemStallEvent", at: "10:00:30.000", "\"rate\":0,\"previousRate\":1")
        let report = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), stall])
        let kpis = try #require(report.sessions.first?.session.kpis)
        #expect(kpis.stallCount == 1)
        #expect(kpis.stallDuration == nil)
        #expect(kpis.rebufferRatio == nil)

        let resumed = Self.event(
            "AVMetricPlayerItemLikelyToKeepUpEvent", at: "10:00:34.000",
            "\"variant\":{\"peakBitRate\":2000000,\"url\":\"https://cdn.example.com/a/v1/prog.m3u8\"}")
        let timed = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), stall, resumed])
        #expect(timed.sessions.first?.session.kpis.stallDuration == 4)
        #expect(timed.sessions.first?.session.kpis.stallDurationIsLowerBound == false)

        // Records after a stall that never ended bound it from below: at least that long, and
        // said so (JSON and the key figures), so the worst sessions are not left out of fleet
        // figures.
        let later = Self.segment(7, at: 40)
        let bounded = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), stall, later])
        let k = try #require(bounded.sessions.first?.session.kpis)
        #expect(abs((k.stallDuration ?? 0) - 10.2) < 0.001)
        #expect(k.stallDurationIsLowerBound)
        #expect(ReportRenderer().render(bounded, as: .json).contains("\"stall_duration_is_lower_bound\": true"))
        #expect(ReportRenderer().render(bounded, as: .markdown).contains("| Stalls | 1 (at least 10.2 s) |"))
    }

    /// A CDN log alone holds other viewers' rows and never a playback: nothing playback-related
    /// was read (not "no problem found", whatever its 503s).
    @Test func serverLogsAloneAreNothingRead() {
        let row =
            #"{"ClientIP":"198.51.100.4","ClientRequestHost":"cdn.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/a/v1/seg1.ts","EdgeStartTimestamp":1795255201000000000,"EdgeEndTimestamp":1795255201500000000,"EdgeResponseStatus":503,"CacheCacheStatus":"miss","EdgeColoCode":"FRA","RayID":"7f00000000000001","ClientRequestUserAgent":"AppleCoreMedia/1.0.0.22B83"}"#
        let report = analyze([row, row.replacingOccurrences(of: "0001\"", with: "0002\"")], name: "http_requests.json")
        #expect(report.sessions.isEmpty)
        #expect(report.inputs.first?.records ?? 0 > 0, "the rows were read as a server log")
        #expect(report.verdict.status == .nothingRead)
        #expect(report.verdict.couldNotJudge.first?.contains("--cdn-logs") == true)
    }

    /// A summary whose error ended playback: `playback-failed`, and the figures agree with it
    /// (a fatal error, and at least one error). Near miss: a summary with no error.
    @Test func aFailedPlaybackIsAnErrorInTheFigures() throws {
        let failed = Self.event(
            "AVMetricPlayerItemPlaybackSummaryEvent", at: "10:05:00.000",
            "\"stallCount\":0,\"playbackDuration\":300,\"errorEvent\":{\"didRecover\":false,\"error\":{\"domain\":\"CoreMediaErrorDomain\",\"code\":-12938,\"localizedDescription\":\"HTTP 404: File Not Found\"}}"
        )
        let report = analyze([Self.segment(0, at: 0), Self.started, failed])
        let result = try #require(report.sessions.first)
        #expect(result.findings.contains { $0.ruleID == "playback-failed" })
        #expect(result.session.kpis.fatalError == true)
        #expect((result.session.kpis.errorCount ?? 0) >= 1)

        let clean = analyze([Self.segment(0, at: 0), Self.started, Self.summary(stalls: 0, recovering: 0)])
        #expect(clean.sessions.first?.session.kpis.fatalError == false)
    }

    /// A stall event written without its `date` sits at the time of the event before it: said,
    /// and its duration is unknown (not the gap to the next event). Near miss: with its date, the
    /// stall is timed.
    @Test func aStallWithoutADateHasNoDuration() throws {
        let undated =
            #"{"type":"AVMetricPlayerItemStallEvent","sessionID":"\#(Self.session)","rate":0,"previousRate":1}"#
        let resumed = Self.event(
            "AVMetricPlayerItemLikelyToKeepUpEvent", at: "10:00:34.000",
            "\"variant\":{\"peakBitRate\":2000000,\"url\":\"https://cdn.example.com/a/v1/prog.m3u8\"}")
        let report = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), undated, resumed])
        #expect(report.diagnostics.contains { $0.severity == .warning && $0.message.contains("no date") })
        let result = try #require(report.sessions.first)
        #expect(result.session.kpis.stallCount == 1)
        #expect(result.session.kpis.stallDuration == nil)
        #expect(result.findings.contains { $0.ruleID == "stall" && $0.title.contains("how long is unknown") })
        #expect(report.verdict.status != .noProblemFound)
    }

    /// HAR's status 0 (no response: blocked, aborted, timed out) is named so in a finding's
    /// title, not "HAR 0". Near miss: a 503 keeps its status.
    @Test func aRequestWithNoResponseIsNamedSo() throws {
        func entry(_ n: Int, status: Int) -> String {
            """
            {"startedDateTime":"2026-11-21T10:00:0\(n).000Z","time":200,"request":{"method":"GET",\
            "url":"https://cdn.example.com/a/v1/seg\(n).ts","headers":[]},"response":{"status":\(status),\
            "headers":[],"content":{"size":0,"mimeType":"video/mp2t"}},"timings":{"wait":100,"receive":100}}
            """
        }
        func har(_ status: Int) -> [UInt8] {
            let entries = (1...3).map { entry($0, status: status) }.joined(separator: ",")
            return Array(
                #"{"log":{"version":"1.2","creator":{"name":"Charles Proxy","version":"4.6"},"entries":["#.utf8)
                + Array(entries.utf8) + Array("]}}".utf8)
        }
        let none = Analyzer().analyze(files: [("capture.har", har(0))])
        let titles = none.sessions.flatMap(\.findings).map(\.title)
        #expect(titles.contains { $0.contains("failed with no response") }, "\(titles)")
        #expect(!titles.contains { $0.contains("HAR 0") })
        let unavailable = Analyzer().analyze(files: [("capture.har", har(503))])
        #expect(unavailable.sessions.flatMap(\.findings).contains { $0.title.contains("failed with HTTP 503") })
        // Probe P: a browser's reason written on the entry (not in the response) is kept.
        let reset = Array(
            String(decoding: har(0), as: UTF8.self).replacingOccurrences(
                of: #""timings":"#, with: #""_error":"net::ERR_CONNECTION_RESET","timings":"#
            ).utf8)
        let summaries = try #require(Analyzer().analyze(files: [("capture.har", reset)]).sessions.first).session
            .entries.map(\.record.summary)
        #expect(summaries.contains { $0.contains("net::ERR_CONNECTION_RESET") }, "\(summaries)")
    }

    /// Probe P: a HAR entry whose startedDateTime does not read keeps no time (it borrowed the
    /// entry before it, and a finding cited it there). Near miss: its dated neighbours keep theirs.
    @Test func anUndatedRequestBorrowsNoTime() throws {
        func entry(_ n: Int, date: String) -> String {
            """
            {"startedDateTime":"\(date)","time":200,"request":{"method":"GET",\
            "url":"https://cdn.example.com/a/v1/seg\(n).ts","headers":[]},"response":{"status":404,\
            "headers":[],"content":{"size":0,"mimeType":"video/mp2t"}},"timings":{"wait":100,"receive":100}}
            """
        }
        let entries = [
            entry(1, date: "2026-11-21T10:00:01.000Z"), entry(2, date: "not a date"),
            entry(3, date: "2026-11-21T10:00:20.000Z"),
        ].joined(separator: ",")
        let report = Analyzer().analyze(files: [("capture.har", Self.harCapture(entries))])
        let session = try #require(report.sessions.first).session
        let times = session.entries.compactMap { e in e.record.request.map { ($0.url, e.time) } }
        #expect(times.first { $0.0.hasSuffix("seg2.ts") }?.1 == nil, "\(times)")
        #expect(times.filter { $0.1 != nil }.count == 2)
    }

    /// Probe P: a proxy log from 2018 (another app, another stream) beside today's dump is
    /// another playback, a session of its own — not one session running from 2018 to 2026 with
    /// the old log's errors. Near miss: a proxy log the same day as the dump stays in its session.
    @Test func aProxyLogYearsAwayIsAnotherPlayback() throws {
        let old = try Array(
            Data(contentsOf: TestPaths.corpus.appendingPathComponent("ktvhttpcache/issue63-console-error-1.1.0.log")))
        let dump = Array([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6)].joined(separator: "\n").utf8)
        let report = Analyzer().analyze(files: [("metrics.jsonl", dump), ("KTVHTTPCache.log", old)])
        #expect(report.sessions.count == 2, "\(report.sessions.map(\.session.id))")
        let today = try #require(report.sessions.first { $0.session.id == Self.session })
        #expect(today.session.sources == [.metricEvents])
        #expect(today.session.kpis.errorCount == 0)
        let sameDay = """
            2026-11-21 10:00:02 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
            2026-11-21 10:00:03 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
            URL : https://cdn.example.com/a/v1/seg1.ts
            """
        // Probe Q: beside two named sessions the old log is a third, not dropped as fitting none.
        let second = [Self.segment(0, at: 600), Self.segment(1, at: 606)].map {
            $0.replacingOccurrences(of: Self.session, with: "BBBBBBBB-5A8E-4E0B-9E53-2F1C8B7A9D10")
        }
        let two = Array(
            ([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6)] + second).joined(separator: "\n").utf8)
        let three = Analyzer().analyze(files: [("metrics.jsonl", two), ("KTVHTTPCache.log", old)])
        #expect(three.sessions.count == 3, "\(three.sessions.map(\.session.id))")
        #expect(three.sessions.contains { $0.session.sources == [.cacheLog] })
        let together = Analyzer().analyze(files: [("metrics.jsonl", dump), ("KTVHTTPCache.log", Array(sameDay.utf8))])
        #expect(together.sessions.count == 1)
        #expect(together.sessions.first?.session.sources.contains(.cacheLog) == true)
    }

    /// Probe P: a web page and its API calls are no playback, whatever user agent the capture
    /// shows: their 500s are not the session's errors, and they do not start it an hour early.
    /// Near miss: an extensionless request under the player's agent with a media type stays.
    @Test func webContentIsNoPlaybackWhateverItsAgent() throws {
        func entry(_ at: String, _ url: String, _ status: Int, _ type: String) -> String {
            """
            {"startedDateTime":"2026-11-21T\(at)Z","time":100,"request":{"method":"GET","url":"\(url)",\
            "headers":[{"name":"User-Agent","value":"AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X)"}]},\
            "response":{"status":\(status),"headers":[],"content":{"size":10,"mimeType":"\(type)"}},\
            "timings":{"wait":50,"receive":50}}
            """
        }
        let entries = [
            entry("09:00:00.000", "https://www.example.com/index.html", 200, "text/html"),
            entry("09:00:01.000", "https://www.example.com/api/profile", 500, "application/json"),
            entry("10:00:00.000", "https://cdn.example.com/a/master.m3u8", 200, "application/vnd.apple.mpegurl"),
            entry("10:00:00.500", "https://cdn.example.com/a/v1/seg1.ts", 200, "video/mp2t"),
            entry("10:00:01.000", "https://cdn.example.com/a/v1/chunk", 200, "video/mp4"),
            // Probe Q: the stream's host answering a segment with an HTML error page is the
            // stream's failure, kept.
            entry("10:00:02.000", "https://cdn.example.com/a/v1/chunk2", 404, "text/html; charset=utf-8"),
        ].joined(separator: ",")
        let report = Analyzer().analyze(files: [("capture.har", Self.harCapture(entries))])
        let session = try #require(report.sessions.first).session
        #expect(session.start == TimestampParser.parse("2026-11-21T10:00:00Z"))
        #expect(session.kpis.errorCount == 1)
        #expect(session.entries.contains { $0.record.request?.url.hasSuffix("/chunk") == true })
        #expect(session.entries.contains { $0.record.request?.url.hasSuffix("/chunk2") == true })
    }

    /// The summary's count of errors the player recovered from stands when the dump kept no
    /// error event (probe A: "0 errors" beside `recoverableErrorCount` 4). Near miss: with more
    /// errors on the timeline than the summary counts, the timeline's count stands — never both.
    @Test func theSummarysErrorCountStandsWhenTheTimelineShowsFewer() throws {
        let summary = Self.event(
            "AVMetricPlayerItemPlaybackSummaryEvent", at: "10:05:00.000",
            "\"stallCount\":0,\"playbackDuration\":300,\"recoverableErrorCount\":4")
        let report = analyze([Self.segment(0, at: 0), Self.started, summary])
        let kpis = try #require(report.sessions.first?.session.kpis)
        #expect(kpis.errorCount == 4)
        #expect(kpis.provenance[.errorCount] == .summaryEvent)

        let recovered = (0..<6).map { n in
            Self.event(
                "AVMetricErrorEvent", at: "10:00:1\(n).000",
                "\"didRecover\":true,\"error\":{\"domain\":\"NSURLErrorDomain\",\"code\":-1001,\"localizedDescription\":\"timed out \(n)\"}"
            )
        }
        let more = analyze([Self.segment(0, at: 0), Self.started] + recovered + [summary])
        let moreKPIs = try #require(more.sessions.first?.session.kpis)
        #expect(moreKPIs.errorCount == 6)
        #expect(moreKPIs.provenance[.errorCount] == .timeline)
    }

    /// An event of a type this tool does not know says nothing of playback: trailing one does not
    /// stretch the time played (probe A). Near miss: a known event there does.
    @Test func anUnknownTrailingEventDoesNotStretchPlayingTime() throws {
        let unknown = Self.event("AVMetricPlayerItemFutureEvent", at: "10:00:30.000", "")
        let report = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), unknown])
        let playing = try #require(report.sessions.first?.session.kpis.playingTime)
        #expect(playing < 6, "\(playing)")
        let known = Self.segment(2, at: 30)
        let longer = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), known])
        #expect((longer.sessions.first?.session.kpis.playingTime ?? 0) > 29)
    }

    static let stallAt30 = event("AVMetricPlayerItemStallEvent", at: "10:00:30.000", "\"rate\":0,\"previousRate\":1")
    static let resumedAt34 = event(
        "AVMetricPlayerItemLikelyToKeepUpEvent", at: "10:00:34.000",
        "\"variant\":{\"peakBitRate\":2000000,\"url\":\"https://cdn.example.com/a/v1/prog.m3u8\"}")

    /// Review: narrowing hides findings, not what they explained. A stall explained by a warning
    /// finding, narrowed away by `--since` or `--min-severity`, is not "a stall no finding
    /// explains".
    @Test func narrowingDoesNotMakeAnExplainedStallUnexplained() throws {
        let report = analyze([
            Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), Self.stallAt30, Self.resumedAt34,
        ])
        #expect(report.sessions.first?.findings.contains { $0.ruleID == "stall" && $0.severity == .warning } == true)
        let later = ReportNarrowing(since: TimestampParser.parse("2026-11-21T10:00:40Z")).apply(report)
        #expect(!later.verdict.couldNotJudge.contains { $0.contains("no finding explains") }, "\(later.verdict)")
        let errorsOnly = ReportNarrowing(minimumSeverity: .error).apply(report)
        #expect(!errorsOnly.verdict.couldNotJudge.contains { $0.contains("no finding explains") })
        // Probe D: a display filter changes what is shown, not what was found — the stall's
        // warning still makes the verdict "problems found" (and agrees with --fail-on's exit 2).
        let earlier = ReportNarrowing(until: TimestampParser.parse("2026-11-21T10:00:20Z")).apply(report)
        #expect(earlier.sessions.count == 1 && earlier.sessions.first?.findings.isEmpty == true)
        #expect(earlier.verdict.status == .problemsFound)
        #expect(errorsOnly.verdict.status == .problemsFound)
        #expect(errorsOnly.worstSeverity == .warning)
        // Probe E: the session's own verdict says its findings are hidden, not unexplained.
        let text = markdown(errorsOnly)
        #expect(
            text.contains(
                "No finding shown here: the filters asked for hide this session's findings (the worst hidden: warning)")
        )
        #expect(!text.contains("No rule explains"))
        #expect(!markdown(report).contains("No finding shown here"))
    }

    /// Probe D: device local times of an unknown zone cannot be compared with a UTC window: the
    /// session is shown whole, and the verdict says why, instead of being dropped as if its
    /// local times were UTC. Near miss: a UTC session outside the window is left out.
    @Test func aWindowCannotPlaceALocalTimeSession() throws {
        let access = """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
            #Date: 2026/11/21 10:05:00.000
            #Fields: date time uri cs-guid s-ip c-start-time c-duration-watched c-stalls sc-indicated-bitrate c-startup-time
            2026/11/21 10:05:02.000 https://cdn.example.com/a/v1/prog.m3u8 AB12CD34-1111-2222-3333-444455556666 203.0.113.7 0 170 2 2000000 1.0

            """
        let report = Analyzer().analyze(files: [("access.log", Array(access.utf8))])
        let window = ReportNarrowing(until: TimestampParser.parse("2026-11-21T10:03:00Z")).apply(report)
        #expect(window.sessions.count == 1)
        #expect(window.verdict.couldNotJudge.contains { $0.contains("cannot place them") })
        let utc = analyze([Self.segment(0, at: 0), Self.started])
        #expect(ReportNarrowing(until: TimestampParser.parse("2026-11-21T09:00:00Z")).apply(utc).sessions.isEmpty)
    }

    /// Review: a stall right after a seek is expected (an info finding): explained, so the
    /// verdict is an all-clear, not "could not judge".
    @Test func aStallAfterASeekIsExplained() throws {
        let seek = Self.event("AVMetricPlayerItemSeekEvent", at: "10:00:29.500", "")
        let report = analyze([
            Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), seek, Self.stallAt30, Self.resumedAt34,
        ])
        let findings = try #require(report.sessions.first?.findings)
        #expect(findings.contains { $0.ruleID == "stall" && $0.severity == .info })
        #expect(!report.verdict.couldNotJudge.contains { $0.contains("no finding explains") }, "\(report.verdict)")
    }

    /// Review: what one session cannot show is not said of another: narrowed to the clean
    /// session, a requests-only dump's gap is gone. Many sessions with the same gap share one
    /// reason.
    @Test func aSessionsGapsStayWithIt() throws {
        let other = "AAAAAAAA-5A8E-4E0B-9E53-2F1C8B7A9D10"
        let requestsOnly = (0..<3).map {
            Self.segment($0, at: $0 * 6).replacingOccurrences(of: Self.session, with: other)
        }
        let clean = [Self.segment(0, at: 0), Self.started, Self.summary(stalls: 0, recovering: 0)]
        let report = Analyzer().analyze(files: [
            ("a/metrics.jsonl", Array(clean.joined(separator: "\n").utf8)),
            ("b/metrics.jsonl", Array(requestsOnly.joined(separator: "\n").utf8)),
        ])
        #expect(report.sessions.count == 2)
        #expect(report.verdict.couldNotJudge.contains { $0.contains(other) })
        let narrowed = ReportNarrowing(sessionPrefix: "6C1D").apply(report)
        #expect(narrowed.verdict.status == .noProblemFound, "\(narrowed.verdict)")
        // Probe E: the selection's all-clear says it is the selection's, and what was left out.
        let scope = try #require(narrowed.narrowedAway)
        #expect(
            scope.contains(
                "narrowed to 1 of the bundle's 2 sessions (session 6C1D…): 1 left out, 1 of them with findings or gaps")
        )
        #expect(markdown(narrowed).contains("**Scope:** narrowed to 1 of"))
        // Near miss: narrowed to the session with the gap, the clean one left out is no warning.
        let other1 = ReportNarrowing(sessionPrefix: "AAAA").apply(report)
        #expect(other1.narrowedAway?.contains("none of them with a finding") == true)

        var many: [String] = []
        for n in 0..<5 {
            let id = "BBBBBBB\(n)-5A8E-4E0B-9E53-2F1C8B7A9D10"
            many += (0..<2).map { Self.segment($0, at: $0 * 6).replacingOccurrences(of: Self.session, with: id) }
        }
        let fleet = analyze(many)
        let reasons = fleet.verdict.couldNotJudge.filter { $0.contains("holds no event of the player's own") }
        #expect(reasons.count == 1)
        #expect(reasons.first?.contains("and 2 more") == true)
    }

    /// Stop 47: a severity floor or a time window that keeps every session but hides findings
    /// still says the verdict is the selection's (JSON `verdict.scope`). Near miss: a floor that
    /// hides nothing adds no scope.
    @Test func hiddenFindingsInKeptSessionsGiveAScope() throws {
        let report = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), Self.stallAt30])
        let worst = try #require(report.sessions.first?.findings.map(\.severity).max())
        let floor: Severity = worst == .error ? .critical : (worst == .warning ? .error : .warning)
        let narrowed = ReportNarrowing(minimumSeverity: floor).apply(report)
        let scope = try #require(narrowed.narrowedAway)
        #expect(scope.contains("findings at \(floor.rawValue) or above"), "\(scope)")
        #expect(scope.contains("left out, worst \(worst.rawValue)"), "\(scope)")
        #expect(markdown(narrowed).contains("**Scope:** narrowed (findings at"))
        // Probe M: the session's findings section says they are hidden, not "No findings".
        #expect(markdown(narrowed).contains("No finding shown: the filters asked for hide this session's findings"))
        #expect(!markdown(narrowed).contains("No findings."))
        // Probe N: "problems found" beside no finding shown says where the worst is.
        #expect(markdown(narrowed).contains("in findings the filters hide"))
        #expect(!markdown(report).contains("in findings the filters hide"))
        #expect(ReportNarrowing(minimumSeverity: .info).apply(report).narrowedAway == nil)
    }

    /// Probe M: a file named like a credential (`session_token.jsonl`, `passwd.jsonl`) keeps its
    /// line numbers in every citation — evidence, timeline, trace, parse and the verdict's
    /// reasons — where the joined `file:line` was read as `name: secret`. Near miss: a secret in
    /// the path itself is still redacted.
    @Test func fileNamesLikeCredentialsKeepTheirLines() throws {
        let lines = [Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), Self.stallAt30]
        for name in ["session_token.jsonl", "passwd.jsonl", "apikey.jsonl"] {
            let report = analyze(lines, name: name)
            let text = markdown(report)
            #expect(!text.contains(name + ":REDACTED"), "\(name)")
            #expect(text.contains("`\(name):4`"), "\(name)")
            let timeline = TimelineReporter(redactor: Redactor()).text(report.sessions.map(\.session))
            #expect(timeline.contains("\(name):1") && !timeline.contains("REDACTED"), "\(timeline)")
        }
        #expect(Redactor().redact(SourceLocation(file: "b/passwd.log", line: 7)) == "b/passwd.log:7")
        // Line 0 is the whole file: cited without a line that does not exist.
        #expect(Redactor().redact(SourceLocation(file: "b/README.md", line: 0)) == "b/README.md")
        #expect(Redactor().redact(SourceLocation(file: "x/token/abc123/m.jsonl", line: 2)).hasSuffix("/m.jsonl:2"))
        #expect(!Redactor().redact(SourceLocation(file: "x/token/abc123/m.jsonl", line: 2)).contains("abc123"))
        // The nested record of `timeline --json` redacts its path as the entry does (review).
        let nested = analyze(lines, name: "x/token/abc123/m.jsonl")
        let json = TimelineReporter(redactor: Redactor()).json(nested.sessions.map(\.session))
        #expect(json.contains("m.jsonl") && !json.contains("abc123"))
    }

    /// Probe N: a variant's bit rate of 1e300 (or -1) is no rate a player chose: unknown, with a
    /// warning at its line, not a time-weighted bitrate of 6.5e293 Mbit/s. Near miss: 2 Mbit/s is read.
    @Test func impossibleVariantRatesAreUnknown() throws {
        let odd = Self.event(
            "AVMetricPlayerItemInitialLikelyToKeepUpEvent", at: "10:00:00.700",
            "\"timeTaken\":0.68,\"variant\":{\"peakBitRate\":1e300,\"averageBitRate\":-1,\"url\":\"https://cdn.example.com/a/v1/prog.m3u8\"}"
        )
        let report = analyze([Self.segment(0, at: 0), odd, Self.segment(1, at: 6)])
        let kpis = try #require(report.sessions.first?.session.kpis)
        #expect(kpis.timeWeightedAverageBitrate.map { $0 <= 1e10 } ?? true, "\(kpis)")
        #expect(
            report.diagnostics.contains {
                $0.message.hasPrefix("variant bit rates out of range") && $0.location.line == 2
            })
        let sane = analyze([Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6)])
        #expect(!sane.diagnostics.contains { $0.message.hasPrefix("variant bit rates out of range") })
    }

    /// Probe N: a refused row (4 stalls in it) leaves the key figures short: the session says
    /// they count only what was read. Near miss: every row read, no such gap.
    @Test func figuresOfAFileThatLostRowsMayBeLow() throws {
        func report(extra: String) -> AnalysisReport {
            let log = AccessLogFixtures.twoRows(secondRowTail: extra)
            return Analyzer().analyze(files: [("access.log", Array(log.utf8))])
        }
        let lost = report(extra: " extra")
        #expect(
            lost.sessions.first?.gaps.contains { $0.contains("access.log: rows not read (the first at line 6)") }
                == true)
        let whole = report(extra: "")
        #expect(whole.sessions.first?.gaps.contains { $0.contains("rows not read") } == false)
    }

    /// Probes N and P: a download's summary is named as one, and a count it does not give is
    /// unknown in its line, never "0 stalls". Near miss: a playback summary's counts are shown.
    @Test func aDownloadSummaryIsNotAPlaybackSummary() throws {
        let download = Self.event("AVMetricDownloadSummaryEvent", at: "10:00:40.000", "\"bytesDownloadedCount\":1000")
        let summary = Self.summary(stalls: 2, recovering: 3)
        let report = analyze([Self.segment(0, at: 0), Self.started, download, summary])
        let lines = try #require(report.sessions.first).session.entries.map(\.record.summary)
        #expect(lines.contains("download summary: stalls unknown, switches unknown"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("playback summary: 2 stalls") }, "\(lines)")
    }

    /// Probe D: the player's summary counts 3 stalls, the dump's stall events time 1: the key
    /// figures say 3 (with the summary's total time), and the findings add up to them — the timed
    /// stall and one finding for the 2 untimed. Near miss: a summary that agrees with the events
    /// adds no finding.
    @Test func theSummarysLargerStallCountStandsAndTheFindingsAddUp() throws {
        let summary3 = Self.event(
            "AVMetricPlayerItemPlaybackSummaryEvent", at: "10:05:00.000",
            "\"stallCount\":3,\"timeSpentRecoveringFromStall\":12,\"playbackDuration\":170")
        let report = analyze([
            Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), Self.stallAt30, Self.resumedAt34, summary3,
        ])
        let result = try #require(report.sessions.first)
        #expect(result.session.kpis.stallCount == 3)
        #expect(result.session.kpis.stallDuration == 12)
        #expect(result.session.kpis.stallDurationIsLowerBound == false)
        let stalls = result.findings.filter { $0.ruleID == "stall" }
        #expect(stalls.count == 2)
        #expect(stalls.contains { $0.title.hasPrefix("2 more stalls than the stall events show (3 in all") })

        let summary1 = summary3.replacingOccurrences(of: "\"stallCount\":3", with: "\"stallCount\":1")
            .replacingOccurrences(of: "\"timeSpentRecoveringFromStall\":12", with: "\"timeSpentRecoveringFromStall\":4")
        let agreeing = analyze([
            Self.segment(0, at: 0), Self.started, Self.segment(1, at: 6), Self.stallAt30, Self.resumedAt34, summary1,
        ])
        #expect(agreeing.sessions.first?.session.kpis.stallCount == 1)
        #expect(agreeing.sessions.first?.findings.filter { $0.ruleID == "stall" }.count == 1)
    }
}

private func markdown(_ report: AnalysisReport) -> String { MarkdownReporter(toolVersion: "test").render(report) }
