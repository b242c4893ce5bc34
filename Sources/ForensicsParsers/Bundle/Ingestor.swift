import Foundation
import ForensicsCore

/// Reads one bundle member end to end: decompresses it if its bytes are gzip, recognises its
/// format (or takes the forced one), and runs the matching parser. Never throws: anything that
/// goes wrong is a diagnostic on the member, and whatever was read before the problem is kept.
public struct Ingestor: Sendable {
    public var limits: BundleLimits
    public var forcedFormat: InputFormat?
    /// Seconds east of UTC for sources that write local time without an offset (access logs),
    /// when the user stated it; nil when unknown (then clock alignment may still find it).
    public var timezoneOffset: Int?
    /// A named device zone (`--timezone Europe/Berlin`), applied with daylight saving per row.
    public var timeZone: TimeZone?
    /// The redaction stage, run on every outcome before it leaves the ingestor (on by default).
    public var redactor = Redactor()

    public init(limits: BundleLimits = BundleLimits(), forcedFormat: InputFormat? = nil, timezoneOffset: Int? = nil) {
        self.limits = limits
        self.forcedFormat = forcedFormat
        self.timezoneOffset = timezoneOffset
    }

    /// The result of one member; `format` is nil when it was not recognised.
    public struct Outcome: Sendable {
        public var path: String
        public var format: InputFormat?
        public var result: ParseResult?
        public var diagnostics: [Diagnostic]
    }

    /// Reads, parses and redacts one member.
    public func ingest(_ member: BundleMember) -> Outcome {
        redactor.redact(read(member))
    }

    func read(_ member: BundleMember) -> Outcome {
        var diagnostics: [Diagnostic] = []
        let location = SourceLocation(file: member.path, line: 0)
        do {
            var raw = PeekableByteSource(try member.open())
            let magic = try raw.peek(2)
            if magic.isEmpty {
                diagnostics.append(Diagnostic(location, .warning, "empty file"))
                return Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
            }
            var source: PeekableByteSource
            if GzipByteSource.isGzip(magic) {
                source = PeekableByteSource(try GzipByteSource(raw, name: member.path, limit: limits.maxDecompressedSize))
            } else {
                source = raw
            }
            var prefix: [UInt8]
            do {
                prefix = try source.peek(FormatSniffer.sniffLength)
            } catch {
                diagnostics.append(Diagnostic(location, .error, "\(error)"))
                return Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
            }
            if CROnlyLineEndingSource.applies(to: prefix) {
                diagnostics.append(Diagnostic(location, .info, "lines end in CR alone (classic Mac): read as line breaks"))
                source = PeekableByteSource(CROnlyLineEndingSource(source))
                prefix = try source.peek(FormatSniffer.sniffLength)
            }
            if prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) {
                diagnostics.append(Diagnostic(location, .error, "UTF-16 text is not supported: convert the file to UTF-8"))
                return Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
            }
            guard let format = forcedFormat ?? FormatSniffer.sniff(prefix) else {
                diagnostics.append(Diagnostic(location, .warning, "format not recognised: not used (force one with --log-format)"))
                return Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
            }
            var result = try parse(&source, format: format, path: member.path, diagnostics: &diagnostics)
            result.diagnostics.insert(contentsOf: diagnostics, at: 0)
            return Outcome(path: member.path, format: format, result: result, diagnostics: [])
        } catch {
            diagnostics.append(Diagnostic(location, .error, "\(error)"))
            return Outcome(path: member.path, format: nil, result: nil, diagnostics: diagnostics)
        }
    }

    func parse(_ source: inout PeekableByteSource, format: InputFormat, path: String, diagnostics: inout [Diagnostic]) throws
        -> ParseResult
    {
        if format == .har {
            do {
                return try HARParser(file: path, maxDocumentSize: limits.maxDecompressedSize).parse(&source)
            } catch {
                var r = ParseResult(file: path, format: .har)
                r.diagnostics.append(Diagnostic(SourceLocation(file: path, line: 0), .error, "\(error)"))
                return r
            }
        }
        var reader = LineReader(source, maxLineLength: limits.maxLineLength)
        var result: ParseResult
        switch format {
        case .metricEvents:
            result = try MetricEventParser(file: path).parse(lines: &reader)
        case .accessLog, .errorLog:
            var parser = ExtendedLogParser(file: path, timezoneOffset: timezoneOffset)
            parser.timeZone = timeZone
            result = try parser.parse(lines: &reader, format: format)
        case .cacheLog:
            result = try CacheLogParser(file: path).parse(lines: &reader)
        case .playlist:
            let parsed = try PlaylistParser(file: path, url: nil).parse(lines: &reader)
            result = ParseResult(file: path, format: .playlist)
            result.diagnostics = parsed.diagnostics
            result.playlists = [parsed.playlist]
            result.records.append(
                Record(time: nil, location: SourceLocation(file: path, line: 1), format: .playlist, sessionID: nil,
                       payload: .playlist(parsed.playlist.snapshot)))
        case .har:
            result = ParseResult(file: path, format: .har)
        }
        if let error = reader.sourceError {
            result.diagnostics.append(
                Diagnostic(SourceLocation(file: path, line: reader.linesRead + 1), .error, "\(error)"))
        }
        return result
    }
}

extension Redactor {
    /// The redaction stage for one member's outcome: its name (a saved `index.m3u8?token=…`),
    /// every record and every diagnostic.
    public func redact(_ outcome: consuming Ingestor.Outcome) -> Ingestor.Outcome {
        guard enabled else { return outcome }
        var out = outcome
        out.path = redact(out.path)
        out.diagnostics = out.diagnostics.map(redact)
        if var result = out.result {
            out.result = nil  // the records are redacted in place, not copied
            let file = redact(result.file)
            result.file = file
            for i in result.records.indices {
                var r = redact(result.records[i])
                r.location.file = file
                result.records[i] = r
            }
            result.diagnostics = result.diagnostics.map(redact)
            result.producer = result.producer.map(redact)
            out.result = result
        }
        return out
    }
}
