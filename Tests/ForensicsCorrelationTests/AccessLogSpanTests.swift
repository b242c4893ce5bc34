import ForensicsCore
import PlaybackForensics
import Testing

/// An access-log row's `date time` is when its span of playing began (rules.md, "Times"): the
/// session lasts at least until the last row's start plus the time it watched, not until that
/// start. Written from Apple's access-log fields.
@Suite struct AccessLogSpanTests {
    static func log(_ rows: [String]) -> [UInt8] {
        Array(
            ("""
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
            #Date: 2026/11/21 10:10:00.000
            #Fields: date time uri cs-guid s-ip c-duration-watched c-stalls sc-indicated-bitrate c-startup-time

            """ + rows.joined(separator: "\n") + "\n").utf8)
    }

    static let guid = "AB12CD34-1111-2222-3333-444455556666"

    @Test func theSessionEndsAfterTheLastRowsWatchedTime() throws {
        var options = AnalysisOptions()
        options.timezoneOffset = 0
        let report = Analyzer(options: options).analyze(files: [
            (
                "access.log",
                Self.log([
                    "2026/11/21 10:00:00.000 https://cdn.example.com/a/v1/prog.m3u8 \(Self.guid) 203.0.113.7 170 0 2000000 1.0",
                    "2026/11/21 10:03:00.000 https://cdn.example.com/a/v2/prog.m3u8 \(Self.guid) 203.0.113.7 60 0 4000000 -",
                ])
            )
        ])
        let session = try #require(report.sessions.first?.session)
        #expect(session.end == TimestampParser.parse("2026-11-21T10:04:00Z"), "\(String(describing: session.end))")
        // Near miss: a row that watched nothing ends where it starts.
        let idle = Analyzer(options: options).analyze(files: [
            (
                "access.log",
                Self.log([
                    "2026/11/21 10:00:00.000 https://cdn.example.com/a/v1/prog.m3u8 \(Self.guid) 203.0.113.7 0 0 2000000 -"
                ])
            )
        ])
        #expect(idle.sessions.first?.session.end == TimestampParser.parse("2026-11-21T10:00:00Z"))
    }
}
