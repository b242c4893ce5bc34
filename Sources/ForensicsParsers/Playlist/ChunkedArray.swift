/// An append-only sequence stored in chunks that double in size, for tables of hundreds of
/// thousands of rows built while reading.
///
/// Why: `Array` doubles its storage as it grows, copying every element each time and touching
/// fresh pages for each copy; for a playlist with tens of thousands of segments that was a
/// quarter of the parse. Here appending never moves what is already stored, while chunks still
/// grow geometrically (few allocations, large ones eligible for huge pages; at most half of the
/// last chunk unused). Chunk `k` holds `base << k` elements, so an index maps to its chunk with
/// one leading-zero count. The chunk being filled is kept apart (`tail`) so that an append
/// touches one array, not an array inside an array.
struct ChunkedArray<Element>: RandomAccessCollection {
    /// The full chunks, in order.
    private var full: [[Element]] = []
    /// The chunk being filled: chunk number `full.count`.
    private var tail: [Element] = []
    /// log2 of the first chunk's size.
    private static var baseShift: Int { 8 }
    /// Kept, not computed from the chunks: the parser asks for it once per segment.
    private(set) var count = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "index out of range")
        // Chunk `k` starts at `(2^k - 1) << baseShift`: adding the base size turns a position into
        // a number whose highest bit names the chunk.
        let shifted = position + (1 << Self.baseShift)
        let highBit = Int.bitWidth - 1 - shifted.leadingZeroBitCount
        let chunk = highBit - Self.baseShift
        let offset = shifted - (1 << highBit)
        return chunk < full.count ? full[chunk][offset] : tail[offset]
    }

    mutating func append(_ element: Element) {
        // By the chunk's size, not the array's capacity: an allocation may hold more than asked.
        let chunkSize = 1 << (Self.baseShift + full.count)
        if tail.count == chunkSize {
            full.append(tail)
            tail = []
            tail.reserveCapacity(chunkSize << 1)
        } else if tail.capacity == 0 {
            tail.reserveCapacity(chunkSize)
        }
        tail.append(element)
        count += 1
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
