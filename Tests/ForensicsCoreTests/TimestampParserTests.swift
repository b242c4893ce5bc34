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
    /// The fixed-place reader of `YYYY-MM-DDThh:mm:ss[.f…]Z` gives the general reader's value, to
    /// the bit, or leaves the text to it: checked on the shapes it takes and on thousands of
    /// mutations of them (a byte changed, dropped or added).
    @Test func theFastReaderAgreesWithTheGeneralOne() {
        func check(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { b in
                guard let fast = TimestampParser.utcISO(b) else { return true }
                return TimestampParser.general(b, defaultOffsetSeconds: 3600) == fast
            }
        }
        let shapes = [
            "2026-11-21T10:00:00Z", "2026-11-21T10:00:00.123Z", "2026-11-21 23:59:59,5z",
            "2026-11-21t00:00:00.123456789123Z",
            "1970-01-01T00:00:00Z", "2026-02-29T10:00:00Z", "2024-02-29T24:00:00Z", "2026-11-21T10:00:60.999Z",
        ]
        for text in shapes.prefix(4) {
            #expect(Array(text.utf8).withUnsafeBufferPointer { TimestampParser.utcISO($0) } != nil, "\(text)")
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let alphabet = Array("0123456789-:.,TtZz +/".utf8)
        var checked = 0
        for shape in shapes {
            #expect(check(shape), "\(shape)")
            for _ in 0..<600 {
                var bytes = Array(shape.utf8)
                let at = next() % bytes.count
                switch next() % 3 {
                case 0: bytes[at] = alphabet[next() % alphabet.count]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[next() % alphabet.count], at: at)
                }
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(check(text), "\(text)")
                checked += 1
            }
        }
        #expect(checked == shapes.count * 600)
    }
}
