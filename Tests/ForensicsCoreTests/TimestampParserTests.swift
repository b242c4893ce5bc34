import Testing

@testable import ForensicsCore

/// ISO 8601 / RFC 3339 times as logs and options write them, and offsets that are no zone.
@Suite struct TimestampParserTests {
    @Test func offsetsShiftToUTC() {
        #expect(TimestampParser.parse("2026-11-21T11:00:00+01:00") == TimestampParser.parse("2026-11-21T10:00:00Z"))
        #expect(TimestampParser.parse("2026-11-21T04:30:00-05:30") == TimestampParser.parse("2026-11-21T10:00:00Z"))
        #expect(TimestampParser.parse("2026-11-21T23:59:00+23:59") != nil, "the largest offset RFC 3339 writes")
    }

    /// `+99:00` or a minute of 60 is no zone (probe B): refused, never read as a 99-hour shift.
    @Test(arguments: ["2026-11-21T10:00:00+99:00", "2026-11-21T10:00:00+24:00", "2026-11-21T10:00:00-01:60"])
    func anOffsetOutOfRangeIsRefused(text: String) {
        #expect(TimestampParser.parse(text) == nil)
    }
}
