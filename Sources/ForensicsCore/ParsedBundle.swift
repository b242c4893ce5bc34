/// What `parse` shows: each file of a bundle with its records and diagnostics, before correlation.
public struct ParsedBundle: Sendable {
    public struct File: Sendable {
        public var path: String
        /// Nil when the file was not recognised.
        public var format: InputFormat?
        public var records: [Record]
        public var diagnostics: [Diagnostic]
        /// How the file's times read: device local times of an unknown zone are shown without a
        /// `Z`, never as UTC.
        public var timeBasis: TimeBasis = .utc

        public init(path: String, format: InputFormat?, records: [Record], diagnostics: [Diagnostic]) {
            self.path = path
            self.format = format
            self.records = records
            self.diagnostics = diagnostics
        }
    }

    public var files: [File]
    /// Problems of the bundle itself (an unreadable archive, a limit reached).
    public var diagnostics: [Diagnostic]

    public init(files: [File], diagnostics: [Diagnostic]) {
        self.files = files
        self.diagnostics = diagnostics
    }
}
