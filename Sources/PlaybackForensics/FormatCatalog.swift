import ForensicsParsers

/// The input formats the analyzer reads, as `playback-forensics formats` lists them.
public enum FormatCatalog {
    public struct Entry: Sendable {
        public var format: InputFormat
        public var displayName: String
        public var summary: String
        /// Sample texts of the format (each checked by a test to yield its records).
        public var samples: [String]
    }

    public static var all: [Entry] {
        FormatRegistry.standard.declarations.map {
            Entry(format: $0.format, displayName: $0.displayName, summary: $0.summary, samples: $0.samples.map(\.text))
        }
    }

    /// The format with this identifier (`--log-format`), if the analyzer reads it.
    public static func format(named id: String) -> InputFormat? {
        FormatRegistry.standard.formats.first { $0.rawValue == id }
    }
}
