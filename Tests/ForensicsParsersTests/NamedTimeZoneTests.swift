import Foundation
import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// `--timezone Europe/Berlin`: each access-log row is moved to UTC by the zone's offset at that
/// row's own time — +2 in summer, +1 in winter — which a fixed offset cannot do.
@Suite struct NamedTimeZoneTests {
    @Test func aNamedZoneAppliesDaylightSavingPerRow() throws {
        let log = """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; de_de)
            #Date: 2026/07/01 12:00:00.000
            #Fields: date time uri cs-guid status domain comment
            2026/07/01 12:00:00.000 https://cdn.example.com/a.ts G1 -12938 "CoreMediaErrorDomain" "HTTP 404"
            2026/11/21 12:00:00.000 https://cdn.example.com/b.ts G1 -12938 "CoreMediaErrorDomain" "HTTP 404"
            """
        var ingestor = Ingestor()
        ingestor.timeZone = TimeZone(identifier: "Europe/Berlin")
        let outcome = ingestor.ingest(BundleMember(path: "error.log", open: { MemoryByteSource(Array(log.utf8)) }))
        let result = try #require(outcome.result)
        #expect(result.clock == .deviceLocalZoneStated)
        #expect(result.records.map { $0.time?.iso8601 } == ["2026-07-01T10:00:00.000Z", "2026-11-21T11:00:00.000Z"])
    }
}
