import ForensicsCore
import Foundation

/// The reader of every declared server log (`ServerLogVendor`): one field-map reader for W3C and
/// JSON-lines logs, each vendor a declaration of field names, units and time semantics. Rows
/// become `ServerRequest` records with no session of their own; the correlator joins them to the
/// bundle's sessions.
///
/// A row that cannot be placed (no time, no path) is diagnosed and skipped; a row with fewer
/// columns than `#Fields:` names (a truncated write) keeps what it has, with a diagnostic.
package enum ServerLogFormat<Vendor: ServerLogVendor>: FormatReader {
    package static var declaration: FormatDeclaration {
        let v = Vendor.declaration
        return FormatDeclaration(
            format: v.format, displayName: v.displayName, semantics: v.semantics, summary: v.summary,
            samples: v.samples, sniffPriority: -1)
    }

    package static func sniff(_ text: SniffText) -> Bool {
        let v = Vendor.declaration
        switch v.layout {
        case .w3c:
            guard case .fields(let line) = text.headerDirective else { return false }
            let names = Set(ServerRowReader.fieldNames(line[...]).map { $0.lowercased() })
            return v.evidence.allSatisfy { names.contains($0.lowercased()) }
        case .jsonLines:
            guard text.first == UInt8(ascii: "{"), case .object? = try? JSONValue.parse(text.firstLine),
                let object = try? JSONValue.parse(text.firstLine)
            else { return false }
            return v.evidence.allSatisfy { ServerRowReader.value(object, $0) != nil }
        }
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try context.readLines(&source) { lines in
            var reader = ServerRowReader(declaration: Vendor.declaration, file: context.path)
            while let line = try lines.next() {
                if reader.result.reachedRecordLimit(context.maxRecords, line: line.number) { break }
                reader.read(line)
            }
            reader.finish()
            return reader.result
        }
    }
}
