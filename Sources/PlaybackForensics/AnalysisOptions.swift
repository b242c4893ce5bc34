import ForensicsParsers
import Foundation

/// How a bundle is read: limits, a forced format, the time zone of sources that write local time,
/// and whether secrets are redacted (on unless turned off).
public struct AnalysisOptions: Sendable {
    public var limits = BundleLimits()
    /// Read every file as this format instead of recognising it (`--log-format`).
    public var forcedFormat: InputFormat?
    /// Seconds east of UTC for access/error logs, when the user stated the zone.
    public var timezoneOffset: Int?
    /// A named zone (`Europe/Berlin`), applied with daylight saving per row.
    public var timeZone: TimeZone?
    /// Redact tokens, signatures, keys and credentials from every record (the default).
    public var redact = true
    /// Layouts of server logs whose lines do not name their fields (`--cdn-log-format`).
    public var serverLogLayouts: [ServerLogLayout] = []

    public init() {}

    var ingestor: Ingestor {
        var ingestor = Ingestor(limits: limits, forcedFormat: forcedFormat, timezoneOffset: timezoneOffset)
        ingestor.timeZone = timeZone
        ingestor.redactor = Redactor(enabled: redact)
        ingestor.registry.configured = serverLogLayouts.map(\.declaration)
        return ingestor
    }
}
