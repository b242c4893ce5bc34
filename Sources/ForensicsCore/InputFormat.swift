/// An input format's stable identifier, used by `--log-format`, the JSON report's
/// `inputs[].format` and `sessions[].sources`.
///
/// A struct rather than an enum so that a format is declared where it is read (its folder in
/// `ForensicsParsers` and one line of `FormatRegistry`), not also here: rules and reports name
/// the built-in ones below when they need to tell sources apart, and any other format passes
/// through the pipeline under its own identifier. What a format *is* (role, clock, capabilities)
/// is declared with it (`SourceSemantics`), never listed here.
public struct InputFormat: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ identifier: String) { self.rawValue = identifier }

    public static let metricEvents = InputFormat("metric-events")
    public static let accessLog = InputFormat("access-log")
    public static let errorLog = InputFormat("error-log")
    public static let cacheLog = InputFormat("cache-log")
    public static let playlist = InputFormat("playlist-capture")
    public static let har = InputFormat("har-capture")
    public static let deviceConsole = InputFormat("device-console")

    public static func < (lhs: InputFormat, rhs: InputFormat) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}
