import Testing
@testable import ForensicsParsers

/// The chunk arithmetic of `ChunkedArray`: every position, and the chunk edges in particular,
/// reads back what was appended there.
@Suite struct ChunkedArrayTests {
    @Test func everyPositionReadsBackAcrossChunkEdges() {
        var array = ChunkedArray<Int>()
        #expect(array.isEmpty)
        let count = 300_000
        for i in 0..<count { array.append(i &* 7) }
        #expect(array.count == count)
        #expect(array.indices.allSatisfy { array[$0] == $0 &* 7 })
        // First chunk 256, then 512, 1024, …: the last and first element of each neighbour.
        for edge in [255, 256, 767, 768, 1791, 1792, 262_399, 262_400] {
            #expect(array[edge] == edge &* 7, "position \(edge)")
        }
        #expect(Array(array.suffix(2)) == [(count - 2) &* 7, (count - 1) &* 7])
    }
}
