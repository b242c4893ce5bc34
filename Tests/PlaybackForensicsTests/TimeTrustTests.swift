import ForensicsCore
import Foundation
import Testing

@testable import PlaybackForensics

/// Time you can trust (issue 29): device-local times are never shown as UTC unless an alignment or
/// a stated zone made them so, and a stated zone is not overridden by a low-confidence alignment.
@Suite struct TimeTrustTests {
    static let software = "#Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)"

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
        #expect(report.verdict.couldNotJudge.contains { $0.contains("not placed on the session's timeline") })
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
}
