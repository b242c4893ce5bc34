import ForensicsParsers

/// The input formats the analyzer reads, as `playback-forensics formats` lists them.
public enum FormatCatalog {
    public struct Entry: Sendable {
        public var format: InputFormat
        public var displayName: String
        public var summary: String
        /// Sample texts of the format (each checked by a test to yield its records).
        public var samples: [String]
        /// What the source is: role, clock, what a row's time means, what it can measure.
        public var semantics: SourceSemantics

        /// One line: `player · device-local clock · time = period-start, 1 s · stall-counts, …`.
        public var semanticsLine: String {
            let s = semantics
            let resolution = s.resolution >= 1 ? "\(Int(s.resolution)) s" : "\(Int((s.resolution * 1000).rounded())) ms"
            let can = s.capabilities.names
            return
                "\(s.role.rawValue) · \(s.clock.rawValue) clock · time = \(s.anchor.rawValue), \(resolution)"
                + (s.role.makesSessions ? "" : " · joined to sessions, never one")
                + " · measures: \(can.isEmpty ? "nothing" : can.joined(separator: ", "))"
        }
    }

    public static var all: [Entry] {
        FormatRegistry.standard.declarations.map {
            Entry(
                format: $0.format, displayName: $0.displayName, summary: $0.summary, samples: $0.samples.map(\.text),
                semantics: $0.semantics)
        }
    }

    /// The format with this identifier (`--log-format`), if the analyzer reads it.
    public static func format(named id: String) -> InputFormat? {
        FormatRegistry.standard.formats.first { $0.rawValue == id }
    }
}
