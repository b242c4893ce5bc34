import Foundation

/// A pull-based stream of bytes: every reader in the pipeline works chunk by chunk so that memory
/// stays bounded whatever the size of the input.
package protocol ByteSource {
    /// The next chunk, or nil at the end. An empty chunk is never returned.
    mutating func nextChunk() throws -> [UInt8]?
}

/// Reads a file in chunks of at most 64 KiB, straight into the array it returns (`read(2)`, no
/// `Data` copy). A chunk is sized to what the file still holds (known from `fstat` at open), so a
/// 3 KB log costs a 3 KB buffer: triage reads thousands of small files on several threads.
///
/// Why 64 KiB: below the allocator's mapping threshold, each chunk re-uses the memory the previous
/// one freed. With 1 MiB chunks every chunk was freshly mapped and its pages faulted in, 350 page
/// faults for a 1.4 MB playlist, a fifth of its parse time on this machine; the number of `read`
/// calls this adds (16 per MiB) costs nothing measurable on the 200 MB inputs.
package struct FileByteSource: ByteSource {
    private let handle: FileHandle
    private let chunkSize: Int
    private let path: String
    /// Bytes the file held at open (nil for pipes and terminals): a file that is being appended to
    /// is read up to this size, so an endless writer cannot keep the reader going.
    private let expectedSize: Int?
    private var consumed = 0

    package init(path: String, chunkSize: Int = 64 << 10) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError.unreadable(path: path, reason: "cannot open file")
        }
        self.init(handle: handle, chunkSize: chunkSize, path: path)
    }

    package init(handle: FileHandle, chunkSize: Int = 64 << 10) {
        self.init(handle: handle, chunkSize: chunkSize, path: "standard input")
    }

    private init(handle: FileHandle, chunkSize: Int, path: String) {
        self.handle = handle
        self.chunkSize = max(1, chunkSize)
        self.path = path
        var info = stat()
        if fstat(handle.fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            expectedSize = Int(info.st_size)
        } else {
            expectedSize = nil
        }
    }

    package mutating func nextChunk() throws -> [UInt8]? {
        let fd = handle.fileDescriptor
        // What is left of the size at open; nothing past it.
        let left = expectedSize.map { $0 - consumed } ?? chunkSize
        guard left > 0 else { return nil }
        let size = min(chunkSize, left)
        var failure: Int32 = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            // Fill the chunk unless the file ends (pipes and terminals return short reads).
            while count < size {
                let n = read(fd, base + count, size - count)
                if n > 0 {
                    count += n
                } else if n == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        if failure != 0, chunk.isEmpty {
            throw InputError.unreadable(path: path, reason: String(cString: strerror(failure)))
        }
        consumed += chunk.count
        return chunk.isEmpty ? nil : chunk
    }
}

/// Serves bytes already in memory (tests, HAR bodies, small members).
package struct MemoryByteSource: ByteSource {
    private var bytes: [UInt8]?

    package init(_ bytes: [UInt8]) { self.bytes = bytes.isEmpty ? nil : bytes }
    package init(_ string: String) { self.init(Array(string.utf8)) }

    package mutating func nextChunk() throws -> [UInt8]? {
        defer { bytes = nil }
        return bytes
    }
}

/// A source whose first bytes can be looked at (for format sniffing) without being consumed.
///
/// A read error while peeking (a truncated gzip, a cut archive member) does not cost the bytes
/// read before it: the peek returns them, and the error is thrown by `nextChunk` once they have
/// been served — so a parser sees every complete line before the error, also in small files.
package struct PeekableByteSource: ByteSource {
    private var base: any ByteSource
    private var buffered: [[UInt8]] = []
    private var exhausted = false
    private var pendingError: (any Error)?

    package init(_ base: any ByteSource) { self.base = base }

    /// Up to `count` bytes from the start, reading ahead as needed.
    package mutating func peek(_ count: Int) throws -> [UInt8] {
        var total = buffered.reduce(0) { $0 + $1.count }
        while total < count, !exhausted {
            do {
                if let chunk = try base.nextChunk() {
                    buffered.append(chunk)
                    total += chunk.count
                } else {
                    exhausted = true
                }
            } catch {
                // Nothing read yet: nothing to keep, the error is the answer.
                if buffered.isEmpty { throw error }
                pendingError = error
                exhausted = true
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(min(count, total))
        for chunk in buffered {
            out.append(contentsOf: chunk.prefix(count - out.count))
            if out.count >= count { break }
        }
        return out
    }

    package mutating func nextChunk() throws -> [UInt8]? {
        if !buffered.isEmpty { return buffered.removeFirst() }
        if let error = pendingError {
            pendingError = nil
            throw error
        }
        if exhausted { return nil }
        return try base.nextChunk()
    }
}

/// Classic Mac line endings (CR alone) read as line breaks: every CR becomes LF. Used only for a
/// file whose first bytes hold CRs and no LF at all, where it is otherwise one endless line.
package struct CROnlyLineEndingSource: ByteSource {
    private var base: any ByteSource

    package init(_ base: any ByteSource) { self.base = base }

    package static func applies(to prefix: [UInt8]) -> Bool {
        prefix.contains(0x0D) && !prefix.contains(0x0A)
    }

    package mutating func nextChunk() throws -> [UInt8]? {
        guard var chunk = try base.nextChunk() else { return nil }
        for i in chunk.indices where chunk[i] == 0x0D { chunk[i] = 0x0A }
        return chunk
    }
}

/// Reads a source to its end into memory, refusing more than `limit` bytes.
package func readAll(_ source: inout some ByteSource, limit: Int, name: String) throws -> [UInt8] {
    var out: [UInt8] = []
    while let chunk = try source.nextChunk() {
        guard out.count + chunk.count <= limit else {
            throw InputError.tooLarge(path: name, limit: limit)
        }
        out.append(contentsOf: chunk)
    }
    return out
}
