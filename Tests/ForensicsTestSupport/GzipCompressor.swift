import CSystemZlib

/// Gzip compression with the system zlib (for tests, benchmarks and generated inputs).
package enum GzipCompressor {
    package static func compress(_ input: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return [] }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 64)
        var input = input
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = UInt32(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = UInt32(outBuf.count)
                let status = deflate(&stream, Z_FINISH)
                return status == Z_STREAM_END ? outBuf.count - Int(stream.avail_out) : -1
            }
        }
        guard produced >= 0 else { return [] }
        return Array(output.prefix(produced))
    }
}
