/// Parses the date forms the input formats use, on bytes, without Foundation formatters.
///
/// Accepted: `YYYY-MM-DD[T ]hh:mm[:ss[.fff…]][Z|±hh:mm|±hhmm| ±hhmm]` and `YYYY/MM/DD hh:mm:ss[.fff]`.
/// A missing offset means UTC unless the caller passes another default. Returns nil on anything
/// else, so callers can turn it into a diagnostic.
package enum TimestampParser {
    package static func parse(_ text: String, defaultOffsetSeconds: Int = 0) -> Timestamp? {
        if let result = text.utf8.withContiguousStorageIfAvailable({
            parseBytes($0, defaultOffsetSeconds: defaultOffsetSeconds)
        }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { parseBytes($0, defaultOffsetSeconds: defaultOffsetSeconds) }
    }

    package static func parseBytes(_ b: UnsafeBufferPointer<UInt8>, defaultOffsetSeconds: Int = 0) -> Timestamp? {
        if let fast = utcISO(b) { return fast }
        return general(b, defaultOffsetSeconds: defaultOffsetSeconds)
    }

    /// The shape nearly every time of a metric dump, HAR and CDN log has, `YYYY-MM-DDThh:mm:ss[.f…]Z`,
    /// read at fixed places; nil for anything else (the general reader then decides, and gives
    /// the same value for this shape: a test compares the two).
    ///
    /// Why: the general reader's field-by-field closures were 600 instructions a time, and a
    /// metric event carries two to four.
    static func utcISO(_ b: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        let n = b.count
        guard n >= 20, b[n - 1] == 0x5A || b[n - 1] == 0x7A, b[4] == 0x2D, b[7] == 0x2D,
            b[10] == 0x54 || b[10] == 0x20 || b[10] == 0x74, b[13] == 0x3A, b[16] == 0x3A
        else { return nil }
        func two(_ at: Int) -> Int64? {
            let h = b[at] &- 48
            let l = b[at + 1] &- 48
            guard h < 10, l < 10 else { return nil }
            return Int64(h) * 10 + Int64(l)
        }
        guard let y1 = two(0), let y2 = two(2), let month = two(5), let day = two(8), let hour = two(11),
            let minute = two(14), let s = two(17)
        else { return nil }
        var second = Double(s)
        if n > 20 {
            // `.fff…` (or `,fff…`) then the `Z`: the general reader's sum, digit by digit.
            guard b[19] == 0x2E || b[19] == 0x2C, n > 21 else { return nil }
            var scale = 0.1
            var frac = 0.0
            var count = 0
            for k in 20..<(n - 1) {
                let d = b[k] &- 48
                guard d < 10 else { return nil }
                if count < 9 { frac += Double(d) * scale }
                scale /= 10
                count += 1
            }
            second += frac
        }
        guard
            let local = CivilDate.seconds(
                year: y1 * 100 + y2, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Timestamp(local)
    }

    static func general(_ b: UnsafeBufferPointer<UInt8>, defaultOffsetSeconds: Int) -> Timestamp? {
        var i = 0
        let n = b.count
        func digits(_ count: Int) -> Int64? {
            guard i + count <= n else { return nil }
            var v: Int64 = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            i += count
            return v
        }
        // The separators a field may follow, as bytes (an array literal here was built per call).
        func expect(_ a: UInt8, _ b2: UInt8, _ c: UInt8) -> Bool {
            guard i < n, b[i] == a || b[i] == b2 || b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45, 47, 47), let month = digits(2), expect(45, 47, 47),
            let day = digits(2)
        else { return nil }
        guard expect(84, 32, 116), let hour = digits(2), expect(58, 58, 58), let minute = digits(2) else { return nil }
        var second: Double = 0
        if i < n, b[i] == 58 {
            i += 1
            guard let s = digits(2) else { return nil }
            second = Double(s)
            if i < n, b[i] == 46 || b[i] == 44 {
                i += 1
                var scale = 0.1
                var frac = 0.0
                var count = 0
                while i < n, b[i] >= 48, b[i] <= 57 {
                    if count < 9 { frac += Double(b[i] - 48) * scale }
                    scale /= 10
                    count += 1
                    i += 1
                }
                guard count > 0 else { return nil }
                second += frac
            }
        }
        var offset = defaultOffsetSeconds
        if i < n, b[i] == 32 { i += 1 }
        if i < n {
            let c = b[i]
            if c == 90 || c == 122 {
                offset = 0
                i += 1
            } else if c == 43 || c == 45 {
                i += 1
                guard let oh = digits(2) else { return nil }
                if i < n, b[i] == 58 { i += 1 }
                let om = digits(2) ?? 0
                // RFC 3339's numeric offset: hours 00–23, minutes 00–59 (`+99:00` is no zone).
                guard oh <= 23, om <= 59 else { return nil }
                let magnitude = Int(oh * 3600 + om * 60)
                offset = c == 45 ? -magnitude : magnitude
            } else {
                return nil
            }
        }
        guard i == n else { return nil }
        guard
            let local = CivilDate.seconds(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Timestamp(local - Double(offset))
    }
}
