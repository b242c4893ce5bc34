import Foundation

/// A pull-based stream of bytes: every reader in the pipeline works chunk by chunk so that memory
/// stays bounded whatever the size of the input.
public protocol ByteSource {
    /// The next chunk, or nil at the end. An empty chunk is never returned.
    mutating func nextChunk() throws -> [UInt8]?
}

/// Reads a file in 1 MiB chunks, straight into the array it returns (`read(2)`, no `Data` copy).
public struct FileByteSource: ByteSource {
    private let handle: FileHandle
    private let chunkSize: Int
    private let path: String

    public init(path: String, chunkSize: Int = 1 << 20) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError.unreadable(path: path, reason: "cannot open file")
        }
        self.handle = handle
        self.chunkSize = chunkSize
        self.path = path
    }

    public init(handle: FileHandle, chunkSize: Int = 1 << 20) {
        self.handle = handle
        self.chunkSize = chunkSize
        self.path = "standard input"
    }

    public mutating func nextChunk() throws -> [UInt8]? {
        let fd = handle.fileDescriptor
        let size = chunkSize
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
        return chunk.isEmpty ? nil : chunk
    }
}

/// Serves bytes already in memory (tests, HAR bodies, small members).
public struct MemoryByteSource: ByteSource {
    private var bytes: [UInt8]?

    public init(_ bytes: [UInt8]) { self.bytes = bytes.isEmpty ? nil : bytes }
    public init(_ string: String) { self.init(Array(string.utf8)) }

    public mutating func nextChunk() throws -> [UInt8]? {
        defer { bytes = nil }
        return bytes
    }
}

/// A source whose first bytes can be looked at (for format sniffing) without being consumed.
public struct PeekableByteSource: ByteSource {
    private var base: any ByteSource
    private var buffered: [[UInt8]] = []
    private var exhausted = false

    public init(_ base: any ByteSource) { self.base = base }

    /// Up to `count` bytes from the start, reading ahead as needed.
    public mutating func peek(_ count: Int) throws -> [UInt8] {
        var total = buffered.reduce(0) { $0 + $1.count }
        while total < count, !exhausted {
            if let chunk = try base.nextChunk() {
                buffered.append(chunk)
                total += chunk.count
            } else {
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

    public mutating func nextChunk() throws -> [UInt8]? {
        if !buffered.isEmpty { return buffered.removeFirst() }
        if exhausted { return nil }
        return try base.nextChunk()
    }
}

/// Reads a source to its end into memory, refusing more than `limit` bytes.
public func readAll(_ source: inout some ByteSource, limit: Int, name: String) throws -> [UInt8] {
    var out: [UInt8] = []
    while let chunk = try source.nextChunk() {
        guard out.count + chunk.count <= limit else {
            throw InputError.tooLarge(path: name, limit: limit)
        }
        out.append(contentsOf: chunk)
    }
    return out
}
