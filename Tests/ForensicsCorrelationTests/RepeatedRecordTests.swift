import ForensicsCore
import ForensicsRules
import PlaybackForensics
import Testing

/// A bundle that holds one event twice — a metric dump uploaded again, its tail sent again, the
/// cumulative error log saved twice into one file — counts it once; distinct events that look
/// alike still count. Written from the published formats (metric-event-dump.md, Apple's W3C
/// extended error log).
@Suite struct RepeatedRecordTests {
    static let session = "6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10"

    static func event(_ type: String, _ time: String, _ extra: String = "") -> String {
        "{\"type\":\"\(type)\",\"date\":\"2026-11-21T10:00:\(time)Z\",\"sessionID\":\"\(session)\"\(extra)}"
    }

    /// Playing from 0 s, a 3 s stall at 20 s, playing again at 23 s.
    static let dump = [
        event("AVMetricPlayerItemRateChangeEvent", "00.000", ",\"rate\":1,\"previousRate\":0,\"mediaTime\":0"),
        event("AVMetricPlayerItemInitialLikelyToKeepUpEvent", "00.900", ",\"timeTaken\":0.9,\"mediaTime\":0"),
        event("AVMetricPlayerItemStallEvent", "20.000", ",\"rate\":0,\"previousRate\":1,\"mediaTime\":19"),
        event("AVMetricPlayerItemRateChangeEvent", "23.000", ",\"rate\":1,\"previousRate\":0,\"mediaTime\":19"),
        event("AVMetricPlayerItemRateChangeEvent", "40.000", ",\"rate\":0,\"previousRate\":1,\"mediaTime\":36"),
    ]

    static func bytes(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\n") + "\n").utf8) }

    @Test func aDumpUploadedTwiceCountsOneStall() throws {
        let once = Analyzer().analyze(files: [("metrics.jsonl", Self.bytes(Self.dump))])
        let twice = Analyzer().analyze(files: [
            ("metrics.jsonl", Self.bytes(Self.dump)), ("metrics-copy.jsonl", Self.bytes(Self.dump)),
        ])
        let tail = Analyzer().analyze(files: [
            ("part1.jsonl", Self.bytes(Self.dump)), ("part2.jsonl", Self.bytes(Array(Self.dump.suffix(3)))),
        ])
        let a = try #require(once.sessions.first?.session.kpis)
        #expect(a.stallCount == 1)
        for report in [twice, tail] {
            let b = try #require(report.sessions.first?.session.kpis)
            #expect(b.stallCount == 1)
            #expect(b.stallDuration == a.stallDuration)
            #expect(b.stallDurationIsLowerBound == a.stallDurationIsLowerBound)
            #expect(report.diagnostics.contains { $0.message.contains("repeated from an earlier file or dump") })
            let stalls = report.sessions.flatMap(\.findings).filter { $0.ruleID == "stall" }
            #expect(stalls.count == 1)
            #expect(stalls.allSatisfy { $0.severity == .warning })
        }
    }

    @Test func nearMissTwoStallsInTwoFilesAtDifferentTimesAreTwoStalls() throws {
        let second = [
            Self.event(
                "AVMetricPlayerItemRateChangeEvent", "45.000", ",\"rate\":1,\"previousRate\":0,\"mediaTime\":36"),
            Self.event("AVMetricPlayerItemStallEvent", "50.000", ",\"rate\":0,\"previousRate\":1,\"mediaTime\":41"),
            Self.event(
                "AVMetricPlayerItemRateChangeEvent", "52.000", ",\"rate\":1,\"previousRate\":0,\"mediaTime\":41"),
        ]
        let report = Analyzer().analyze(files: [
            ("part1.jsonl", Self.bytes(Self.dump)), ("part2.jsonl", Self.bytes(second)),
        ])
        #expect(report.sessions.first?.session.kpis.stallCount == 2)
        #expect(!report.diagnostics.contains { $0.message.contains("repeated from an earlier file or dump") })
    }

    static func errorDump(_ rows: [String]) -> String {
        """
        #Version: 1.0
        #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
        #Date: 2026/11/21 10:05:00.000
        #Fields: date time uri cs-guid s-ip status domain comment cs-iftype

        """ + rows.joined(separator: "\n") + "\n"
    }

    static func row(_ time: String, _ segment: Int) -> String {
        "2026/11/21 10:00:\(time) https://video.example.com/v/720p/seg\(segment).ts \(session) 203.0.113.7 -12889 \"CoreMediaErrorDomain\" \"HTTP 503: Service Unavailable\" en0"
    }

    @Test func anErrorLogSavedTwiceIntoOneFileOrTwoFilesCountsEachErrorOnce() throws {
        let rows = [Self.row("37.037", 7), Self.row("43.043", 8), Self.row("44.000", 9)]
        let once = Analyzer().analyze(files: [("error.log", Array(Self.errorDump(rows).utf8))])
        let twice = Analyzer().analyze(files: [("error.log", Array((Self.errorDump(rows) + Self.errorDump(rows)).utf8))]
        )
        let twoFiles = Analyzer().analyze(files: [
            ("error.log", Array(Self.errorDump(rows).utf8)), ("error-2.log", Array(Self.errorDump(rows).utf8)),
        ])
        let a = try #require(once.sessions.first?.session.kpis)
        #expect(a.errorCount == 3)
        #expect(twice.sessions.first?.session.kpis.errorCount == 3)
        #expect(twoFiles.sessions.first?.session.kpis.errorCount == 3)
        #expect(twoFiles.diagnostics.contains { $0.message.contains("repeated from an earlier file or dump") })
        let groups = twice.sessions.flatMap(\.findings).filter { $0.ruleID == "segment-errors" }
        #expect(groups.first?.title.hasPrefix("3 media requests") == true)
        let said = twice.diagnostics.map(\.message)
        #expect(said.contains { $0.contains("saved 2 times into this file; 3 rows repeating an earlier dump's") })
    }

    @Test func nearMissTwoErrorsOnOneSegmentAMillisecondApartAreTwo() throws {
        let rows = [Self.row("37.037", 7), Self.row("37.038", 7)]
        let report = Analyzer().analyze(files: [("error.log", Array(Self.errorDump(rows).utf8))])
        #expect(report.sessions.first?.session.kpis.errorCount == 2)
    }
}

/// Probe G: an app that prints its error-log events to the console (Xcode's debugger shows
/// `errorStatusCode: -12938, … URI: …`) restates the error log's rows: each failure counts once.
@Suite struct PrintedErrorLogEventTests {
    @Test func printedEventsBesideTheErrorLogCountOnce() throws {
        let rows = (5...7).map { RepeatedRecordTests.row("4\($0).000", $0) }
        let printed = (5...7).map { n in
            "AVPlayerItemErrorLogEvent: date: 2026-11-21 10:00:4\(n) +0000, URI: https://video.example.com/v/720p/seg\(n).ts, serverAddress: 203.0.113.7, playbackSessionID: \(RepeatedRecordTests.session), errorStatusCode: -12889, errorDomain: CoreMediaErrorDomain, errorComment: HTTP 503: Service Unavailable\n"
        }.joined(separator: "\n")
        let errors = Array(RepeatedRecordTests.errorDump(rows).utf8)
        var options = AnalysisOptions()
        options.timezoneOffset = 0
        let alone = Analyzer(options: options).analyze(files: [("error.log", errors)])
        let both = Analyzer(options: options).analyze(files: [
            ("error.log", errors), ("xcode.txt", Array(printed.utf8)),
        ])
        #expect(alone.sessions.first?.session.kpis.errorCount == 3)
        #expect(both.sessions.count == 1)
        #expect(
            both.sessions.first?.session.kpis.errorCount == 3, "\(both.sessions.map { $0.session.kpis.errorCount })")
    }
}
