import CSystemZlib

/// Decompresses gzip (or zlib) data on the fly with the system zlib, chunk by chunk; with
/// `rawDeflate`, a bare deflate stream (a zip member's data).
///
/// Concatenated gzip members (what `cat a.gz b.gz` makes) are decoded one after the other.
/// Output beyond `limit` bytes stops the stream with `InputError.tooLarge` — the defence against
/// decompression bombs. Truncated input raises `corruptCompression` after yielding what was
/// decoded, so a parser sees every complete line before the error.
package struct GzipByteSource: ByteSource {
    private var base: any ByteSource
    private let name: String
    private let limit: Int
    private var produced = 0
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var finished = false
    private var baseEnded = false
    private let box: StreamBox
    private let rawDeflate: Bool
    private var stream: UnsafeMutablePointer<z_stream> { box.pointer }

    /// Owns the zlib stream so that it is released exactly once, whatever copies of the source exist.
    private final class StreamBox {
        let pointer: UnsafeMutablePointer<z_stream>
        init() {
            pointer = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            pointer.initialize(to: z_stream())
        }
        deinit {
            inflateEnd(pointer)
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        }
    }

    package static func isGzip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 2 && prefix[0] == 0x1f && prefix[1] == 0x8b
    }

    package init(_ base: any ByteSource, name: String, limit: Int, rawDeflate: Bool = false) throws {
        self.base = base
        self.name = name
        self.limit = limit
        self.rawDeflate = rawDeflate
        self.box = StreamBox()
        // 15 + 32: gzip or zlib header, detected automatically; -15: no header at all.
        let status = inflateInit2_(stream, rawDeflate ? -15 : 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            throw InputError.corruptCompression(path: name, reason: "zlib init failed (\(status))")
        }
    }

    package mutating func nextChunk() throws -> [UInt8]? {
        let outSize = 64 * 1024
        let stream = box.pointer
        while !finished {
            if inputOffset >= input.count {
                if let chunk = try base.nextChunk() {
                    input = chunk
                    inputOffset = 0
                } else {
                    baseEnded = true
                    finished = true
                    let kind = rawDeflate ? "deflate" : "gzip"
                    if stream.pointee.total_in > 0 || produced > 0 {
                        throw InputError.corruptCompression(path: name, reason: "truncated \(kind) stream")
                    }
                    throw InputError.corruptCompression(path: name, reason: "empty \(kind) stream")
                }
            }
            var status: Int32 = Z_OK
            var produced = 0
            let consumedBefore = inputOffset
            // zlib inflates straight into the new array's storage: no zero-fill, no copy, and the
            // count covers exactly the bytes it produced.
            let out = [UInt8](unsafeUninitializedCapacity: outSize) { outBuf, count in
                count = 0
                input.withUnsafeMutableBufferPointer { inBuf in
                    guard let inBase = inBuf.baseAddress, let outBase = outBuf.baseAddress else { return }
                    stream.pointee.next_in = inBase + consumedBefore
                    stream.pointee.avail_in = UInt32(inBuf.count - consumedBefore)
                    stream.pointee.next_out = outBase
                    stream.pointee.avail_out = UInt32(outSize)
                    status = inflate(stream, Z_NO_FLUSH)
                    produced = outSize - Int(stream.pointee.avail_out)
                    inputOffset = inBuf.count - Int(stream.pointee.avail_in)
                }
                count = produced
            }
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END where rawDeflate:
                // A deflate stream is the whole member: whatever follows is not ours.
                finished = true
            case Z_STREAM_END:
                // Another gzip member may follow; skip trailing zero padding.
                while inputOffset < input.count, input[inputOffset] == 0 { inputOffset += 1 }
                let moreInput = inputOffset < input.count ? true : try refillForNextMember()
                if moreInput {
                    inflateReset(stream)
                } else {
                    finished = true
                }
            default:
                finished = true
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw InputError.corruptCompression(path: name, reason: message)
            }
            if produced > 0 {
                self.produced += produced
                guard self.produced <= limit else {
                    finished = true
                    throw InputError.tooLarge(path: name, limit: limit)
                }
                return out
            }
            if status == Z_BUF_ERROR, inputOffset < input.count {
                finished = true
                throw InputError.corruptCompression(path: name, reason: "zlib made no progress")
            }
        }
        return nil
    }

    /// After one member ends at a chunk boundary: fetch more input to see if another member follows.
    private mutating func refillForNextMember() throws -> Bool {
        while let chunk = try base.nextChunk() {
            input = chunk
            inputOffset = 0
            while inputOffset < input.count, input[inputOffset] == 0 { inputOffset += 1 }
            if inputOffset < input.count { return true }
        }
        return false
    }
}
