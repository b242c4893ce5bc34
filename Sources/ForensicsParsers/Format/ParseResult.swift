import ForensicsCore

/// What one parser made of one input file: its records and its diagnostics.
package struct ParseResult: Sendable {
    package var file: String
    package var format: InputFormat
    package var records: [Record] = []
    package var diagnostics: [Diagnostic] = []
    /// Fully parsed playlists (captures and HAR bodies), for `parse` and the playlist rules.
    package var playlists: [Playlist] = []
    /// The clock the file's times are written in.
    package var clock: SourceClock = .utc
    /// The device's zone, seconds east of UTC, when the file's time stamps tell it (an NSLog
    /// console prefix carries the device's offset).
    package var deviceZone: Int?
    /// What wrote the file, when the content tells (`KTVHTTPCache 1.1.x (…why…)`), for the inputs table.
    package var producer: String?
    /// For a KTVHTTPCache log: the library releases that could have written it, and why.
    package var libraryVersion: KTVHTTPCacheVersionEvidence?

    /// Diagnostics not kept because the file already had `maxDiagnostics` (counted, not stored:
    /// a gigabyte of bad lines must not become a gigabyte of diagnostics).
    package var unkeptDiagnostics = 0
    /// Set when the file's record limit stopped the reading.
    package var stoppedAtRecordLimit = false
    /// A server log read through a `ServerRowFilter`: every row it held, kept or not.
    package var serverCoverage: ServerLogCoverage?
    /// Why a file its format claimed holds nothing to read after all (a HAR capture without a
    /// media request): it is then listed as not read, with this reason, and contributes nothing.
    package var notRead: NotRead?

    package static let maxDiagnostics = 1000

    package init(file: String, format: InputFormat) {
        self.file = file
        self.format = format
    }

    /// Adds a diagnostic, or counts it once the file has `maxDiagnostics`.
    package mutating func diagnose(_ diagnostic: Diagnostic) {
        if diagnostics.count < Self.maxDiagnostics {
            diagnostics.append(diagnostic)
        } else {
            unkeptDiagnostics = unkeptDiagnostics.addingReportingOverflow(1).partialValue
        }
    }

    package mutating func diagnose(contentsOf list: [Diagnostic]) {
        for d in list { diagnose(d) }
    }

    /// Whether the file holds `limit` records, and if so says so once, at the line where reading
    /// stopped: the rest of the file is not read.
    /// `pending`: records a parser holds back to write later (a proxy log's open runs), counted
    /// as written.
    package mutating func reachedRecordLimit(_ limit: Int, line: Int, pending: Int = 0) -> Bool {
        let (held, overflow) = records.count.addingReportingOverflow(max(0, pending))
        guard overflow || held >= limit else { return false }
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
