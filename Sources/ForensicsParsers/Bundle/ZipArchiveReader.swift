import CSystemZlib
import Foundation

/// Reads the members of a zip archive: the central directory (ZIP64 included), then each
/// member's data, stored or deflated, streamed through the system zlib and checked against its CRC.
///
/// Why not ZIPFoundation here: version 0.9.20 (the one this machine has) loops forever on Linux
/// when a deflated member's stream does not end before the end of the file — its inflate loop
/// waits for `Z_STREAM_END` while its reader keeps returning nothing (fixed upstream later). The
/// fuzzer found such an archive within minutes; a bundle from a user must never hang triage.
/// Reading a member here is bounded by its compressed size, and extraction streams instead of
/// collecting the whole member in memory. ZIPFoundation still writes the archives in the tests.
final class ZipArchiveReader {
    struct Member {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
        var isDirectory: Bool
        var isSymbolicLink: Bool
    }

    let path: String
    private let descriptor: Int32
    let fileSize: UInt64

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw InputError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= 0 else {
            close(descriptor)
            throw InputError.unreadable(path: path, reason: "cannot stat")
        }
        fileSize = UInt64(info.st_size)
    }

    deinit { close(descriptor) }

    /// `count` bytes at `offset`, fewer only at the end of the file.
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count > 0, offset < fileSize, let start = off_t(exactly: offset) else { return [] }
        let wanted = Int(min(UInt64(count), fileSize - offset))
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < wanted {
                let n = pread(descriptor, base + initialized, wanted - initialized, start + off_t(initialized))
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = errno }
                if n <= 0 { break }
                initialized += n
            }
        }
        if failure != 0 { throw InputError.unreadable(path: path, reason: String(cString: strerror(failure))) }
        return bytes
    }

    // MARK: Central directory

    /// Every entry of the central directory, in the order it lists them.
    func members(limit: Int) throws -> [Member] {
        let directory = try locateCentralDirectory()
        guard directory.offset <= fileSize, directory.size <= fileSize - directory.offset else {
            throw corrupt("central directory outside the file")
        }
        // 100,000 entries with long names fit in a few megabytes; more is not a log bundle.
        guard directory.size <= 256 << 20 else { throw corrupt("central directory larger than 256 MiB") }
        let bytes = try read(at: directory.offset, count: Int(directory.size))
        var members: [Member] = []
        var at = 0
        // An entry takes at least 46 bytes: a count larger than the directory can hold is a lie.
        let expected = min(directory.entries, UInt64(bytes.count / 46))
        while UInt64(members.count) < expected, members.count < limit {
            guard let member = try parseEntry(bytes, at: &at) else { break }
            members.append(member)
        }
        return members
    }

    private struct CentralDirectory {
        var offset: UInt64
        var size: UInt64
        var entries: UInt64
    }

    private func locateCentralDirectory() throws -> CentralDirectory {
        // The end record is 22 bytes plus a comment of at most 65,535 bytes, at the end of the file.
        let tailLength = Int(min(fileSize, 22 + 65_535))
        let tailStart = fileSize - UInt64(tailLength)
        let tail = try read(at: tailStart, count: tailLength)
        var i = tail.count - 22
        while i >= 0 {
            if Self.u32(tail, i) == 0x0605_4B50, i + 22 + Int(Self.u16(tail, i + 20)) <= tail.count { break }
            i -= 1
        }
        guard i >= 0 else { throw corrupt("no end of central directory record") }
        var directory = CentralDirectory(
            offset: UInt64(Self.u32(tail, i + 16)), size: UInt64(Self.u32(tail, i + 12)),
            entries: UInt64(Self.u16(tail, i + 10)))
        // ZIP64: a locator just before the end record points at the 64-bit end record.
        let endRecordAt = tailStart + UInt64(i)
        if endRecordAt >= 20 {
            let locator = try read(at: endRecordAt - 20, count: 20)
            if locator.count == 20, Self.u32(locator, 0) == 0x0706_4B50 {
                let end64 = try read(at: Self.u64(locator, 8), count: 56)
                guard end64.count == 56, Self.u32(end64, 0) == 0x0606_4B50 else {
                    throw corrupt("ZIP64 end record missing")
                }
                directory = CentralDirectory(
                    offset: Self.u64(end64, 48), size: Self.u64(end64, 40), entries: Self.u64(end64, 32))
            }
        }
        return directory
    }

    private func parseEntry(_ b: [UInt8], at: inout Int) throws -> Member? {
        guard at + 46 <= b.count, Self.u32(b, at) == 0x0201_4B50 else { return nil }
        let nameLength = Int(Self.u16(b, at + 28))
        let extraLength = Int(Self.u16(b, at + 30))
        let commentLength = Int(Self.u16(b, at + 32))
        let end = at + 46 + nameLength + extraLength + commentLength
        guard end <= b.count else { throw corrupt("central directory entry runs past the directory") }
        let name = String(decoding: b[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
        var member = Member(
            name: name, method: Self.u16(b, at + 10), flags: Self.u16(b, at + 8), crc32: Self.u32(b, at + 16),
            compressedSize: UInt64(Self.u32(b, at + 20)), uncompressedSize: UInt64(Self.u32(b, at + 24)),
            localHeaderOffset: UInt64(Self.u32(b, at + 42)), isDirectory: name.hasSuffix("/"),
            isSymbolicLink: (Self.u32(b, at + 38) >> 16) & 0o170000 == 0o120000)
        // ZIP64 extra field: the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
        var e = at + 46 + nameLength
        let extraEnd = e + extraLength
        while e + 4 <= extraEnd {
            let id = Self.u16(b, e)
            let size = Int(Self.u16(b, e + 2))
            let dataEnd = min(e + 4 + size, extraEnd)
            if id == 0x0001 {
                var f = e + 4
                func next() -> UInt64? {
                    guard f + 8 <= dataEnd else { return nil }
                    defer { f += 8 }
                    return Self.u64(b, f)
                }
                if member.uncompressedSize == 0xFFFF_FFFF, let v = next() { member.uncompressedSize = v }
                if member.compressedSize == 0xFFFF_FFFF, let v = next() { member.compressedSize = v }
                if member.localHeaderOffset == 0xFFFF_FFFF, let v = next() { member.localHeaderOffset = v }
            }
            e += 4 + size
        }
        at = end
        return member
    }

    // MARK: Member data

    /// The member's bytes, decompressed as they are read, at most `limit` of them.
    func source(for member: Member, name: String, limit: Int) throws -> any ByteSource {
        guard member.flags & 1 == 0 else {
            throw InputError.unsupported(path: name, reason: "encrypted zip member: not read")
        }
        let header = try read(at: member.localHeaderOffset, count: 30)
        guard header.count == 30, Self.u32(header, 0) == 0x0403_4B50 else {
            throw corrupt("no local header for \(name)")
        }
        let dataOffset = member.localHeaderOffset + 30 + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28))
        guard dataOffset <= fileSize, member.compressedSize <= fileSize - dataOffset else {
            throw InputError.corruptCompression(path: name, reason: "zip member data runs past the end of the archive")
        }
        let raw = ZipRangeSource(file: self, offset: dataOffset, length: member.compressedSize)
        let data: any ByteSource
        switch member.method {
        case 0:
            guard member.compressedSize <= UInt64(limit) else { throw InputError.tooLarge(path: name, limit: limit) }
            data = raw
        case 8:
            data = try GzipByteSource(raw, name: name, limit: limit, rawDeflate: true)
        default:
            throw InputError.unsupported(path: name, reason: "zip compression method \(member.method) is not supported")
        }
        return CRC32CheckingSource(base: data, expected: member.crc32, name: name)
    }

    private func corrupt(_ reason: String) -> InputError {
        .corruptCompression(path: path, reason: "zip: \(reason)")
    }

    // Little-endian fields; callers check the bounds first.
    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}

/// `length` bytes of the archive from `offset`, in chunks: a member is never read past its end.
struct ZipRangeSource: ByteSource {
    let file: ZipArchiveReader
    var offset: UInt64
    var remaining: UInt64

    init(file: ZipArchiveReader, offset: UInt64, length: UInt64) {
        self.file = file
        self.offset = offset
        self.remaining = length
    }

    mutating func nextChunk() throws -> [UInt8]? {
        guard remaining > 0 else { return nil }
        let chunk = try file.read(at: offset, count: Int(min(remaining, 256 * 1024)))
        guard !chunk.isEmpty else {
            throw InputError.corruptCompression(path: file.path, reason: "zip member data ends early")
        }
        offset += UInt64(chunk.count)
        remaining -= UInt64(chunk.count)
        return chunk
    }
}

/// Passes a member's bytes through and, at their end, compares their CRC-32 with the archive's.
struct CRC32CheckingSource: ByteSource {
    var base: any ByteSource
    let expected: UInt32
    let name: String
    var crc: UInt = 0

    mutating func nextChunk() throws -> [UInt8]? {
        guard let chunk = try base.nextChunk() else {
            guard UInt32(truncatingIfNeeded: crc) == expected else {
                throw InputError.corruptCompression(path: name, reason: "zip member CRC-32 does not match")
            }
            return nil
        }
        crc = chunk.withUnsafeBufferPointer { UInt(crc32(uLong(crc), $0.baseAddress, uInt($0.count))) }
        return chunk
    }
}
