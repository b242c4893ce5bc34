import ForensicsParsers
import ForensicsTestSupport
import Foundation
import Synchronization
import Testing

/// The read-ahead gives what its base gives, in order, with the error after the bytes before it,
/// and stops its thread when dropped early.
struct ReadAheadByteSourceTests {
    /// Chunks `0..<count` of `size` bytes each, then an error or the end; counts its reads.
    final class ScriptedSource: ByteSource, @unchecked Sendable {
        let count: Int
        let size: Int
        let failAtEnd: Bool
        let reads = Atomic<Int>(0)
        init(count: Int, size: Int = 1000, failAtEnd: Bool = false) {
            self.count = count
            self.size = size
            self.failAtEnd = failAtEnd
        }
        func nextChunk() throws -> [UInt8]? {
            let n = reads.add(1, ordering: .relaxed).newValue
            if n > count {
                if failAtEnd { throw InputError.corruptCompression(path: "scripted", reason: "cut") }
                return nil
            }
            return [UInt8](repeating: UInt8(truncatingIfNeeded: n), count: size)
        }
    }

    @Test func chunksComeInOrderThenTheEnd() throws {
        var source = ReadAheadByteSource(ScriptedSource(count: 50))
        var seen: [UInt8] = []
        while let chunk = try source.nextChunk() { seen.append(chunk[0]) }
        #expect(seen == (1...50).map { UInt8($0) })
        #expect(try source.nextChunk() == nil)
    }

    @Test func theErrorComesAfterEveryChunkBeforeIt() throws {
        var source = ReadAheadByteSource(ScriptedSource(count: 7, failAtEnd: true))
        var chunks = 0
        #expect(throws: InputError.self) {
            while try source.nextChunk() != nil { chunks += 1 }
        }
        #expect(chunks == 7)
    }

    @Test func droppedEarlyItStopsReadingWithinItsDepth() throws {
        let base = ScriptedSource(count: 1_000_000)
        do {
            var source = ReadAheadByteSource(base, depth: 4)
            for _ in 0..<3 { _ = try source.nextChunk() }
        }
        // Dropping waits for the thread: nothing reads the base afterwards.
        let after = base.reads.load(ordering: .relaxed)
        #expect(after <= 3 + 4 + 1)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(base.reads.load(ordering: .relaxed) == after)
    }

    @Test func aGzipMemberReadsTheSameWithReadAhead() throws {
        let text = (0..<20_000).map { "line \($0) " + String(repeating: "x", count: $0 % 97) }.joined(separator: "\n")
        let gz = GzipCompressor.compress(Array(text.utf8))
        var plain = try GzipByteSource(MemoryByteSource(gz), name: "a.gz", limit: 1 << 30)
        var ahead = ReadAheadByteSource(try GzipByteSource(MemoryByteSource(gz), name: "a.gz", limit: 1 << 30))
        var a: [UInt8] = []
        var b: [UInt8] = []
        while let c = try plain.nextChunk() { a += c }
        while let c = try ahead.nextChunk() { b += c }
        #expect(a == Array(text.utf8))
        #expect(b == a)
    }
}
