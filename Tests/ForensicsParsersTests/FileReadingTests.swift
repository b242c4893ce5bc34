import ForensicsCore
import Foundation
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// Files are read with `read(2)` into buffers sized to the file, and probed once for their kind;
/// nothing may be lost at chunk edges, in files that grow while read, or in lines split across
/// reads.
@Suite struct FileReadingTests {
    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pf-read-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func readAll(_ source: inout FileByteSource) throws -> [UInt8] {
        var out: [UInt8] = []
        while let chunk = try source.nextChunk() {
            #expect(!chunk.isEmpty)
            out += chunk
        }
        return out
    }

    @Test(arguments: [0, 1, 4095, 4096, 4097, 10_000, 3 << 20])
    func everyByteIsReadWhateverTheSize(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for chunkSize in [1 << 20, 4096, 1000] {
            var source = try FileByteSource(path: path, chunkSize: chunkSize)
            #expect(try readAll(&source) == bytes, "size \(size), chunk \(chunkSize)")
        }
    }

    /// A writer that keeps appending cannot keep the reader going: the size at open is the end.
    @Test func aFileThatGrowsAfterOpeningIsReadToItsSizeAtOpen() throws {
        let first = Array(repeating: UInt8(ascii: "a"), count: 5_000)
        let path = try temporaryFile(first)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var source = try FileByteSource(path: path)
        let more = Array(repeating: UInt8(ascii: "b"), count: 9_000)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(more))
        try handle.close()
        #expect(try readAll(&source) == first)
    }

    @Test func linesSplitAcrossSmallReadsComeOutWhole() throws {
        var text = ""
        var expected: [String] = []
        for i in 0..<2_000 {
            let line = "line \(i) " + String(repeating: "x", count: i % 97)
            expected.append(line)
            text += line + (i % 3 == 0 ? "\r\n" : "\n")
        }
        let path = try temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = LineReader(try FileByteSource(path: path, chunkSize: 4096))
        var lines: [String] = []
        try reader.forEachLine { bytes, number, truncated in
            #expect(!truncated)
            #expect(number == lines.count + 1)
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        #expect(lines.count == expected.count)
        #expect(
            lines == expected,
            "first difference at line \((zip(lines, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1) + 1)"
        )
        #expect(reader.sawCRLF)
    }

    /// The limit holds for every line, not only for lines longer than what one read brings in:
    /// a line that ends inside the buffer but is over the limit (a limit smaller than a read
    /// chunk, or the tail of a long line arriving with the next chunk) is cut too.
    @Test(arguments: [(100, 4096), (1000, 64), (5000, 4096)])
    func linesOverTheLimitAreCutWhereverTheyEnd(limit: Int, chunkSize: Int) throws {
        let lengths = [0, 1, limit - 1, limit, limit + 1, limit + 7, 2 * limit + 3, limit + chunkSize - 1, 10]
        var text = ""
        for (i, n) in lengths.enumerated() {
            text += String(repeating: Character(UnicodeScalar(UInt8(97 + i))), count: n) + (i % 2 == 0 ? "\n" : "\r\n")
        }
        let path = try temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = LineReader(try FileByteSource(path: path, chunkSize: chunkSize), maxLineLength: limit)
        var seen: [(count: Int, truncated: Bool, number: Int)] = []
        try reader.forEachLine { bytes, number, truncated in
            seen.append((bytes.count, truncated, number))
            #expect(bytes.allSatisfy { $0 == UInt8(96 + number) }, "line \(number) holds another line's bytes")
        }
        #expect(seen.map(\.count) == lengths.map { min($0, limit) }, "limit \(limit), chunk \(chunkSize)")
        #expect(seen.map(\.truncated) == lengths.map { $0 > limit })
        #expect(seen.map(\.number) == Array(1...lengths.count))
    }

    @Test func bundleMembersAreRecognisedFromOneProbe() throws {
        // A plain file, a gzip file and a tar.gz, each read from disk through the bundle reader.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-probe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"
        try Data(playlist.utf8).write(to: URL(fileURLWithPath: dir + "/plain.m3u8"))
        try Data(GzipCompressor.compress(Array(playlist.utf8))).write(to: URL(fileURLWithPath: dir + "/packed.m3u8.gz"))
        var members: [String] = []
        var diagnostics: [Diagnostic] = []
        try BundleReader().read(path: dir, diagnostics: &diagnostics) { member in
            let outcome = Ingestor().ingest(member)
            members.append(
                "\(member.path) \(outcome.format?.rawValue ?? "-") \(outcome.result?.playlists.first?.segments.count ?? -1)"
            )
        }
        #expect(members == ["packed.m3u8.gz playlist-capture 1", "plain.m3u8 playlist-capture 1"])
        #expect(diagnostics.isEmpty)
    }
}
