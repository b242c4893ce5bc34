import Foundation
import ForensicsCore
import PlaybackForensics
import ForensicsTestSupport
import Testing
import ZIPFoundation

@testable import ForensicsParsers

/// The bundle's limits bound work, not just bytes: records per file and per bundle, bytes per
/// bundle, overlapping zip members; nested archives and stacked gzip are read, not dropped.
@Suite(.serialized) struct BundleBudgetTests {
    static let row = "2026/11/21 05:00:00.000 https://cdn.example.com/v/prog_index.m3u8 G1 198.51.100.23 1 5.0\n"
    static let head = "#Version: 1.0\n#Fields: date time uri cs-guid s-ip c-stalls c-duration-watched\n"
    static let good =
        #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"S","rate":0,"previousRate":1}"#
        + "\n"

    func bundle(_ files: [String: [UInt8]]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    func log(rows: Int) -> [UInt8] { Array((Self.head + String(repeating: Self.row, count: rows)).utf8) }

    @Test func aFileStopsAtItsRecordLimitAndItsNeighbourKeepsItsRecords() throws {
        let dir = try bundle(["a-big.log": log(rows: 500), "z-good.jsonl": Array(Self.good.utf8)])
        defer { try? FileManager.default.removeItem(at: dir) }
        var limits = BundleLimits()
        limits.maxRecordsPerFile = 100
        limits.maxRecordsPerBundle = 150
        let report = try Analyzer(ingestor: Ingestor(limits: limits)).analyze(path: dir.path)
        #expect(report.inputs.first { $0.path == "a-big.log" }?.records == 100)
        #expect(report.inputs.first { $0.path == "z-good.jsonl" }?.records == 1)
        #expect(
            report.diagnostics.contains {
                $0.location.file == "a-big.log" && $0.message.contains("stopped after 100 records")
            })
        #expect(report.incomplete == nil)
    }

    @Test func theBundleStopsAtItsRecordLimitWithAReason() throws {
        let dir = try bundle(["a.log": log(rows: 80), "b.log": log(rows: 80), "c.log": log(rows: 80)])
        defer { try? FileManager.default.removeItem(at: dir) }
        var limits = BundleLimits()
        limits.maxRecordsPerFile = 100
        limits.maxRecordsPerBundle = 120
        let report = try Analyzer(ingestor: Ingestor(limits: limits)).analyze(path: dir.path)
        #expect(report.inputs.map(\.records) == [80, 40, 0])
        #expect(report.incomplete?.contains("120 records") == true)
        #expect(report.diagnostics.contains { $0.location.file == "c.log" && $0.message.contains("not read") })
    }

    @Test func theBundleStopsAtItsByteLimit() throws {
        let dir = try bundle(["a.log": log(rows: 2000), "b.log": log(rows: 2000)])
        defer { try? FileManager.default.removeItem(at: dir) }
        var limits = BundleLimits()
        limits.maxBundleBytes = 100_000
        let report = try Analyzer(ingestor: Ingestor(limits: limits)).analyze(path: dir.path)
        let read = report.inputs.reduce(0) { $0 + $1.records }
        #expect(read > 0 && read < 2000 * 2)
        #expect(report.incomplete?.contains("decompressed bytes") == true)
    }

    /// Central-directory entries pointing at one shared local header: only the first is read.
    @Test func overlappingZipMembersAreRefused() throws {
        let kernel = log(rows: 50)
        let dir = try bundle([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bomb.zip")
        try Data(Self.overlappingZip(kernel: kernel, members: 30)).write(to: path)
        let report = try Analyzer().analyze(path: path.path)
        #expect(report.inputs.count == 1)
        #expect(report.inputs.first?.records == 50)
        #expect(report.diagnostics.contains { $0.message.contains("29 members overlap") })
    }

    @Test func aZipInsideAZipAndGzipInsideGzipAreRead() throws {
        let inner = FileManager.default.temporaryDirectory.appendingPathComponent("pf-inner-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: inner) }
        let archive = try Archive(url: inner, accessMode: .create)
        let bytes = Data(log(rows: 7))
        try archive.addEntry(
            with: "access.log", type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate
        ) { position, size in
            bytes.subdata(in: Int(position)..<(Int(position) + size))
        }
        let innerBytes = try Data(contentsOf: inner)
        let dir = try bundle(["double.log.gz": GzipCompressor.compress(GzipCompressor.compress(log(rows: 3)))])
        defer { try? FileManager.default.removeItem(at: dir) }
        let outer = try Archive(url: dir.appendingPathComponent("outer.zip"), accessMode: .create)
        try outer.addEntry(
            with: "inner.zip", type: .file, uncompressedSize: Int64(innerBytes.count), compressionMethod: .none
        ) { position, size in
            innerBytes.subdata(in: Int(position)..<(Int(position) + size))
        }
        let report = try Analyzer().analyze(path: dir.path)
        #expect(report.inputs.first { $0.path == "outer.zip/inner.zip/access.log" }?.records == 7)
        #expect(report.inputs.first { $0.path == "double.log.gz" }?.records == 3)
    }

    @Test func controlAndBidiCharactersBecomeVisibleText() {
        #expect(Redactor.visibleControls("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(Redactor.visibleControls("x\u{202E}gnp.exe") == "x\\u{202E}gnp.exe")
        #expect(Redactor.visibleControls("tab\tand\nline") == "tab\tand\nline")
        #expect(Redactor.visibleControls("café → ok") == "café → ok")
        // Cleaning happens with redaction off too.
        #expect(Redactor(enabled: false).clean("\u{1B}]8;;x\u{07}token=s") == "\\u{1B}]8;;x\\u{7}token=s")
    }

    /// CRC-32 (IEEE), bit by bit: test data only.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    /// A zip whose central directory lists `members` entries, all pointing at one stored kernel.
    static func overlappingZip(kernel: [UInt8], members: Int) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { u16(Int(v & 0xFFFF)) + u16(Int(v >> 16)) }
        let crc = crc32(kernel)
        let name = Array("kernel.log".utf8)
        var out = u32(0x0403_4B50) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc)
        out += u32(UInt32(kernel.count)) + u32(UInt32(kernel.count)) + u16(name.count) + u16(0) + name + kernel
        let centralStart = out.count
        for i in 0..<members {
            let n = Array(String(format: "m%03d.log", i).utf8)
            out += u32(0x0201_4B50) + u16(20) + u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(crc)
            out +=
                u32(UInt32(kernel.count)) + u32(UInt32(kernel.count)) + u16(n.count) + u16(0) + u16(0) + u16(0) + u16(0)
            out += u32(0) + u32(0) + n
        }
        let size = out.count - centralStart
        out +=
            u32(0x0605_4B50) + u16(0) + u16(0) + u16(members) + u16(members) + u32(UInt32(size))
            + u32(UInt32(centralStart)) + u16(0)
        return out
    }
}
