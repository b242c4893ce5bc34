import ForensicsCore

/// What one parser made of one input file: its records and its diagnostics.
public struct ParseResult: Sendable {
    public var file: String
    public var format: InputFormat
    public var records: [Record] = []
    public var diagnostics: [Diagnostic] = []
    /// Fully parsed playlists (captures and HAR bodies), for `parse` and the playlist rules.
    public var playlists: [Playlist] = []
    /// The clock the file's times are written in.
    public var clock: SourceClock = .utc
    /// What wrote the file, when the content tells (`KTVHTTPCache 1.1.x (…why…)`), for the inputs table.
    public var producer: String?
    /// For a KTVHTTPCache log: the library releases that could have written it, and why.
    public var libraryVersion: KTVHTTPCacheVersionEvidence?

    /// Diagnostics not kept because the file already had `maxDiagnostics` (counted, not stored:
    /// a gigabyte of bad lines must not become a gigabyte of diagnostics).
    public var unkeptDiagnostics = 0
    /// Set when the file's record limit stopped the reading.
    public var stoppedAtRecordLimit = false

    public static let maxDiagnostics = 1000

    public init(file: String, format: InputFormat) {
        self.file = file
        self.format = format
    }

    /// Adds a diagnostic, or counts it once the file has `maxDiagnostics`.
    public mutating func diagnose(_ diagnostic: Diagnostic) {
        if diagnostics.count < Self.maxDiagnostics {
            diagnostics.append(diagnostic)
        } else {
            unkeptDiagnostics = unkeptDiagnostics.addingReportingOverflow(1).partialValue
        }
    }

    public mutating func diagnose(contentsOf list: [Diagnostic]) {
        for d in list { diagnose(d) }
    }

    /// Whether the file holds `limit` records, and if so says so once, at the line where reading
    /// stopped: the rest of the file is not read.
    public mutating func reachedRecordLimit(_ limit: Int, line: Int) -> Bool {
        guard records.count >= limit else { return false }
        if !stoppedAtRecordLimit {
            stoppedAtRecordLimit = true
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: file, line: line), .warning,
                    "stopped after \(limit) records: the rest of the file is not read (limit: --max-records-per-file)"))
        }
        return true
    }
}
