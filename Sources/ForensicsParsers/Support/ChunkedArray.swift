/// An append-only sequence stored in chunks that double in size, for tables of hundreds of
/// thousands of rows built while reading.
///
/// Why: `Array` doubles its storage as it grows, copying every element each time and touching
/// fresh pages for each copy; for a playlist with tens of thousands of segments that was a
/// quarter of the parse. Here appending never moves what is already stored, while chunks still
/// grow geometrically (few allocations, large ones eligible for huge pages; at most half of the
/// last chunk unused). Chunk `k` holds `base << k` elements, so an index maps to its chunk with
/// one leading-zero count.
struct ChunkedArray<Element>: RandomAccessCollection {
    private var chunks: [[Element]] = []
    private(set) var count = 0
    /// log2 of the first chunk's size.
    private static var baseShift: Int { 8 }

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index out of range")
        let (chunk, offset) = Self.locate(position)
        return chunks[chunk][offset]
    }

    /// Chunk `k` starts at `(2^k - 1) << baseShift`: adding the base size turns a position into a
    /// number whose highest bit names the chunk.
    private static func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        let shifted = position + (1 << baseShift)
        let highBit = Int.bitWidth - 1 - shifted.leadingZeroBitCount
        let chunk = highBit - baseShift
        return (chunk, shifted - (1 << highBit))
    }

    mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == (1 << (Self.baseShift + chunks.count - 1)) {
            var chunk: [Element] = []
            chunk.reserveCapacity(1 << (Self.baseShift + chunks.count))
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
