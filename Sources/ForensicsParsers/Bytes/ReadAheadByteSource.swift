import Foundation

/// Reads another source ahead on a thread of its own, a few chunks at most, so that producing
/// the bytes (inflating a gzip member with the system zlib) and parsing them run on two cores:
/// a `.jsonl.gz` then costs about the larger of the two instead of their sum.
///
/// The chunks, and an error after them, come out exactly as the base source gives them, so what
/// a parser sees does not depend on timing. Memory is bounded by `depth` chunks. When the reader
/// is dropped before the end (a parser stopped early, a budget was spent), the thread is told to
/// stop and waited for: the base source may share a stream with the bundle reader (a member of a
/// tar), which must not be read by two threads at once.
package struct ReadAheadByteSource: ByteSource {
    private let reader: Reader

    package init(_ base: any ByteSource, depth: Int = 4) {
        reader = Reader(base: base, depth: max(1, depth))
    }

    package mutating func nextChunk() throws -> [UInt8]? {
        try reader.next()
    }

    /// The consumer's end: takes chunks in order; on deinit, stops the producer and waits for it.
    private final class Reader {
        private let channel: Channel

        init(base: any ByteSource, depth: Int) {
            channel = Channel(depth: depth)
            let producer = Producer(base: base, channel: channel)
            let thread = Thread { producer.run() }
            thread.name = "playback-forensics read-ahead"
            thread.start()
        }

        func next() throws -> [UInt8]? {
            try channel.take()
        }

        deinit {
            channel.stop()
        }
    }

    /// The producer's end: owns the base source from the moment its thread starts.
    /// `@unchecked Sendable`: the base source is handed over once and then touched by that
    /// thread only.
    private final class Producer: @unchecked Sendable {
        private var base: any ByteSource
        private let channel: Channel

        init(base: any ByteSource, channel: Channel) {
            self.base = base
            self.channel = channel
        }

        func run() {
            defer { channel.finish() }
            while channel.waitForRoom() {
                do {
                    guard let chunk = try base.nextChunk() else { return }
                    channel.put(.chunk(chunk))
                } catch {
                    channel.put(.failure(error))
                    return
                }
            }
        }
    }

    private enum Item {
        case chunk([UInt8])
        case failure(any Error)
    }

    /// The queue between the two threads. `@unchecked Sendable`: every field is read and written
    /// with `condition` held.
    private final class Channel: @unchecked Sendable {
        private let condition = NSCondition()
        private let depth: Int
        /// At most `depth` items: the producer waits for room before it reads the next chunk.
        private var items: [Item] = []
        /// The producer has put its last item (or was stopped) and has returned.
        private var finished = false
        /// The consumer has gone: the producer stops at its next chunk.
        private var stopped = false
        /// The consumer has seen an error: what follows is the end.
        private var failed = false

        init(depth: Int) { self.depth = depth }

        /// Waits until there is room for one more chunk; false when the consumer has gone.
        func waitForRoom() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while items.count >= depth, !stopped { condition.wait() }
            return !stopped
        }

        func put(_ item: Item) {
            condition.lock()
            items.append(item)
            condition.broadcast()
            condition.unlock()
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        func take() throws -> [UInt8]? {
            condition.lock()
            defer { condition.unlock() }
            if failed { return nil }
            while items.isEmpty, !finished { condition.wait() }
            guard !items.isEmpty else { return nil }
            // A handful of items at most: moving them down is cheaper than a ring's bookkeeping.
            let item = items.removeFirst()
            condition.broadcast()
            switch item {
            case .chunk(let chunk): return chunk
            case .failure(let error):
                failed = true
                throw error
            }
        }

        /// The consumer's goodbye: wakes the producer, and waits for it to return.
        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            while !finished { condition.wait() }
            condition.unlock()
        }
    }
}
