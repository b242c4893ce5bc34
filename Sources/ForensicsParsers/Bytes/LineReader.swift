import ForensicsCore
import Foundation

/// Splits a byte stream into lines without decoding: LF or CRLF ends a line, a final line without
/// a newline is still a line, a UTF-8 BOM at the very start is dropped.
///
/// A line longer than `maxLineLength` (CR and LF not counted) is cut, wherever it ends: the reader
/// yields its first `maxLineLength` bytes with `truncated` set, and skips the rest without
/// buffering it, so a single 1 GB line cannot exhaust memory.
package struct LineReader {
    package struct Line {
        package var number: Int
        package var bytes: ArraySlice<UInt8>
        package var truncated: Bool
        /// The line's text, invalid UTF-8 repaired with U+FFFD.
        package var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    private var source: any ByteSource
    private var buffer: [UInt8] = []
    private var start = 0
    private var lineNumber = 0
    private var atStart = true
    private var ended = false
    private var skippingOverlong = false
    private var discardBuffer = false
    package let maxLineLength: Int
    /// How many lines were returned so far.
    package var linesRead: Int { lineNumber }
    /// True once any line had a CR before its LF (reported once as a spec deviation by some parsers).
    package private(set) var sawCRLF = false
    package private(set) var sawBOM = false
    /// The last line, when the input ended without a line break after it (copied only then):
    /// what a reader checks for a file cut short in the middle of a line.
    package private(set) var unterminatedTail: [UInt8]?
    /// The error that ended the underlying source early (truncated gzip, unreadable file), if any.
    package private(set) var sourceError: Error?

    package init(_ source: any ByteSource, maxLineLength: Int = BundleLimits().maxLineLength) {
        self.source = source
        self.maxLineLength = maxLineLength
    }

    package mutating func next() throws -> Line? {
        guard let (from, to, truncated) = try nextRange() else { return nil }
        return Line(number: lineNumber, bytes: buffer[from..<to], truncated: truncated)
    }

    /// Calls `body` with every remaining line's bytes where they lie in the read buffer.
    ///
    /// Why: parsers read tens of millions of lines; handing each one out as an `ArraySlice` in an
    /// `Optional` cost a retain, a release and a generic copy per line, about a tenth of the
    /// playlist parser's time. The bytes are valid only during the call.
    package mutating func forEachLine(
        _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ number: Int, _ truncated: Bool) throws -> Void
    ) throws {
        while true {
            if !discardBuffer, !skippingOverlong, start < buffer.count {
                try forEachCompleteLine(body)
            }
            guard let (from, to, truncated) = try nextRange() else { return }
            let number = lineNumber
            try buffer.withUnsafeBufferPointer {
                try body(UnsafeBufferPointer(rebasing: $0[from..<to]), number, truncated)
            }
        }
    }

    /// Hands out every line that ends inside the buffer, with the buffer's address taken once:
    /// the same lines `nextRange` would return one call at a time, for a fraction of its cost per
    /// line (a quarter of the playlist parser's instructions went to getting at each line).
    /// Stops at the first byte without a newline after it; `nextRange` then refills.
    private mutating func forEachCompleteLine(
        _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ number: Int, _ truncated: Bool) throws -> Void
    ) throws {
        var next = start
        var number = lineNumber
        var crlf = false
        let limit = maxLineLength
        // The state is written back however the loop ends, a throwing body included.
        defer {
            start = next
            lineNumber = number
            if crlf { sawCRLF = true }
        }
        try buffer.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            let count = all.count
            while next < count, let hit = memchr(base + next, 10, count - next) {
                let newline = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
                var end = newline
                if end > next, base[end - 1] == 13 {
                    end -= 1
                    crlf = true
                }
                let from = next
                number += 1
                next = newline + 1
                let length = end - from
                let cut = length > limit
                try body(UnsafeBufferPointer(start: base + from, count: cut ? limit : length), number, cut)
            }
        }
    }

    /// The next line as a range of `buffer`, valid until the next call.
    private mutating func nextRange() throws -> (Int, Int, Bool)? {
        if discardBuffer {
            // The previous line was the cut head of an overlong line: drop what was buffered.
            discardBuffer = false
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
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
            // No newline in the buffer. One byte more than the limit may still be the CR of a
            // line exactly at the limit; two more cannot.
            if buffer.count - start - 1 > maxLineLength {
                if !skippingOverlong {
                    let lineStart = start
                    skippingOverlong = true
                    discardBuffer = true
                    return makeLine(lineStart, lineStart + maxLineLength, truncated: true, keepCR: true)
                }
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if ended {
                guard start < buffer.count else { return nil }
                let lineStart = start
                start = buffer.count
                if skippingOverlong { return nil }
                if buffer.count - lineStart <= maxLineLength {
                    unterminatedTail = Array(buffer[lineStart..<buffer.count])
                }
                return makeLine(lineStart, buffer.count, truncated: false)
            }
            let next: [UInt8]?
            do {
                next = try source.nextChunk()
            } catch {
                // Keep every complete line read so far; the caller reports the error.
                sourceError = error
                next = nil
            }
            if var chunk = next {
                if atStart {
                    atStart = false
                    if chunk.count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF {
                        sawBOM = true
                        chunk.removeFirst(3)
                    }
                }
                if start >= buffer.count {
                    // Nothing left over: take the chunk as the buffer instead of copying it.
                    buffer = chunk
                } else {
                    if start > 0 {
                        buffer.removeSubrange(0..<start)
                    }
                    buffer.append(contentsOf: chunk)
                }
                start = 0
            } else {
                ended = true
            }
        }
    }

    private func indexOfNewline(from: Int) -> Int? {
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress,
                let hit = memchr(base + from, 10, raw.count - from)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }

    private mutating func makeLine(_ from: Int, _ to: Int, truncated: Bool, keepCR: Bool = false) -> (Int, Int, Bool) {
        lineNumber += 1
        var end = to
        if !keepCR, end > from, buffer[end - 1] == 13 {
            end -= 1
            sawCRLF = true
        }
        // A line that ended inside the buffer can still be over the limit: when the limit is
        // smaller than a read, or when its tail came in with the next chunk.
        if end - from > maxLineLength { return (from, from + maxLineLength, true) }
        return (from, end, truncated)
    }
}
