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
        let file = file
        let maxDocumentSize = maxDocumentSize
        // Thrown to stop reading once the document is over the limit.
        struct DocumentTooLarge: Error {}
        do {
            try reader.forEachLine { bytes, number, truncated in
                if var doc = document {
                    document = nil
                    doc.append(contentsOf: bytes)
                    doc.append(10)
                    guard doc.count <= maxDocumentSize else {
                        result.diagnostics.append(
                            Diagnostic(
                                SourceLocation(file: file, line: firstLine), .error,
                                "JSON document larger than \(maxDocumentSize) bytes"))
                        throw DocumentTooLarge()
                    }
                    document = doc
                    return
                }
                guard let first = bytes.first(where: { $0 != 32 && $0 != 9 }) else { return }
                if truncated {
                    result.diagnostics.append(
                        Diagnostic(SourceLocation(file: file, line: number), .error, "line too long, cut and skipped"))
                    return
                }
                if result.records.isEmpty, mapper.eventCount == 0, first == 91 || first == 123,
                    !Self.isCompleteEventLine(bytes)
                {
                    // Not JSON Lines: a whole document (array or {"events": …}) starting here.
                    firstLine = number
                    document = Array(repeating: 10, count: number - 1) + Array(bytes) + [10]
                    return
                }
                mapper.mapLine(bytes, line: number, into: &result)
            }
        } catch is DocumentTooLarge {
            return result
        }
        if let doc = document {
            let scan = JSONDocumentScanner.scan(doc, arrayPaths: [[], ["events"]])
            mapper.defaultSessionID = scan.topLevelStrings["sessionID"]
            for element in scan.elements {
                doc.withUnsafeBufferPointer {
                    mapper.mapLine(UnsafeBufferPointer(rebasing: $0[element.range]), line: element.line, into: &result)
                }
            }
            if let error = scan.error {
                result.diagnostics.append(Diagnostic(SourceLocation(file: file, line: firstLine), .error, error))
            }
        }
        mapper.finish(into: &result)
        return result
    }

    /// A JSON Lines event: one object on the line that parses and is not the `{"events": …}` wrapper.
    static func isCompleteEventLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.first(where: { $0 > 32 }) == 123, let value = try? JSONByteParser.parse(bytes) else { return false }
        return value["events"] == nil
    }
}
