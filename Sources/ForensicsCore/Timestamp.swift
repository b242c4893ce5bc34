/// A point in time, in seconds since 1970-01-01 UTC, as written by one source.
///
/// Sources keep their own clock: the correlator adds an offset per source before comparing them.
/// Conversion to and from text is hand-written (no `DateFormatter`) so that output never depends on
/// the machine's locale or time zone.
public struct Timestamp: Hashable, Comparable, Sendable, Codable {
    public var secondsSince1970: Double

    /// Years 0001–9999: what the text forms can express; anything else is not a date.
    public static func isPlausible(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds > -62_135_596_800 && seconds < 253_402_300_800
    }

    public init(_ secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    public static func + (lhs: Timestamp, rhs: Double) -> Timestamp {
        Timestamp(lhs.secondsSince1970 + rhs)
    }

    public static func - (lhs: Timestamp, rhs: Timestamp) -> Double {
        lhs.secondsSince1970 - rhs.secondsSince1970
    }

    /// `2026-11-21T10:07:12.345Z`: ISO 8601, UTC, milliseconds (the JSON report's form).
    public var iso8601: String {
        let totalMillis = (secondsSince1970 * 1000).rounded()
        guard totalMillis.isFinite, abs(totalMillis) < 253_402_300_800_000 else { return "invalid-date" }
        let millis = Int64(totalMillis)
        var days = millis / 86_400_000
        var rest = millis % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilDate.fromDays(days)
        let hour = rest / 3_600_000
        let minute = (rest / 60_000) % 60
        let second = (rest / 1000) % 60
        let ms = rest % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(ms, 3))Z"
    }

    /// The ISO 8601 form for a session's time basis: UTC with `Z`, or — for device local times
    /// in an unknown zone — the same digits without a zone designator (ISO 8601 local time),
    /// so that nobody reads them as UTC.
    public func iso8601(_ basis: TimeBasis) -> String {
        let s = iso8601
        return basis == .utc || !s.hasSuffix("Z") ? s : String(s.dropLast())
    }

    /// `10:07:12.345` (UTC), for compact timelines.
    public var clockTime: String {
        let s = iso8601
        guard s.count >= 23 else { return s }
        return String(s.dropFirst(11).prefix(12))
    }
}

func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(abs(value))
    let sign = value < 0 ? "-" : ""
    return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms).
public enum CivilDate {
    /// Days since 1970-01-01 of a calendar date; nil when the fields are out of range.
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64? {
        guard (1...12).contains(month), (1...31).contains(day), (-100_000...100_000).contains(year) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func fromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// Seconds since 1970 of a wall-clock date and time; nil when any field is out of range.
    public static func seconds(
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Double
    ) -> Double? {
        guard let days = days(year: year, month: month, day: day),
            (0...24).contains(hour), (0...59).contains(minute), second >= 0, second < 61
        else { return nil }
        return Double(days * 86_400 + hour * 3600 + minute * 60) + second
    }
}
