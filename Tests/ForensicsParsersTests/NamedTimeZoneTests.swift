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

    func ingest(_ log: String, name: String = "error.log") throws -> ParseResult {
        var ingestor = Ingestor()
        ingestor.timeZone = TimeZone(identifier: "Europe/Berlin")
        let outcome = ingestor.ingest(BundleMember(path: name, open: { MemoryByteSource(Array(log.utf8)) }))
        return try #require(outcome.result)
    }

    static let head = """
        #Version: 1.0
        #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; de_de)
        #Date: 2026/10/25 03:30:00.000
        #Fields: date time uri cs-guid status domain comment

        """

    /// Probe L: when the clocks go back (Berlin, 25 October 2026, 03:00 CEST → 02:00 CET) the
    /// hour 02:00–03:00 happens twice. Rows in order are read in the first pass (CEST, +2) until
    /// a time goes back, then in the second (CET, +1) — no longer all an hour late.
    @Test func theRepeatedHourOfAFallBackIsReadInOrder() throws {
        let rows = ["02:30:00", "02:50:00", "02:10:00", "02:40:00", "02:01:00", "02:55:00", "03:05:00"].map {
            "2026/10/25 \($0).000 https://cdn.example.com/a.ts G1 -12938 \"CoreMediaErrorDomain\" \"HTTP 404\""
        }
        let result = try ingest(Self.head + rows.joined(separator: "\n"))
        #expect(
            result.records.map { $0.time?.iso8601 } == [
                "2026-10-25T00:30:00.000Z", "2026-10-25T00:50:00.000Z", "2026-10-25T01:10:00.000Z",
                "2026-10-25T01:40:00.000Z", "2026-10-25T01:01:00.000Z", "2026-10-25T01:55:00.000Z",
                "2026-10-25T02:05:00.000Z",
            ])
        #expect(!result.diagnostics.contains { $0.message.contains("skips") })
        // Near miss: rows a few minutes out of order inside the first pass stay in it.
        let shuffled = ["02:30:00", "02:20:00", "02:50:00"].map {
            "2026/10/25 \($0).000 https://cdn.example.com/a.ts G1 -12938 \"CoreMediaErrorDomain\" \"HTTP 404\""
        }
        let first = try ingest(Self.head + shuffled.joined(separator: "\n"))
        #expect(
            first.records.map { $0.time?.iso8601 } == [
                "2026-10-25T00:30:00.000Z", "2026-10-25T00:20:00.000Z", "2026-10-25T00:50:00.000Z",
            ])
    }

    /// When the clocks go forward (29 March 2026, 02:00 CET → 03:00 CEST) 02:30 never happens
    /// in Berlin: the row is read with the offset before the change, and a warning says the zone
    /// may not be the device's. Near miss: 01:59 and 03:00 that day exist.
    @Test func aTimeTheZoneSkipsIsReadAndSaidSo() throws {
        let rows = ["01:59:00", "02:30:00", "03:00:00"].map {
            "2026/03/29 \($0).000 https://cdn.example.com/a.ts G1 -12938 \"CoreMediaErrorDomain\" \"HTTP 404\""
        }
        let result = try ingest(Self.head + rows.joined(separator: "\n"))
        #expect(
            result.records.map { $0.time?.iso8601 } == [
                "2026-03-29T00:59:00.000Z", "2026-03-29T01:30:00.000Z", "2026-03-29T01:00:00.000Z",
            ])
        let warning = try #require(result.diagnostics.first { $0.message.contains("skips") })
        #expect(warning.severity == .warning)
        #expect(warning.location.line == 6)
        #expect(warning.message.hasPrefix("1 time that Europe/Berlin skips"))
        let fine = try ingest(Self.head + [rows[0], rows[2]].joined(separator: "\n"))
        #expect(!fine.diagnostics.contains { $0.message.contains("skips") })
    }
}
