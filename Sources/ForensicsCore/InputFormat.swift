/// The input formats the tool recognises, with the stable identifiers used by `--log-format`,
/// the JSON report's `inputs[].format` and `sessions[].sources`.
public enum InputFormat: String, Sendable, Codable, CaseIterable, Comparable {
    case metricEvents = "metric-events"
    case accessLog = "access-log"
    case errorLog = "error-log"
    case cacheLog = "cache-log"
    case playlist = "playlist-capture"
    case har = "har-capture"

    public static func < (lhs: InputFormat, rhs: InputFormat) -> Bool { lhs.rawValue < rhs.rawValue }

    public var displayName: String {
        switch self {
        case .metricEvents: "AVMetrics event dump (JSON)"
        case .accessLog: "AVPlayer access log (W3C extended)"
        case .errorLog: "AVPlayer error log (W3C extended)"
        case .cacheLog: "KTVHTTPCache full-path log"
        case .playlist: "HLS playlist (m3u8)"
        case .har: "HTTP Archive (HAR 1.2)"
        }
    }
}
