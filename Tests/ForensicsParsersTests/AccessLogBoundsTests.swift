import ForensicsCore
import ForensicsRules
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// Numbers in an access log come from the device (or from whoever edited the file): each is
/// bounded where it is read, so an absurd value is a diagnostic on its line and unknown — never
/// summed into a KPI, never a "9223372036854775807 stalls" headline.
@Suite struct AccessLogBoundsTests {
    static func row(_ values: String) -> String {
        "2026/11/21 10:00:00.000 https://c.example/a/v1/i.m3u8 \(ExampleFixtures.sessionGUID) 203.0.113.7 0 " + values
    }

    @Test(arguments: [
        ("c-stalls", "10 1 0 1 100 800000 8000000 9223372036854775807 0 1 0 - - - - VOD 0 -"),
        ("c-stalls", "10 1 0 1 100 800000 8000000 -1 0 1 0 - - - - VOD 0 -"),
        ("c-startup-time", "10 1 0 1 100 800000 8000000 0 0 1e300 0 - - - - VOD 0 -"),
        ("c-duration-watched", "10 1 0 nan 100 800000 8000000 0 0 1 0 - - - - VOD 0 -"),
        ("sc-indicated-bitrate", "10 1 0 1 100 800000 -20000000 0 0 1 0 - - - - VOD 0 -"),
        ("c-observed-bitrate", "10 1 0 1 100 inf 8000000 0 0 1 0 - - - - VOD 0 -"),
    ])
    func anOutOfRangeValueIsADiagnosticAndUnknown(field: String, values: String) throws {
        let fields = ExampleFixtures.accessLog([]).text
        let outcome = ingest("access.log", fields + Self.row(values) + "\n")
        let result = try #require(outcome.result)
        #expect(result.records.count == 1)
        let diagnostics = result.diagnostics.filter {
            $0.message.hasPrefix("\(field) ") && $0.message.contains("out of range")
        }
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.location.line == 5)
        guard case .accessLog(let a)? = result.records.first?.payload else {
            Issue.record("not an access-log row")
            return
        }
        let value: Any? =
            switch field {
            case "c-stalls": a.stalls
            case "c-startup-time": a.startupTime
            case "c-duration-watched": a.durationWatched
            case "sc-indicated-bitrate": a.indicatedBitrate
            default: a.observedBitrate
            }
        #expect(value == nil)
    }
}
