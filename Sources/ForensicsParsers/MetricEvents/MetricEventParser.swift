import ForensicsCore

/// Reads AVMetrics event dumps (`shared/spec/metric-event-dump.md`): JSON Lines, a JSON array, or
/// `{"events": [...]}`, each event mapped to a typed record with its file and line.
package struct MetricEventParser {
    package let file: String
    /// The largest JSON document (array or object form) read into memory.
    package let maxDocumentSize: Int

    /// Most records read from the file (the bundle's budget decides).
    package var maxRecords = Int.max

    package init(file: String, maxDocumentSize: Int = 512 << 20) {
        self.file = file
        self.maxDocumentSize = maxDocumentSize
    }

    package func parse(lines reader: inout LineReader) throws -> ParseResult {
        var result = ParseResult(file: file, format: .metricEvents)
        var mapper = MetricEventMapper(file: file)
        var document: [UInt8]?
        var firstLine = 0
        let file = file
        let maxDocumentSize = maxDocumentSize
        let maxRecords = maxRecords
        // Thrown to stop reading: the document is over its size limit, or the file has its records.
        struct StopReading: Error {}
        do {
            try reader.forEachLine { bytes, number, truncated in
                if document == nil, result.reachedRecordLimit(maxRecords, line: number) { throw StopReading() }
                if var doc = document {
                    document = nil
                    doc.append(contentsOf: bytes)
                    doc.append(10)
                    guard doc.count <= maxDocumentSize else {
                        result.diagnose(
                            Diagnostic(
                                SourceLocation(file: file, line: firstLine), .error,
                                "JSON document larger than \(maxDocumentSize) bytes"))
                        throw StopReading()
                    }
                    document = doc
                    return
                }
                guard let first = bytes.first(where: { $0 != 32 && $0 != 9 }) else { return }
                if truncated {
                    result.diagnose(
                        Diagnostic(SourceLocation(file: file, line: number), .error, "line too long, cut and skipped"))
                    return
                }
                // Only the first line (and array lines) is classified here: parsing every event
                // line twice would halve the speed of the common JSON Lines case; later batch lines
                // are recognised by the mapper.
                if first == 91 || (first == 123 && result.records.isEmpty && mapper.eventCount == 0),
                    let kind = Self.lineKind(bytes)
                {
                    switch kind {
                    case .event:
                        break
                    case .document:
                        // A whole `{"events": […]}` batch (or array) on one line: read it, and go
                        // on line by line — several batches may follow.
                        Self.mapDocument(
                            Array(bytes), firstLine: number, lineOffset: number - 1, mapper: &mapper, into: &result)
                        return
                    case .incomplete where result.records.isEmpty && mapper.eventCount == 0:
                        // Not JSON Lines: a whole document (array or {"events": …}) starting here.
                        firstLine = number
                        document = Array(repeating: 10, count: number - 1) + Array(bytes) + [10]
                        return
                    case .incomplete:
                        break
                    }
                }
                if mapper.mapLine(bytes, line: number, into: &result) {
                    // A later `{"events": […]}` batch on one line.
                    Self.mapDocument(
                        Array(bytes), firstLine: number, lineOffset: number - 1, mapper: &mapper, into: &result)
                }
            }
        } catch is StopReading {
            return result
        }
        if let doc = document {
            // Read as one document; if that fails, read the same bytes as JSON Lines (a first
            // line that was not a valid event — two glued events, a cut line — must not cost
            // the good lines after it). The reading that keeps more events wins.
            var asDocument = (mapper, result)
            let scanned = Self.mapDocument(
                doc, firstLine: firstLine, lineOffset: 0, mapper: &asDocument.0, into: &asDocument.1)
            if scanned {
                (mapper, result) = asDocument
            } else {
                var asLines = (mapper, result)
                var start = 0
                var line = 1
                doc.withUnsafeBufferPointer { buffer in
                    for i in buffer.indices where buffer[i] == 10 {
                        let bytes = UnsafeBufferPointer(rebasing: buffer[start..<i])
                        if bytes.contains(where: { $0 > 32 }) { asLines.0.mapLine(bytes, line: line, into: &asLines.1) }
                        start = i + 1
                        line += 1
                    }
                }
                if asLines.1.records.count > asDocument.1.records.count {
                    (mapper, result) = asLines
                    result.diagnose(
                        Diagnostic(
                            SourceLocation(file: file, line: firstLine), .warning,
                            "not one JSON document: read line by line (JSON Lines)"))
                } else {
                    (mapper, result) = asDocument
                }
            }
        }
        mapper.finish(into: &result)
        return result
    }

    enum LineKind { case event, document, incomplete }

    /// What a line starting with `{` or `[` is: one event, a whole document (the `{"events": …}`
    /// wrapper or an array), or the start of a document spread over lines (or a broken line).
    static func lineKind(_ bytes: UnsafeBufferPointer<UInt8>) -> LineKind? {
        guard let value = try? JSONByteParser.parse(bytes) else { return .incomplete }
        if case .array = value { return .document }
        return value["events"] == nil ? .event : .document
    }

    /// Maps the events of one JSON document; false when the document is broken.
    @discardableResult
    static func mapDocument(
        _ doc: [UInt8], firstLine: Int, lineOffset: Int, mapper: inout MetricEventMapper, into result: inout ParseResult
    ) -> Bool {
        let scan = JSONDocumentScanner.scan(doc, arrayPaths: [[], ["events"]])
        mapper.defaultSessionID = scan.topLevelStrings["sessionID"]
        for element in scan.elements {
            _ = doc.withUnsafeBufferPointer {
                mapper.mapLine(
                    UnsafeBufferPointer(rebasing: $0[element.range]), line: element.line + lineOffset, into: &result)
            }
        }
        if let error = scan.error {
            result.diagnose(Diagnostic(SourceLocation(file: mapper.file, line: firstLine), .error, error))
            return false
        }
        return true
    }
}
