import ForensicsCore
import Foundation
import Testing

@testable import PlaybackForensics

/// Time you can trust (issue 29): device-local times are never shown as UTC unless an alignment or
/// a stated zone made them so, and a stated zone is not overridden by a low-confidence alignment.
@Suite struct TimeTrustTests {
    static let software = "#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)"

    /// An access log whose rows count stalls, beside a HAR capture of the same session that no
    /// row aligns with (probe A, B9): the stalls still count, and the `stall` finding is there,
    /// as with the access log alone — a count needs no wall-clock time.
    @Test func stallsCountedByAnUnalignedAccessLogStillCount() throws {
        let access = """
            #Version: 1.0
            \(Self.software)
            #Date: 2026/11/21 11:00:00.000
            #Fields: date time uri cs-guid s-ip c-start-time c-duration-watched c-stalls sc-indicated-bitrate c-observed-bitrate c-startup-time
            2026/11/21 11:00:00.000 https://cdn.example.com/a/v1/prog.m3u8 6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10 203.0.113.7 0 170 2 2000000 8000000 1.0

            """
        func entry(_ n: Int) -> String {
            """
            {"startedDateTime":"2026-11-21T10:00:0\(n).000Z","time":200,"request":{"method":"GET",\
            "url":"https://cdn.example.com/a/v1/seg\(n).ts","headers":[{"name":"X-Playback-Session-Id",\
            "value":"6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10"}]},"response":{"status":200,"headers":[],\
            "content":{"size":1000,"mimeType":"video/mp2t"}},"timings":{"wait":100,"receive":100}}
            """
        }
        let har =
            #"{"log":{"version":"1.2","creator":{"name":"Charles Proxy","version":"4.6"},"entries":["#
            + (1...3).map(entry).joined(separator: ",") + "]}}"
        let alone = Analyzer().analyze(files: [("access.log", Array(access.utf8))])
        let both = Analyzer().analyze(files: [("access.log", Array(access.utf8)), ("capture.har", Array(har.utf8))])
        let aloneSession = try #require(alone.sessions.first)
        let bothSession = try #require(both.sessions.first)
        #expect(both.sessions.count == 1)
        #expect(aloneSession.session.kpis.stallCount == 2)
        #expect(bothSession.session.kpis.stallCount == 2)
        let stall = try #require(bothSession.findings.first { $0.ruleID == "stall" })
        // Its time is not on the session's clock: none is made up, and no cause is looked for
        // "before" it.
        #expect(stall.start == nil)
        #expect(stall.explanation?.contains("no time on the session's clock") == true)
        #expect(both.verdict.status == .problemsFound)
    }

    /// Metric events (UTC) of one request, and an error log of the same session in UTC+1 local time
    /// about other URLs: nothing aligns them, so the error log's rows must not be read as UTC.
    @Test func anUnalignedLocalLogIsNotPlacedOnAUTCTimeline() throws {
        let events =
            [
                #"{"type":"AVMetricPlayerItemLikelyToKeepUpEvent","date":"2026-11-21T10:00:01.000Z","sessionID":"S1"}"#,
                #"{"type":"AVMetricMediaResourceRequestEvent","date":"2026-11-21T10:00:00.000Z","sessionID":"S1","url":"https://cdn.example.com/a/v1/s1.ts","requestStartTime":"2026-11-21T10:00:00.000Z","responseEndTime":"2026-11-21T10:00:00.400Z"}"#,
            ].joined(separator: "\n") + "\n"
        // 11:07 local in UTC+1 is 10:07 UTC; read as UTC it would be an hour off.
        let errors = """
            #Version: 1.0
            \(Self.software)
            #Date: 2026/11/21 11:07:00.000
            #Fields: date time uri cs-guid s-ip status domain comment cs-iftype
            2026/11/21 11:07:00.000 https://cdn.example.com/a/v1/s99.ts S1 203.0.113.7 -12938 "CoreMediaErrorDomain" "HTTP 404: File Not Found" -

            """
        let report = Analyzer().analyze(files: [
            ("metrics.jsonl", Array(events.utf8)), ("error.log", Array(errors.utf8)),
        ])
        let session = try #require(report.sessions.first)
        let span = (session.session.end?.secondsSince1970 ?? 0) - (session.session.start?.secondsSince1970 ?? 0)
        #expect(span < 60, "the session spans \(span) s: local times were read as UTC")
        let offset = try #require(session.session.clockOffsets.first { $0.format == .errorLog })
        #expect(offset.unaligned)
        #expect(report.verdict.couldNotJudge.contains { $0.contains("kept without a time") })
        // On the timeline without a time (what it counts still counts), never at a UTC time.
        let unplaced = session.session.entries.filter { $0.record.format == .errorLog }
        #expect(unplaced.count == 1 && unplaced.allSatisfy { $0.time == nil })
        // Near miss: with the zone stated, the rows are placed at 10:07 UTC.
        var options = AnalysisOptions()
        options.timezoneOffset = 3600
        let stated = Analyzer(options: options).analyze(files: [
            ("metrics.jsonl", Array(events.utf8)), ("error.log", Array(errors.utf8)),
        ])
        let entries = stated.sessions.first?.session.entries ?? []
        let row = try #require(
            entries.first { if case .errorLog = $0.record.payload { return true } else { return false } })
        #expect(row.time?.iso8601 == "2026-11-21T10:07:00.000Z")
    }

    /// `--timezone` stated; one request matches the UTC source 12 s apart: too few to overrule the
    /// user, so the log is not moved.
    @Test func aStatedZoneIsNotOverriddenByOneMatch() throws {
        let events =
            #"{"type":"AVMetricMediaResourceRequestEvent","date":"2026-11-21T10:00:12.000Z","sessionID":"S1","url":"https://cdn.example.com/a/v1/index.m3u8","requestStartTime":"2026-11-21T10:00:12.000Z","responseEndTime":"2026-11-21T10:00:12.300Z"}"#
            + "\n"
        let access = """
            #Version: 1.0
            \(Self.software)
            #Date: 2026/11/21 15:35:00.000
            #Fields: date time uri cs-guid s-ip c-observed-bitrate sc-indicated-bitrate c-stalls c-duration-watched c-startup-time
            2026/11/21 15:30:00.000 https://cdn.example.com/a/v1/index.m3u8 S1 203.0.113.7 9000000.000 5000000 0 120.000 0.800

            """
        var options = AnalysisOptions()
        options.timeZone = TimeZone(identifier: "Asia/Kolkata")
        let report = Analyzer(options: options).analyze(files: [
            ("metrics.jsonl", Array(events.utf8)), ("access.log", Array(access.utf8)),
        ])
        let offset = try #require(report.sessions.first?.session.clockOffsets.first { $0.format == .accessLog })
        #expect(offset.offset == 0)
        #expect(offset.statedZoneKept)
        let entries = report.sessions.first?.session.entries ?? []
        let row = try #require(
            entries.first { if case .accessLog = $0.record.payload { return true } else { return false } })
        // 15:30 in UTC+05:30 is 10:00 UTC, as stated — not moved by the 12 s of one match.
        #expect(row.time?.iso8601 == "2026-11-21T10:00:00.000Z")
    }

    /// `--timezone` stated wrong (+00:00 for a device in UTC+9): three failed requests of the
    /// error log match the UTC metric events nine hours apart, enough to align the file by them
    /// — and a warning says the stated zone was overruled (probe D). Near miss: with the right
    /// zone stated, nothing is said.
    @Test func aStatedZoneOverruledByTheRequestsIsSaid() throws {
        var events: [String] = []
        var rows: [String] = []
        for n in 1...3 {
            events.append(
                #"{"type":"AVMetricMediaResourceRequestEvent","date":"2026-11-21T10:00:1\#(n).300Z","sessionID":"S1","url":"https://cdn.example.com/a/v1/s\#(n).ts","requestStartTime":"2026-11-21T10:00:1\#(n).000Z","responseEndTime":"2026-11-21T10:00:1\#(n).300Z","networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":503}}]}}"#
            )
            rows.append(
                "2026/11/21 19:00:1\(n).300 https://cdn.example.com/a/v1/s\(n).ts S1 203.0.113.7 -12661 \"CoreMediaErrorDomain\" \"HTTP 503: Service Unavailable\" en0"
            )
        }
        let errors = """
            #Version: 1.0
            \(Self.software)
            #Date: 2026/11/21 19:00:00.000
            #Fields: date time uri cs-guid s-ip status domain comment cs-iftype
            \(rows.joined(separator: "\n"))

            """
        func analyze(zone: Int) -> AnalysisReport {
            var options = AnalysisOptions()
            options.timezoneOffset = zone
            return Analyzer(options: options).analyze(files: [
                ("metrics.jsonl", Array(events.joined(separator: "\n").utf8)), ("error.log", Array(errors.utf8)),
            ])
        }
        let wrong = analyze(zone: 0)
        #expect(
            wrong.diagnostics.contains {
                $0.severity == .warning && $0.message.contains("zone stated with --timezone is -9 h off")
            })
        let right = analyze(zone: 9 * 3600)
        #expect(!right.diagnostics.contains { $0.message.contains("zone stated with --timezone") })
    }
}
