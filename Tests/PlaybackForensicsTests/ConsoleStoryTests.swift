import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsRules
@testable import PlaybackForensics

/// The issue's four console stories, as bundles written to the same shapes (a `log show`
/// capture, an NSLog console, an app's print of its error log, an error-log event), each giving the
/// failure with its chain; and a console where playback went well, which gives no finding and says
/// what a console alone cannot judge.
@Suite struct ConsoleStoryTests {
    func analyze(_ name: String, _ text: String) -> AnalysisReport {
        Analyzer().analyze(files: [(name, Array(text.utf8))])
    }

    func finding(_ report: AnalysisReport, _ rule: String) -> Finding? {
        report.sessions.flatMap(\.findings).first { $0.ruleID == rule }
    }

    @Test func fairPlayFailingInMediaplaybackdRetriedThenGivenUp() throws {
        let report = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("console-fairplay").path)
        let key = try #require(finding(report, "content-key-failed"))
        #expect(key.severity == .error && key.details["gave_up"] == .bool(true))
        #expect(key.explanation?.contains("FairPlay") == true)
        #expect(key.evidence.count >= 4, "the first failure, both retries and the last")
        let failed = try #require(finding(report, "playback-failed"))
        #expect(failed.severity == .critical)
        #expect(failed.explanation?.contains("-42669") == true, "the chain's first error is named")
        #expect(failed.evidence.map(\.location.line).contains(5) && failed.evidence.map(\.location.line).contains(10))
        #expect(report.verdict.status == .problemsFound)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("whose silence proves nothing") })
    }

    @Test func anNSLogConsoleWithAPlaylistParseErrorThenPlaybackFailed() throws {
        let text = """
            2026-11-21 09:41:12.004417+0900 Streamer[3021:118734] [Player] loading https://media.example.jp/vod/show42/master.m3u8
            2026-11-21 09:41:12.880551+0900 Streamer[3021:118790] [Player] The media player could not resolve the stream: Error Domain=CoreMediaErrorDomain Code=-12642 "Playlist parse error" UserInfo={NSDescription=Playlist parse error}
            2026-11-21 09:41:12.881002+0900 Streamer[3021:118734] [Player] Playback failed
            """
        let report = analyze("console.txt", text)
        let failed = try #require(finding(report, "playback-failed"))
        #expect(failed.title.contains("-12642"), "the fatal line's error is the one before it")
        #expect(failed.evidence.map(\.location.line) == [2, 3])
        let parse = try #require(finding(report, "playlist-parse-error"))
        #expect(parse.explanation?.contains("No playlist of this session was captured") == true)
        #expect(parse.advice.contains("playback-forensics check"))
    }

    @Test func aParseErrorPointsToTheStreamChecksWhenThePlaylistIsInTheBundle() throws {
        let console = """
            2026-11-21 10:00:01.000000+0000 Streamer[3021:118734] [Player] loading https://media.example.com/live/v3/index.m3u8
            2026-11-21 10:00:02.000000+0000 Streamer[3021:118790] [Player] Error Domain=CoreMediaErrorDomain Code=-12642 "Playlist parse error" UserInfo={NSDescription=Playlist parse error}
            """
        // PART-TARGET 1.0 with a 2.002-s part: what the player refused.
        let playlist = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:4
            #EXT-X-PART-INF:PART-TARGET=1.0
            #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3.0
            #EXT-X-MEDIA-SEQUENCE:10
            #EXT-X-PART:DURATION=2.002,URI="p10.0.mp4"
            #EXTINF:4.0,
            s10.mp4
            """
        let report = Analyzer().analyze(files: [
            ("console.txt", Array(console.utf8)), ("index.m3u8", Array(playlist.utf8)),
        ])
        let parse = try #require(finding(report, "playlist-parse-error"))
        #expect(parse.explanation?.contains("The captured playlists break") == true)
    }

    @Test func anAppsPrintOfItsErrorLogEndingInCanNotProceed() throws {
        let text = """
            AVPlayerItem error log (2 events):
            errorStatusCode: -12642 | errorDomain: CoreMediaErrorDomain | errorComment: #EXT-X-PART Partial Segment duration 2.002 exceeds PART-TARGET 1.001 | URI: https://live.example.com/ll/v3/index.m3u8 | date: 2026-11-22 20:03:11.208 +0000 | playbackSessionID: 5D1C2A1E-8B44-4B7C-9F8E-2F4A2B6C9D01
            errorStatusCode: -12880 | errorDomain: CoreMediaErrorDomain | errorComment: Can not proceed after removing variants | URI: https://live.example.com/ll/master.m3u8 | date: 2026-11-22 20:03:11.941 +0000 | playbackSessionID: 5D1C2A1E-8B44-4B7C-9F8E-2F4A2B6C9D01
            """
        let report = analyze("errorlog-print.txt", text)
        let failed = try #require(finding(report, "playback-failed"))
        #expect(failed.title.contains("-12880"))
        #expect(failed.evidence.map(\.location.line) == [2, 3], "the -12642 row that led to it, then the fatal row")
        let parse = try #require(finding(report, "playlist-parse-error"))
        #expect(parse.title.contains("exceeds PART-TARGET"))
    }

    @Test func anErrorLogEventRestartingNearTheLiveEdge() throws {
        let text =
            #"2026-11-23 07:15:40.118422-0500 LiveTV[912:40211] errorStatusCode=-16832 errorDomain=CoreMediaErrorDomain errorComment="restarting 8 s from end of live playlist; target duration 3 s — stall danger" URI=https://live.example.com/news/v5/index.m3u8"#
        let report = analyze("console.txt", text + "\n")
        let edge = try #require(finding(report, "live-start-near-edge"))
        #expect(edge.details["distance_from_end"] == .number(8) && edge.details["target_duration"] == .number(3))
        #expect(edge.severity == .warning)
    }

    @Test func aConsoleWherePlaybackWentWellGivesNoFindingAndSaysWhatItCannotJudge() throws {
        let text = """
            Timestamp                       Thread     Type        Activity             PID    TTL  
            2026-11-21 10:00:01.000000+0000 0x5b21c    Default     0x0                  2841   0    Player: (Player) [com.example.player:drm] AVContentKeySession: content key request for skd://keys.example.com/asset/8812
            2026-11-21 10:00:01.300000+0000 0x5b21c    Default     0x0                  2841   0    Player: (Player) [com.example.player:drm] AVContentKeySession: content key response processed
            2026-11-21 10:00:01.900000+0000 0x5b7e2    Default     0x0                  611    0    mediaplaybackd: (MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> rate changed to 1.0
            2026-11-21 10:00:02.000000+0000 0x5b21c    Default     0x0                  2841   0    Player: (Player) [com.example.player:playback] AVPlayerItem status changed to readyToPlay
            """
        let report = analyze("console.log", text)
        #expect(report.sessions.flatMap(\.findings).isEmpty)
        #expect(report.verdict.status == .couldNotJudge)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("whose silence proves nothing") })
    }

    @Test func aConsoleBesideTheAccessAndErrorLogsJoinsTheirSessionAndTellsTheirZone() throws {
        let folder = TestPaths.sampleLogs.appendingPathComponent("access-error-logs-only")
        var files: [(name: String, bytes: [UInt8])] = try ["accesslog.txt", "errorlog.txt"].map { name in
            (name, Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
        let console = """
            2026-11-21 05:04:59.300000-0500 Player[3021:118734] [Player] segment failed: Error Domain=CoreMediaErrorDomain Code=-12938 "HTTP 404: File Not Found" UserInfo={NSDescription=HTTP 404: File Not Found}
            """
        files.append(("console.txt", Array(console.utf8)))
        let report = Analyzer().analyze(files: files)
        #expect(report.sessions.count == 1 && report.unassignedRecords == 0)
        let session = try #require(report.sessions.first?.session)
        #expect(session.sources.contains(.deviceConsole))
        // The console's stated zone (UTC−5) places the local-time logs: the device is one clock.
        #expect(session.timeBasis == .utc)
        #expect(session.clockOffsets.first { $0.format == .accessLog }?.offset == 18000)
    }

    @Test func aCanNotProceedRowFoldedIntoItsFailedRequestStillEndsPlayback() throws {
        // The error log's -12880 row on the multivariant playlist the metric events saw fail: the
        // correlator folds the row into that request, and the rule still reads it.
        let events = TimelineScript.compile(
            """
            0.000 multivariant https://cdn.example.com/live/master.m3u8 200 0.100
            0.700 initial-ltku variant=5M
            30.00 playlist https://cdn.example.com/live/v5/index.m3u8 404 0.050
            """, sessionID: ExampleFixtures.sessionGUID)
        let errors = ExampleFixtures.errorLog([
            ExampleFixtures.errorRow(
                at: 30, uri: "https://cdn.example.com/live/v5/index.m3u8", status: -12880,
                comment: "Can not proceed after removing variants")
        ])
        let report = Analyzer().analyze(files: [
            ("events.jsonl", Array(events.utf8)), (errors.name, Array(errors.text.utf8)),
        ])
        let session = try #require(report.sessions.first?.session)
        let folded = session.entries.contains { e in
            e.record.request != nil && e.otherViews.contains { $0.format == .errorLog }
        }
        #expect(folded, "the row was folded into the failed request")
        let failed = try #require(finding(report, "playback-failed"))
        #expect(failed.title.contains("-12880"))
    }

    @Test func aConsoleOfAnotherPlaybackBesideABundleIsASessionOfItsOwn() throws {
        // cdn-404-stall happened at 10:00 UTC on 2026-11-21; this console's failure at 00:41 UTC.
        let folder = TestPaths.sampleLogs.appendingPathComponent("cdn-404-stall")
        var files: [(name: String, bytes: [UInt8])] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            files.append((name, Array(try Data(contentsOf: folder.appendingPathComponent(name)))))
        }
        let console = """
            2026-11-21 09:41:12.880551+0900 Streamer[3021:118790] [Player] Error Domain=CoreMediaErrorDomain Code=-12642 "Playlist parse error" UserInfo={NSDescription=Playlist parse error}
            2026-11-21 09:41:12.881002+0900 Streamer[3021:118734] [Player] Playback failed
            """
        files.append(("console-paste.txt", Array(console.utf8)))
        files.append(("README.md", Array("# Ticket\n\n#Fields: date time uri\n".utf8)))
        let report = Analyzer().analyze(files: files)
        // Probe G: the other playback is a session of its own — its failure is neither pinned on
        // the bundle's session nor dropped (a critical failure lost to "outside every session").
        #expect(report.sessions.count == 2)
        let own = try #require(report.sessions.first { $0.session.sources.contains(.accessLog) })
        #expect(!own.findings.contains { $0.ruleID == "playback-failed" || $0.ruleID == "playlist-parse-error" })
        #expect(own.findings.contains { $0.ruleID == "stall" }, "the bundle's own story stands")
        let other = try #require(report.sessions.first { $0.session.sources == [.deviceConsole] })
        #expect(other.findings.contains { $0.ruleID == "playback-failed" })
        #expect(other.findings.contains { $0.ruleID == "playlist-parse-error" })
        #expect(report.unassignedRecords == 0)
        #expect(report.inputs.first { $0.path == "README.md" }?.notRead?.reason == "Markdown text")
    }
}

/// Probe G: a console tells of the playbacks in it — one session each, by process, time and
/// stream — and of nothing else: other processes' errors that are not about playback are not
/// read as playback, and an app's printed error-log events are not counted beside the error
/// log's own rows. Written in `log show --style syslog` shapes.
@Suite struct ConsolePlaybacksTests {
    static func line(_ time: String, _ process: String, _ message: String) -> String {
        "2026-11-21 \(time)+0100 0x2a1f     Default     0x0                  1234   0    \(process): \(message)"
    }
    static let header =
        "Timestamp                       Thread     Type        Activity             PID    TTL  \n"

    func analyze(_ lines: [String]) -> AnalysisReport {
        Analyzer().analyze(files: [("console.log", Array((Self.header + lines.joined(separator: "\n") + "\n").utf8))])
    }

    /// Probe N: the app's printed error-log event for a request the dump saw fail is that
    /// request's failure: one error, the console line a view of the request. Near miss: printed
    /// for a URL the dump never failed on, it is an error of its own.
    @Test func aPrintedErrorForARequestTheDumpSawFailIsOneError() throws {
        let dump = TimelineScript.compile(
            """
            0.000 multivariant https://cdn.example.com/v/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            20.00 segment https://cdn.example.com/v/v8/s3.m4s 404 0.300 dur=6
            26.00 segment https://cdn.example.com/v/v8/s4.m4s 200 0.300 dur=6
            """)
        func errors(uri: String) throws -> Int? {
            let console =
                Self.header
                + Self.line(
                    "11:00:20.305000", "Player",
                    "(Player) [com.example.player:playback] errorStatusCode: -12938, errorDomain: CoreMediaErrorDomain, errorComment: HTTP 404: File Not Found, URI: \(uri)"
                ) + "\n"
            let report = Analyzer().analyze(files: [
                ("metrics.jsonl", Array(dump.utf8)), ("console.log", Array(console.utf8)),
            ])
            return try #require(report.sessions.first).session.kpis.errorCount
        }
        #expect(try errors(uri: "https://cdn.example.com/v/v8/s3.m4s") == 1)
        #expect(try errors(uri: "https://cdn.example.com/v/v8/s9.m4s") == 2)
        // Probe O: the app prints its whole error log at once, 25 s later: still one failure
        // each, and the console keeps its own (zoned) clock.
        let batch =
            Self.header
            + ["45.061000", "45.062000"].map { second in
                Self.line(
                    "11:00:\(second)", "Player",
                    "(Player) [com.example.player:playback] errorStatusCode: -12938, errorDomain: CoreMediaErrorDomain, errorComment: HTTP 404: File Not Found, URI: https://cdn.example.com/v/v8/s3.m4s"
                )
            }.joined(separator: "\n") + "\n"
        let twice = TimelineScript.compile(
            """
            0.000 multivariant https://cdn.example.com/v/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            20.00 segment https://cdn.example.com/v/v8/s3.m4s 404 0.300 dur=6
            21.00 segment https://cdn.example.com/v/v8/s3.m4s 404 0.300 dur=6
            26.00 segment https://cdn.example.com/v/v8/s4.m4s 200 0.300 dur=6
            """)
        let report = Analyzer().analyze(files: [
            ("metrics.jsonl", Array(twice.utf8)), ("console.log", Array(batch.utf8)),
        ])
        let session = try #require(report.sessions.first).session
        #expect(session.kpis.errorCount == 2)
        #expect(session.clockOffsets.first { $0.file == "console.log" }?.offset == 0)
    }

    /// Probe P: a Console.app copy (times without a date) of one key failure and its retries
    /// counts at least 2 errors, as the same lines with dates do — not "at least 6" (every
    /// undated line a failure of its own). Near miss: two failures of different codes count 2.
    @Test func undatedConsoleLinesCountFailuresNotLines() throws {
        let lines = [
            "error\t21:14:03.341877\tmediaplaybackd\t<<<< FigContentKeySession >>>> keyRequest failed: err=-42669",
            "error\t21:14:03.342010\tmediaplaybackd\t<<<< AVError >>>> AVLocalizedErrorWithUnderlyingOSStatus: Returning error (AVFoundationErrorDomain / -11800) status (-42669)",
            "error\t21:14:03.342550\tPlayer\tcontent key request failed, retrying (1/3): Error Domain=AVFoundationErrorDomain Code=-11800 \"The operation could not be completed\" UserInfo={NSUnderlyingError=0x1 {Error Domain=NSOSStatusErrorDomain Code=-42669 \"(null)\"}}",
            "error\t21:14:04.512004\tPlayer\tcontent key request failed, retrying (2/3): Error Domain=AVFoundationErrorDomain Code=-11800 \"The operation could not be completed\" UserInfo={NSUnderlyingError=0x1 {Error Domain=NSOSStatusErrorDomain Code=-42669 \"(null)\"}}",
            "error\t21:14:06.020331\tmediaplaybackd\t<<<< FigPlayer >>>> item failed: Error Domain=CoreMediaErrorDomain Code=-19160 \"(null)\"",
            "error\t21:14:06.021410\tPlayer\tcontent key request failed (3/3), giving up: Error Domain=AVFoundationErrorDomain Code=-11800 \"The operation could not be completed\" UserInfo={NSUnderlyingError=0x1 {Error Domain=NSOSStatusErrorDomain Code=-42669 \"(null)\"}}",
            "default\t21:14:06.022000\tPlayer\tAVPlayerItem status changed to failed",
        ]
        let report = Analyzer().analyze(files: [("console.txt", Array((lines.joined(separator: "\n") + "\n").utf8))])
        let kpis = try #require(report.sessions.first).session.kpis
        #expect(kpis.errorCount == 2 && kpis.errorCountIsLowerBound, "\(kpis)")
    }

    /// Probe Q: the failure told is the first one; errors a console logged minutes after it are
    /// not "earlier errors" of it. Near miss: a console alone still tells its own chain.
    @Test func laterErrorsAreNotTheFirstFailuresChain() throws {
        let dump = TimelineScript.compile(
            """
            0.000 multivariant https://cdn.example.com/v/master.m3u8 200 0.1
            0.700 initial-ltku variant=8M
            """)
        let fatal =
            "{\"type\":\"AVMetricErrorEvent\",\"date\":\"2026-11-21T10:00:01.300Z\",\"sessionID\":\"\(TimelineScript.sessionID)\",\"didRecover\":false,\"error\":{\"domain\":\"AVFoundationErrorDomain\",\"code\":-11828,\"localizedDescription\":\"Cannot Open\"}}"
        let console =
            Self.header
            + [
                Self.line(
                    "11:04:03.341877", "mediaplaybackd",
                    "(MediaToolbox) [com.apple.coremedia:player] <<<< FigContentKeySession >>>> keyRequest failed: Error Domain=NSOSStatusErrorDomain Code=-42669 \"(null)\""
                ),
                Self.line(
                    "11:04:06.020331", "mediaplaybackd",
                    "(MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> item failed: Error Domain=CoreMediaErrorDomain Code=-19160 \"(null)\""
                ),
            ].joined(separator: "\n") + "\n"
        let report = Analyzer().analyze(files: [
            ("metrics.jsonl", Array((dump + "\n" + fatal).utf8)), ("console.log", Array(console.utf8)),
        ])
        let failed = try #require(report.sessions.flatMap(\.findings).first { $0.ruleID == "playback-failed" })
        #expect(!(failed.explanation ?? "").contains("earlier error"), "\(failed.explanation ?? "")")
        let alone = Analyzer().analyze(files: [("console.log", Array(console.utf8))])
        let own = try #require(alone.sessions.flatMap(\.findings).first { $0.ruleID == "playback-failed" })
        #expect((own.explanation ?? "").contains("earlier error"), "\(own.explanation ?? "")")
    }

    @Test func anotherAppsFailureIsNotThisPlaybacksAndTwoPlaybacksAreTwoSessions() throws {
        let report = analyze([
            Self.line(
                "11:00:00.100000", "Player",
                "(AVFoundation) [com.apple.avfoundation:player] <<<< AVPlayerItem >>>> status changed to loading for https://cdn.example.com/show1/master.m3u8"
            ),
            Self.line(
                "11:00:10.000000", "Instagram",
                "(MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> item failed: Error Domain=AVFoundationErrorDomain Code=-11800 \"The operation could not be completed\" UserInfo={NSUnderlyingError=0x1 {Error Domain=CoreMediaErrorDomain Code=-12660 \"HTTP 403: Forbidden\"}}"
            ),
            Self.line(
                "11:00:30.000000", "Player",
                "(AVFoundation) [com.apple.avfoundation:player] <<<< AVPlayerItem >>>> AVPlayerItemDidPlayToEndTimeNotification"
            ),
            Self.line(
                "11:45:20.000000", "Player",
                "(MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> item failed: Error Domain=CoreMediaErrorDomain Code=-12938 \"HTTP 404: File Not Found\" UserInfo={NSDescription=HTTP 404: File Not Found}"
            ),
        ])
        #expect(report.sessions.count == 3, "\(report.sessions.map(\.session.id))")
        let first = try #require(report.sessions.first)
        #expect(!first.findings.contains { $0.ruleID == "playback-failed" }, "Instagram's failure is not Player's")
        #expect(report.sessions.filter { $0.findings.contains { $0.ruleID == "playback-failed" } }.count == 2)
        #expect(Set(report.sessions.map(\.session.id)).count == 3, "every session can be asked for by its id")
        // A console cannot count every error, but the ones it states are there: at least one,
        // never "unknown" beside a finding that counts it.
        for failed in report.sessions where failed.findings.contains(where: { $0.ruleID == "playback-failed" }) {
            #expect(failed.session.kpis.errorCount == 1 && failed.session.kpis.errorCountIsLowerBound)
        }
        #expect(first.session.kpis.errorCount == nil, "a console's silence counts nothing")
    }

    @Test func otherProcessesErrorsThatAreNotAboutPlaybackAreNotRead() throws {
        let alone = analyze([
            Self.line(
                "11:00:00.100000", "SpringBoard",
                "(FrontBoard) Error Domain=NSURLErrorDomain Code=-1009 \"The Internet connection appears to be offline.\""
            ),
            Self.line("11:00:05.000000", "locationd", "Error Domain=kCLErrorDomain Code=1 \"(null)\""),
        ])
        #expect(alone.sessions.isEmpty)
        #expect(alone.verdict.status == .nothingRead)
        // Near miss: the same offline error in the process that plays is kept beside its playback.
        let own = analyze([
            Self.line(
                "11:00:00.100000", "Player",
                "(MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> item started"),
            Self.line(
                "11:00:05.000000", "Player",
                "(CFNetwork) Error Domain=NSURLErrorDomain Code=-1009 \"The Internet connection appears to be offline.\""
            ),
            Self.line(
                "11:00:50.000000", "SpringBoard", "(FrontBoard) Error Domain=NSURLErrorDomain Code=-1009 \"offline\""),
        ])
        let session = try #require(own.sessions.first?.session)
        #expect(own.sessions.count == 1)
        #expect(session.entries.count == 2, "SpringBoard's line neither joins nor stretches the session")
    }
}

/// Review: a console's errors beside a dump that kept none are errors of the session — the key
/// figures count them, and a verdict with no finding to explain them is no all-clear.
@Suite struct ConsoleErrorsBesideADumpTests {
    @Test func timeoutsInTheConsoleAreCounted() throws {
        let session = "6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10"
        func event(_ type: String, _ time: String, _ extra: String) -> String {
            "{\"type\":\"\(type)\",\"date\":\"2026-11-21T10:00:\(time)Z\",\"sessionID\":\"\(session)\"\(extra)}"
        }
        let dump =
            [
                event("AVMetricPlayerItemRateChangeEvent", "00.000", ",\"rate\":1,\"previousRate\":0,\"mediaTime\":0"),
                event("AVMetricPlayerItemInitialLikelyToKeepUpEvent", "00.900", ",\"timeTaken\":0.9,\"mediaTime\":0"),
                event("AVMetricPlayerItemRateChangeEvent", "40.000", ",\"rate\":0,\"previousRate\":1,\"mediaTime\":39"),
            ].joined(separator: "\n") + "\n"
        let console =
            ConsolePlaybacksTests.header
            + [10, 12].map { s in
                ConsolePlaybacksTests.line(
                    "11:00:\(s).000000", "Player",
                    "(CFNetwork) Task finished with error [-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\" UserInfo={NSErrorFailingURLStringKey=https://cdn.example.com/v/seg\(s).ts}"
                )
            }.joined(separator: "\n") + "\n"
        let alone = Analyzer().analyze(files: [("metrics.jsonl", Array(dump.utf8))])
        #expect(alone.sessions.first?.session.kpis.errorCount == 0)
        let both = Analyzer().analyze(files: [
            ("metrics.jsonl", Array(dump.utf8)), ("console.log", Array(console.utf8)),
        ])
        #expect(both.sessions.count == 1)
        #expect(both.sessions.first?.session.kpis.errorCount == 2)
        #expect(both.verdict.status == .couldNotJudge, "\(both.verdict)")
        #expect(both.verdict.couldNotJudge.contains { $0.contains("2 errors that no finding explains") })
    }
}

/// Probe G: a console error naming the media URL it failed on is a failed request: three
/// timeouts on one host are `segment-errors`. Near miss: two are not a group.
@Suite struct ConsoleFailedRequestTests {
    static func timeouts(_ seconds: [Int]) -> [String] {
        seconds.map { s in
            ConsolePlaybacksTests.line(
                "11:00:\(s).000000", "Player",
                "(CFNetwork) Task finished with error [-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\" UserInfo={NSErrorFailingURLStringKey=https://cdn.example.com/v/seg\(s).ts, NSErrorFailingURLKey=https://cdn.example.com/v/seg\(s).ts}"
            )
        }
    }

    func analyze(_ lines: [String]) -> AnalysisReport {
        let text = ConsolePlaybacksTests.header + lines.joined(separator: "\n") + "\n"
        return Analyzer().analyze(files: [("console.log", Array(text.utf8))])
    }

    @Test func threeConsoleTimeoutsOnOneHostAreSegmentErrors() throws {
        let three = analyze(Self.timeouts([10, 20, 30]))
        let f = try #require(three.sessions.first?.findings.first { $0.ruleID == "segment-errors" })
        #expect(
            f.title.contains("3 media requests to cdn.example.com failed with NSURLErrorDomain -1001"), "\(f.title)")
        #expect(three.sessions.first?.session.kpis.errorCount == 3)
        let two = analyze(Self.timeouts([10, 20]))
        #expect(two.sessions.first?.findings.contains { $0.ruleID == "segment-errors" } == false)
    }
}

/// Probe H: a quiet pause is not a new playback, one failure logged two ways is one error, and
/// a request the client cancelled (-999, a seek or a switch) is no failure.
@Suite struct ConsoleCountsOnceTests {
    static func notFound(_ time: String, _ segment: Int) -> [String] {
        let url = "https://cdn.example.com/v/seg\(segment).ts"
        return [
            ConsolePlaybacksTests.line(
                time + "000", "mediaplaybackd",
                "(CoreMedia) [com.apple.coremedia:hls] segment failed: Error Domain=CoreMediaErrorDomain Code=-12938 \"HTTP 404: File Not Found\" UserInfo={NSErrorFailingURLStringKey=\(url)}"
            ),
            ConsolePlaybacksTests.line(
                time + "010", "Player",
                "AVPlayerItemErrorLogEvent: date: 2026-11-21 10:00:\(time.suffix(6).prefix(2)) +0000, URI: \(url), errorStatusCode: -12938, errorDomain: CoreMediaErrorDomain, errorComment: HTTP 404: File Not Found"
            ),
        ]
    }

    func analyze(_ lines: [String]) -> AnalysisReport {
        let text = ConsolePlaybacksTests.header + lines.joined(separator: "\n") + "\n"
        return Analyzer().analyze(files: [("console.log", Array(text.utf8))])
    }

    @Test func aQuietPauseKeepsOnePlayback() throws {
        let report = analyze(
            [
                ConsolePlaybacksTests.line(
                    "11:00:00.100000", "Player", "(AVFoundation) [com.apple.avfoundation:player] item started")
            ]
                + ConsoleFailedRequestTests.timeouts([30]) + ConsoleFailedRequestTests.timeouts([50])
                + [
                    ConsolePlaybacksTests.line(
                        "11:07:10.000000", "Player",
                        "(CFNetwork) Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\" UserInfo={NSErrorFailingURLStringKey=https://cdn.example.com/v/seg99.ts}"
                    )
                ])
        #expect(report.sessions.count == 1)
        #expect(report.sessions.first?.findings.contains { $0.ruleID == "segment-errors" } == true)
    }

    @Test func oneFailureLoggedTwoWaysIsOneError() throws {
        let report = analyze(Self.notFound("11:00:10.000", 1) + Self.notFound("11:00:20.000", 2))
        #expect(report.sessions.count == 1)
        #expect(report.sessions.first?.session.kpis.errorCount == 2)
        #expect(report.sessions.first?.findings.contains { $0.ruleID == "segment-errors" } == false)
    }

    @Test func cancelledRequestsAreNoFailures() throws {
        let lines = [10, 11, 12, 13].map { s in
            ConsolePlaybacksTests.line(
                "11:00:\(s).000000", "Player",
                "(CFNetwork) Task finished with error [-999] Error Domain=NSURLErrorDomain Code=-999 \"cancelled\" UserInfo={NSErrorFailingURLStringKey=https://cdn.example.com/a/v5/seg\(s).ts}"
            )
        }
        let report = analyze(lines)
        #expect(report.sessions.flatMap(\.findings).isEmpty)
        #expect(report.sessions.first?.session.kpis.errorCount == nil)
    }
}
