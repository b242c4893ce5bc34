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
