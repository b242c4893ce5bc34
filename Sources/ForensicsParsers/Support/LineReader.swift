/// Splits a byte stream into lines without decoding: LF or CRLF ends a line, a final line without
/// a newline is still a line, a UTF-8 BOM at the very start is dropped.
///
/// A line longer than `maxLineLength` is cut: the reader yields its first `maxLineLength` bytes
/// with `truncated` set, and skips the rest, so a single 1 GB line cannot exhaust memory.
public struct LineReader {
    public struct Line {
        public var number: Int
        public var bytes: ArraySlice<UInt8>
        public var truncated: Bool
        /// The line's text, invalid UTF-8 repaired with U+FFFD.
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    private var source: any ByteSource
    private var buffer: [UInt8] = []
    private var start = 0
    private var lineNumber = 0
    private var atStart = true
    private var ended = false
    private var skippingOverlong = false
    public let maxLineLength: Int
    /// How many lines were returned so far.
    public var linesRead: Int { lineNumber }
    /// True once any line had a CR before its LF (reported once as a spec deviation by some parsers).
    public private(set) var sawCRLF = false
    public private(set) var sawBOM = false
    /// The error that ended the underlying source early (truncated gzip, unreadable file), if any.
    public private(set) var sourceError: Error?

    public init(_ source: any ByteSource, maxLineLength: Int = 16 << 20) {
        self.source = source
        self.maxLineLength = maxLineLength
    }

    public mutating func next() throws -> Line? {
        while true {
            if let nl = indexOfNewline(from: start) {
                let lineStart = start
                start = nl + 1
                if skippingOverlong {
                    skippingOverlong = false
                    continue
                }
                return makeLine(lineStart, nl, truncated: false)
            }
            // No newline in the buffer.
            if buffer.count - start > maxLineLength {
                if !skippingOverlong {
                    let lineStart = start
                    let line = makeLine(lineStart, lineStart + maxLineLength, truncated: true, keepCR: true)
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                    skippingOverlong = true
                    return line
                }
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if ended {
                guard start < buffer.count else { return nil }
                let lineStart = start
                start = buffer.count
                if skippingOverlong { return nil }
                return makeLine(lineStart, buffer.count, truncated: false)
            }
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            let next: [UInt8]?
            do {
                next = try source.nextChunk()
            } catch {
                // Keep every complete line read so far; the caller reports the error.
                sourceError = error
                next = nil
            }
            if let chunk = next {
                if atStart {
                    atStart = false
                    if chunk.count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF {
                        sawBOM = true
                        buffer.append(contentsOf: chunk[3...])
                        continue
                    }
                }
                buffer.append(contentsOf: chunk)
            } else {
                ended = true
            }
        }
    }

    private func indexOfNewline(from: Int) -> Int? {
        buffer.withUnsafeBufferPointer { buf -> Int? in
            var i = from
            let n = buf.count
            while i < n {
                if buf[i] == 10 { return i }
                i += 1
            }
            return nil
        }
    }

    private mutating func makeLine(_ from: Int, _ to: Int, truncated: Bool, keepCR: Bool = false) -> Line {
        lineNumber += 1
        var end = to
        if !keepCR, end > from, buffer[end - 1] == 13 {
            end -= 1
            sawCRLF = true
        }
        return Line(number: lineNumber, bytes: buffer[from..<end], truncated: truncated)
    }
}
