import ForensicsCore

/// Reads AVMetrics event dumps (`shared/spec/metric-event-dump.md`): JSON Lines, a JSON array, or
/// `{"events": [...]}`, each event mapped to a typed record with its file and line.
public struct MetricEventParser {
    public let file: String
    /// The largest JSON document (array or object form) read into memory.
    public let maxDocumentSize: Int

    public init(file: String, maxDocumentSize: Int = 512 << 20) {
        self.file = file
        self.maxDocumentSize = maxDocumentSize
    }

    public func parse(lines reader: inout LineReader) throws -> ParseResult {
        var result = ParseResult(file: file, format: .metricEvents)
        var mapper = MetricEventMapper(file: file)
        var document: [UInt8]?
        var firstLine = 0
        while let line = try reader.next() {
            if var doc = document {
                document = nil
                doc.append(contentsOf: line.bytes)
                doc.append(10)
                guard doc.count <= maxDocumentSize else {
                    result.diagnostics.append(
                        Diagnostic(
                            SourceLocation(file: file, line: firstLine), .error,
                            "JSON document larger than \(maxDocumentSize) bytes"))
                    return result
                }
                document = doc
                continue
            }
            guard let first = line.bytes.first(where: { $0 != 32 && $0 != 9 }) else { continue }
            if line.truncated {
                result.diagnostics.append(
                    Diagnostic(SourceLocation(file: file, line: line.number), .error, "line too long, cut and skipped"))
                continue
            }
            if result.records.isEmpty, mapper.eventCount == 0, first == 91 || first == 123,
                !Self.isCompleteEventLine(line.bytes)
            {
                // Not JSON Lines: a whole document (array or {"events": …}) starting here.
                firstLine = line.number
                document = Array(repeating: 10, count: line.number - 1) + Array(line.bytes) + [10]
                continue
            }
            mapper.mapLine(line.bytes, line: line.number, into: &result)
        }
        if let doc = document {
            let scan = JSONDocumentScanner.scan(doc, arrayPaths: [[], ["events"]])
            mapper.defaultSessionID = scan.topLevelStrings["sessionID"]
            for element in scan.elements {
                mapper.mapLine(doc[element.range], line: element.line, into: &result)
            }
            if let error = scan.error {
                result.diagnostics.append(Diagnostic(SourceLocation(file: file, line: firstLine), .error, error))
            }
        }
        mapper.finish(into: &result)
        return result
    }

    /// A JSON Lines event: one object on the line that parses and is not the `{"events": …}` wrapper.
    static func isCompleteEventLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.first(where: { $0 > 32 }) == 123, let value = try? JSONValue.parse(bytes) else { return false }
        return value["events"] == nil
    }
}
