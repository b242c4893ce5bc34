import CSystemZlib
import Foundation
import ForensicsTestSupport
import Testing
import ZIPFoundation

@testable import ForensicsParsers

/// The zip reader against archives written by ZIPFoundation, a ZIP64 archive written byte by
/// byte from the APPNOTE layout, and broken ones.
@Suite struct ZipArchiveReaderTests {
    static let text = Array(String(repeating: "#EXTINF:6.0,\nsegment.ts\n", count: 400).utf8)

    func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("pf-zip-\(UUID().uuidString)-\(name)")
    }

    func readAll(_ source: any ByteSource) throws -> [UInt8] {
        var source = source
        var out: [UInt8] = []
        while let chunk = try source.nextChunk() { out += chunk }
        return out
    }

    @Test func storedAndDeflatedMembersReadBackExactly() throws {
        let url = temporaryFile("a.zip")
        defer { try? FileManager.default.removeItem(at: url) }
        let archive = try Archive(url: url, accessMode: .create)
        let data = Data(Self.text)
        for (name, method) in [("stored.m3u8", CompressionMethod.none), ("dir/deflated.m3u8", .deflate)] {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: method
            ) { (pos: Int64, size: Int) -> Data in
                data.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
        try archive.addEntry(with: "dir/", type: .directory, uncompressedSize: 0) { (_: Int64, _: Int) -> Data in Data()
        }
        let reader = try ZipArchiveReader(path: url.path)
        let members = try reader.members(limit: 10)
        #expect(members.map(\.name) == ["stored.m3u8", "dir/deflated.m3u8", "dir/"])
        #expect(members.map(\.method) == [0, 8, 0])
        #expect(members.map(\.isDirectory) == [false, false, true])
        for member in members where !member.isDirectory {
            #expect(try readAll(reader.source(for: member, name: member.name, limit: 1 << 20)) == Self.text)
        }
    }

    @Test func memberLargerThanTheLimitStops() throws {
        let url = temporaryFile("b.zip")
        defer { try? FileManager.default.removeItem(at: url) }
        let archive = try Archive(url: url, accessMode: .create)
        let data = Data(Self.text)
        try archive.addEntry(
            with: "big.m3u8", type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
        ) { (pos: Int64, size: Int) -> Data in
            data.subdata(in: Int(pos)..<Int(pos) + size)
        }
        let reader = try ZipArchiveReader(path: url.path)
        let member = try #require(try reader.members(limit: 10).first)
        #expect(throws: InputError.tooLarge(path: "big.m3u8", limit: 1000)) {
            try readAll(reader.source(for: member, name: "big.m3u8", limit: 1000))
        }
    }

    /// One stored member, its sizes and offset only in the ZIP64 extra field, found through the
    /// ZIP64 end record and its locator.
    @Test func zip64ArchiveIsRead() throws {
        func le(_ value: UInt64, _ bytes: Int) -> [UInt8] {
            (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        let payload = Array("#EXTM3U\n".utf8)
        let name = Array("z64.m3u8".utf8)
        let crc = UInt64(crc32(0, payload, uInt(payload.count)))
        var zip: [UInt8] = []
        // Local header: sizes in the ZIP64 extra field.
        zip += le(0x0403_4B50, 4) + le(45, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4)
        zip += le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(UInt64(name.count), 2) + le(20, 2) + name
        zip += le(1, 2) + le(16, 2) + le(UInt64(payload.count), 8) + le(UInt64(payload.count), 8)
        zip += payload
        let directoryOffset = UInt64(zip.count)
        var entry = le(0x0201_4B50, 4) + le(45, 2) + le(45, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4)
        entry += le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(UInt64(name.count), 2) + le(28, 2) + le(0, 2)
        entry += le(0, 2) + le(0, 2) + le(0, 4) + le(0xFFFF_FFFF, 4) + name
        entry += le(1, 2) + le(24, 2) + le(UInt64(payload.count), 8) + le(UInt64(payload.count), 8) + le(0, 8)
        zip += entry
        let end64Offset = UInt64(zip.count)
        zip += le(0x0606_4B50, 4) + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4)
        zip += le(1, 8) + le(1, 8) + le(UInt64(entry.count), 8) + le(directoryOffset, 8)
        zip += le(0x0706_4B50, 4) + le(0, 4) + le(end64Offset, 8) + le(1, 4)
        zip += le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(0xFFFF, 2) + le(0xFFFF, 2)
        zip += le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
        let url = temporaryFile("z64.zip")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(zip).write(to: url)
        let reader = try ZipArchiveReader(path: url.path)
        let member = try #require(try reader.members(limit: 10).first)
        #expect(member.name == "z64.m3u8")
        #expect(member.uncompressedSize == UInt64(payload.count))
        #expect(try readAll(reader.source(for: member, name: member.name, limit: 1 << 20)) == payload)
    }

    /// Found by the bundle fuzz target: ZIPFoundation 0.9.20 looped forever on this archive (a
    /// deflated member whose stream does not end before the end of the file). Each member must
    /// now end with a diagnostic, at once.
    @Test func unterminatedDeflateStreamEndsWithDiagnostics() throws {
        let url = TestPaths.repository.appendingPathComponent("Fuzz/regressions/bundle/zip-unterminated-deflate.zip")
        let reader = try ZipArchiveReader(path: url.path)
        let members = try reader.members(limit: 10)
        #expect(members.count == 3)
        for member in members {
            #expect(throws: InputError.self) {
                try readAll(reader.source(for: member, name: member.name, limit: 1 << 20))
            }
        }
    }

    @Test func notAZipIsAClearError() throws {
        let url = temporaryFile("n.zip")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(Array("PK\u{3}\u{4} and then nothing".utf8)).write(to: url)
        #expect(throws: InputError.self) { try ZipArchiveReader(path: url.path).members(limit: 10) }
    }
}
