import ForensicsCore
import Foundation

/// One input format: how to recognise it and how to read it, declared once in the format's own
/// folder (after lnav's format definitions). `FormatRegistry` lists the readers; ingest, sniffing,
/// `playback-forensics formats`, the fuzz targets and the generic sample test all derive from it,
/// so adding a format is one folder and one registry line.
package protocol FormatReader: Sendable {
    /// Identity, documentation and self-checking samples.
    static var declaration: FormatDeclaration { get }

    /// Whether a file's first bytes (`SniffText`: after a BOM and leading white space) are this
    /// format. Asked in registry order; the first reader that says yes reads the file.
    static func sniff(_ text: SniffText) -> Bool

    /// Reads the whole file. Stops at `context.maxRecords` with a diagnostic
    /// (`ParseResult.reachedRecordLimit`); throws only for a source error that leaves nothing
    /// readable (whatever was read before is then lost with the file, so formats that can keep
    /// records catch their source errors and diagnose them).
    static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult
}

/// A format's identity and documentation: `formats` prints it and the generic test checks every
/// sample yields what it promises.
package struct FormatDeclaration: Sendable {
    package struct Sample: Sendable {
        package var text: String
        /// Record summaries the sample must yield, in order (one per expected record).
        package var expectedSummaries: [String]

        package init(text: String, expectedSummaries: [String]) {
            self.text = text
            self.expectedSummaries = expectedSummaries
        }
    }

    package var format: InputFormat
    package var displayName: String
    /// What the source is: role, clock, what a row's time means, precedence, capabilities.
    package var semantics: SourceSemantics
    package var summary: String
    package var samples: [Sample]
    /// When the format is asked to sniff, relative to the others (lower first; equal ones in
    /// registry order). Only formats whose evidence can overlap another's need one.
    package var sniffPriority: Int

    package init(
        format: InputFormat, displayName: String, semantics: SourceSemantics, summary: String, samples: [Sample],
        sniffPriority: Int = 0
    ) {
        self.format = format
        self.displayName = displayName
        self.semantics = semantics
        self.summary = summary
        self.samples = samples
        self.sniffPriority = sniffPriority
    }

    package var descriptor: SourceDescriptor {
        SourceDescriptor(format: format, displayName: displayName, semantics: semantics)
    }
}

/// Where the rows of a server log go when they are stored rather than kept (`ReadContext`).
package protocol ServerRowSink: AnyObject, Sendable {
    /// A row as read (not yet redacted), with the `#Fields:` line it was read under.
    func take(_ record: Record, header: String?)
}

/// What a reader is given besides the bytes: the file's name, the limits, and the time zone the
/// user stated for sources that write local time.
package struct ReadContext: Sendable {
    package var path: String
    package var limits: BundleLimits
    /// Records this file may still keep: the per-file limit, or what is left of the bundle's.
    package var maxRecords: Int
    /// Seconds east of UTC for local times without an offset, when the user stated it.
    package var timezoneOffset: Int?
    /// A named zone (`--timezone Europe/Berlin`), applied with daylight saving per row.
    package var timeZone: TimeZone?
    /// For server logs given apart from the bundle: the rows worth keeping (the rest counted).
    package var serverRowFilter: ServerRowFilter?
    /// For server logs stored once for many bundles (triage): every row handed here as read,
    /// none kept in the result.
    package var serverRowSink: (any ServerRowSink)?

    package init(
        path: String, limits: BundleLimits = BundleLimits(), maxRecords: Int = .max, timezoneOffset: Int? = nil,
        timeZone: TimeZone? = nil
    ) {
        self.path = path
        self.limits = limits
        self.maxRecords = maxRecords
        self.timezoneOffset = timezoneOffset
        self.timeZone = timeZone
    }

    /// A wall-clock time read as UTC, moved to UTC by a named zone's offset at that moment (with
    /// daylight saving); unchanged without a zone (a stated offset is already in it).
    package static func localToUTC(_ t: Timestamp?, in zone: TimeZone?) -> Timestamp? {
        guard let t, let zone else { return t }
        let seconds = t.secondsSince1970
        let guess = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        let offset = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds - guess)))
        return t + -offset
    }

    /// Reads a line-based format: the reader's lines, and a source error (a truncated gzip, an
    /// unreadable member) diagnosed at the line where reading stopped, after the records read.
    package func readLines(
        _ source: inout PeekableByteSource, _ body: (inout LineReader) throws -> ParseResult
    ) throws -> ParseResult {
        var reader = LineReader(source, maxLineLength: limits.maxLineLength)
        var result = try body(&reader)
        if let error = reader.sourceError {
            result.diagnostics.append(
                Diagnostic(SourceLocation(file: path, line: reader.linesRead + 1), .error, "\(error)"))
        }
        return result
    }
}
