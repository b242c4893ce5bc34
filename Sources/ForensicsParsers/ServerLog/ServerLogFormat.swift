import ForensicsCore
import Foundation

/// The reader of every declared server log: one field-map reader for W3C and JSON-lines logs,
/// each vendor a `ServerLogVendor` whose `vendor` declaration gives field names, units and time
/// semantics. Rows become `ServerRequest` records with no session of their own; the correlator
/// joins them to the bundle's sessions.
///
/// A row that cannot be placed (no time, no path) is diagnosed and skipped; a row with fewer
/// columns than `#Fields:` names (a truncated write) keeps what it has, with a diagnostic.
///
/// A protocol extension rather than a generic reader type: the registry lists each vendor's own
/// type, and no generic metadata is instantiated when it is built (that cost 1.3 M instructions
/// at every start).
extension ServerLogVendor {
    package static var declaration: FormatDeclaration {
        let v = vendor
        return FormatDeclaration(
            format: v.format, displayName: v.displayName, semantics: v.semantics, summary: v.summary,
            samples: v.samples, sniffPriority: -1)
    }

    package static func sniff(_ text: SniffText) -> Bool {
        let v = vendor
        switch v.layout {
        case .w3c:
            guard case .fields(let line) = text.headerDirective else { return false }
            let names = Set(ServerRowReader.fieldNames(line[...]).map { $0.lowercased() })
            return v.evidence.allSatisfy { names.contains($0.lowercased()) }
        case .combined:
            // The first line whole, in the combined shape, with a time that reads.
            return ServerRowReader.combinedFields(text.firstLine[...]) != nil
        case .template, .delimited:
            return v.firstLineReads(text)
        case .jsonLines:
            guard text.first == UInt8(ascii: "{"), case .object? = try? JSONValue.parse(text.firstLine),
                let object = try? JSONValue.parse(text.firstLine)
            else { return false }
            return v.evidence.allSatisfy { ServerRowReader.value(object, $0) != nil }
        }
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try vendor.read(&source, context: context)
    }
}

extension ServerLogDeclaration {
    /// Reads a whole file of this declaration's rows.
    package func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try context.readLines(&source) { lines in
            var reader = ServerRowReader(declaration: self, file: context.path)
            reader.filter = context.serverRowFilter
            reader.sink = context.serverRowSink
            while let line = try lines.next() {
                if reader.result.reachedRecordLimit(context.maxRecords, line: line.number) { break }
                reader.read(line)
            }
            reader.finish()
            return reader.result
        }
    }

    /// One stored row read again (`ServerRowStore`): under its `#Fields:` line, at its line.
    package func reread(header: String?, raw: String, line: Int, file: String) -> Record? {
        var reader = ServerRowReader(declaration: self, file: file)
        if let header { reader.read(LineReader.Line(number: 0, bytes: Array(header.utf8)[...], truncated: false)) }
        reader.read(LineReader.Line(number: line, bytes: Array(raw.utf8)[...], truncated: false))
        return reader.result.records.first
    }

    /// Whether a file's first line reads as one of this declaration's rows, with a time and a
    /// path: the positive evidence for a layout the operator gave (nothing in such a line names
    /// its fields).
    package func firstLineReads(_ text: SniffText) -> Bool {
        let line = text.firstLine
        guard !line.isEmpty else { return false }
        var reader = ServerRowReader(declaration: self, file: "")
        reader.read(LineReader.Line(number: 1, bytes: line[...], truncated: false))
        guard reader.result.records.count == 1, case .serverRequest(let r)? = reader.result.records.first?.payload
        else { return false }
        // A row of a delimited layout has exactly the columns given (a log of another layout
        // split at tabs has some other number).
        if case .delimited(_, let columns) = layout,
            line.split(separator: 0x09, omittingEmptySubsequences: false).count != columns.count
        {
            return false
        }
        return r.status != nil || r.clientClosed
    }
}
