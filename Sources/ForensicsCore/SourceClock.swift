/// Which clock a source writes its times in.
///
/// Metric events, HAR captures and proxy logs write UTC (their own clock may still be skewed).
/// AVPlayer access and error logs write the device's local time with no zone: unless the user
/// states the zone (`--timezone`) or clock alignment against a UTC source finds it, their times
/// are local times in an unknown zone and must not be printed as if they were UTC.
public enum SourceClock: String, Sendable, Hashable, Codable {
    case utc
    /// Device local time; the zone was stated by the user, so times were converted to UTC.
    case deviceLocalZoneStated = "device-local-zone-stated"
    /// Device local time in an unknown zone: times are read as if UTC until aligned.
    case deviceLocalZoneUnknown = "device-local-zone-unknown"
}

/// How a session's times are to be read: as UTC, or as device local times in an unknown zone
/// (only access/error logs, nothing to align them to, no `--timezone`).
public enum TimeBasis: String, Sendable, Hashable, Codable {
    case utc
    case deviceLocalZoneUnknown = "device-local-zone-unknown"

    /// The words a report uses next to its times.
    public var label: String {
        switch self {
        case .utc: "UTC"
        case .deviceLocalZoneUnknown: "device local time, zone unknown"
        }
    }
}

/// A UTC offset in seconds as `UTC−05:00`, `UTC+05:30`.
public enum ZoneFormat {
    public static func text(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "−" : "+"
        let m = abs(seconds) / 60
        let h = m / 60
        let mm = m % 60
        return "UTC\(sign)\(h < 10 ? "0" : "")\(h):\(mm < 10 ? "0" : "")\(mm)"
    }
}
