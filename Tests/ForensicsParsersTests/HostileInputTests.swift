import Foundation
import ForensicsCore
import PlaybackForensics
import ForensicsTestSupport
import Testing
import ZIPFoundation

@testable import ForensicsParsers

/// Hostile and broken bundles: each problem is a diagnostic naming the file, everything else in
/// the bundle is still read, and memory and time stay bounded.
@Suite(.serialized) struct HostileInputTests {
    static let good =
        #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","sessionID":"S","rate":0,"previousRate":1}"#
        + "\n"

    /// A fresh bundle directory holding one good metric file.
    func bundle() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(Self.good.utf8).write(to: dir.appendingPathComponent("good.jsonl"))
        return dir
    }

    func analyze(_ dir: URL, limits: BundleLimits = BundleLimits()) throws -> AnalysisReport {
        try Analyzer(ingestor: Ingestor(limits: limits)).analyze(path: dir.path)
    }

    func goodRecordSurvived(_ r: AnalysisReport) -> Bool {
        r.inputs.contains { $0.path == "good.jsonl" && $0.records == 1 }
    }

    @Test func zipSlipMemberNamesAreReportedAndNothingIsWritten() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let zipURL = dir.appendingPathComponent("evil.zip")
        let archive = try Archive(url: zipURL, accessMode: .create)
        let data = Data(Self.good.utf8)
        for name in ["../../escape.jsonl", "/etc/abs.jsonl"] {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(data.count),
                provider: { pos, size in
                    data.subdata(in: Int(pos)..<Int(pos) + size)
                })
        }
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(report.diagnostics.contains { $0.location.file == "evil.zip" && $0.message.contains("zip-slip") })
        #expect(report.inputs.contains { $0.path == "evil.zip/escape.jsonl" })
        #expect(
            !FileManager.default.fileExists(
                atPath: dir.deletingLastPathComponent().appendingPathComponent("escape.jsonl").path))
    }

    @Test func symlinksOutsideAndDirectoryLoopsAreSkipped() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("sub/loop").path, withDestinationPath: dir.path)
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(
            report.diagnostics.contains { $0.location.file == "passwd" && $0.message.contains("outside the bundle") })
        #expect(report.diagnostics.contains { $0.location.file == "sub/loop" && $0.message.contains("loop") })
    }

    @Test func gzipBombStopsAtTheLimitWithAClearError() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A playlist header and 16 MiB of blank lines compress to about 16 KB; the limit here is 1 MiB.
        let bomb = GzipCompressor.compress(
            Array("#EXTM3U\n".utf8) + [UInt8](repeating: 0x0A, count: 16 << 20), level: 9)
        #expect(bomb.count < 100_000)
        try Data(bomb).write(to: dir.appendingPathComponent("bomb.log.gz"))
        var limits = BundleLimits()
        limits.maxDecompressedSize = 1 << 20
        let report = try analyze(dir, limits: limits)
        #expect(goodRecordSurvived(report))
        #expect(
            report.diagnostics.contains {
                $0.location.file == "bomb.log.gz" && $0.message.contains("larger than the limit")
            })
    }

    @Test func aHugeSingleLineIsCutNotLoaded() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        var big = Array(Self.good.utf8)
        big +=
            Array("{\"type\":\"AVMetricErrorEvent\",\"x\":\"".utf8) + [UInt8](repeating: 0x61, count: 24 << 20)
            + Array("\"}\n".utf8)
        big += Array(Self.good.replacingOccurrences(of: "07:31", with: "07:32").utf8)
        try Data(big).write(to: dir.appendingPathComponent("long.jsonl"))
        var limits = BundleLimits()
        limits.maxLineLength = 1 << 20
        let report = try analyze(dir, limits: limits)
        #expect(goodRecordSurvived(report))
        #expect(report.inputs.contains { $0.path == "long.jsonl" && $0.records == 2 })
        #expect(report.diagnostics.contains { $0.location == SourceLocation(file: "long.jsonl", line: 2) })
    }

    /// The issue's size: a single line of 1 GiB, streamed (never on disk, never in memory whole)
    /// through the real ingest path with the default limits. The line is cut at the line-length
    /// limit with a diagnostic, and the event after it is still read.
    @Test func aOneGigabyteLineIsCutWithTheDefaultLimits() throws {
        /// A metric dump of a good event, an event whose string runs for 1 GiB, and another good event.
        struct GigabyteLineSource: ByteSource {
            static let filler = [UInt8](repeating: 0x61, count: 1 << 20)
            var step = 0
            mutating func nextChunk() throws -> [UInt8]? {
                defer { step += 1 }
                switch step {
                case 0: return Array(HostileInputTests.good.utf8) + Array(#"{"type":"AVMetricErrorEvent","x":""#.utf8)
                case 1...1024: return Self.filler
                case 1025:
                    return Array("\"}\n".utf8)
                        + Array(HostileInputTests.good.replacingOccurrences(of: "07:31", with: "07:32").utf8)
                default: return nil
                }
            }
        }
        let outcome = Ingestor().ingest(BundleMember(path: "gigabyte.jsonl", open: { GigabyteLineSource() }))
        let result = try #require(outcome.result)
        #expect(outcome.format == .metricEvents)
        #expect(result.records.count == 2)
        #expect(
            (outcome.diagnostics + result.diagnostics).contains {
                $0.location == SourceLocation(file: "gigabyte.jsonl", line: 2) && $0.message.contains("too long")
            }, "the 1 GiB line is named and said to be cut")
    }

    @Test func nulBytesInvalidUTF8AndUTF16AreDiagnosed() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Array(Self.good.utf8) + [0, 0, 0, 10] + Array(Self.good.utf8)).write(
            to: dir.appendingPathComponent("nul.jsonl"))
        try Data([0xFF, 0xFE] + Array("#\0E\0X\0T\0".utf8)).write(to: dir.appendingPathComponent("utf16.m3u8"))
        try Data(
            Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n".utf8) + [0xC3, 0x28, 0xFF] + Array("s1.ts\n".utf8)
        )
        .write(to: dir.appendingPathComponent("bad-utf8.m3u8"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(report.diagnostics.contains { $0.location == SourceLocation(file: "nul.jsonl", line: 2) })
        #expect(report.diagnostics.contains { $0.location.file == "utf16.m3u8" && $0.message.contains("UTF-16") })
        #expect(report.inputs.contains { $0.path == "bad-utf8.m3u8" && $0.format == .playlist })
    }

    @Test func truncatedGzipAndZipAreReportedAndTheRestIsRead() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gz = GzipCompressor.compress(Array(String(repeating: Self.good, count: 100).utf8))
        try Data(gz.prefix(gz.count / 2)).write(to: dir.appendingPathComponent("cut.jsonl.gz"))
        let zipData = try Data(contentsOf: TestPaths.sampleLogs.appendingPathComponent("clean-session.zip"))
        try zipData.prefix(zipData.count / 2).write(to: dir.appendingPathComponent("cut.zip"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(
            report.diagnostics.contains { $0.location.file == "cut.jsonl.gz" && $0.message.contains("truncated gzip") })
        #expect(report.diagnostics.contains { $0.location.file.hasPrefix("cut.zip") && $0.severity == .error })
    }

    /// A small gzip (all of it inside the sniffing peek) that is cut, or followed by garbage:
    /// every complete line before the problem is read, and the problem is named.
    @Test func aSmallCutGzipKeepsItsCompleteLines() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let events =
            (0..<8).map { i in
                #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:3\#(i).002Z","sessionID":"S","rate":0,"previousRate":1}"#
            }.joined(separator: "\n") + "\n"
        let gz = GzipCompressor.compress(Array(events.utf8))
        try Data(gz.prefix(gz.count - 12)).write(to: dir.appendingPathComponent("cut.jsonl.gz"))
        try Data(gz + [0x00, 0x13, 0x37, 0x42, 0x99]).write(to: dir.appendingPathComponent("trailing.jsonl.gz"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        let cut = report.inputs.first { $0.path == "cut.jsonl.gz" }
        #expect(cut?.format == .metricEvents)
        #expect((cut?.records ?? 0) >= 6, "\(String(describing: cut))")
        #expect(report.diagnostics.contains { $0.location.file == "cut.jsonl.gz" && $0.severity == .error })
        let trailing = report.inputs.first { $0.path == "trailing.jsonl.gz" }
        #expect(trailing?.records == 8)
        #expect(report.diagnostics.contains { $0.location.file == "trailing.jsonl.gz" })
    }

    static func event(_ i: Int) -> String {
        #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:\#(10 + i).002Z","sessionID":"S","rate":0,"previousRate":1}"#
    }

    /// A first line that is not a valid event — two glued events, a cut line — does not turn the
    /// file into one broken JSON document: the good lines after it are read, the bad one named.
    @Test(arguments: ["glued", "cut"])
    func aBadFirstLineDoesNotCostTheGoodEvents(kind: String) throws {
        let first = kind == "glued" ? Self.event(0) + Self.event(1) : String(Self.event(0).prefix(40))
        let text = ([first] + (2..<10).map(Self.event)).joined(separator: "\n") + "\n"
        let result = try #require(ingest("dump.jsonl", text).result)
        #expect(result.records.count == 8)
        #expect(result.diagnostics.contains { $0.location.line == 1 && $0.severity == .error })
    }

    /// Several `{"events": […]}` batches, one per line: every batch is read.
    @Test func everyBatchLineIsRead() throws {
        let batch = { (r: Range<Int>) in
            #"{"sessionID":"S","events":["# + r.map(Self.event).joined(separator: ",") + "]}"
        }
        let text = [batch(0..<3), batch(3..<6), batch(6..<8)].joined(separator: "\n") + "\n"
        let result = try #require(ingest("batches.json", text).result)
        #expect(result.records.count == 8)
        #expect(result.records.map(\.location.line).max() == 3)
    }

    /// Classic Mac line endings (CR alone): read as lines, with a note — not one endless line.
    @Test func crOnlyLineEndingsAreReadAsLines() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = (1...3).map { Self.good.replacingOccurrences(of: "07:31", with: "07:3\($0)") }.joined()
            .replacingOccurrences(of: "\n", with: "\r")
        try Data(text.utf8).write(to: dir.appendingPathComponent("mac.jsonl"))
        let report = try analyze(dir)
        #expect(report.inputs.first { $0.path == "mac.jsonl" }?.records == 3)
        #expect(report.diagnostics.contains { $0.location.file == "mac.jsonl" && $0.message.contains("CR alone") })
    }

    @Test func deeplyNestedJSONIsRefusedWithoutRecursion() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try Data(("{\"type\":\"AVMetricErrorEvent\",\"x\":" + deep + "}\n").utf8).write(
            to: dir.appendingPathComponent("deep.jsonl"))
        try Data(("{\"events\":" + deep + "}\n").utf8).write(to: dir.appendingPathComponent("deep-doc.json"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(
            report.diagnostics.contains { $0.location.file == "deep.jsonl" && $0.message.contains("nested deeper") })
        #expect(
            report.diagnostics.contains { $0.location.file == "deep-doc.json" && $0.message.contains("nested deeper") })
    }

    @Test func oddTimestampsBackwardsClocksAndDuplicatesAreDiagnosed() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = [
            #"{"type":"AVMetricPlayerItemRateChangeEvent","date":"2026-11-21T10:00:00Z","sessionID":"S","rate":1,"previousRate":0}"#,
            #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T09:00:00Z","sessionID":"S","rate":0,"previousRate":1}"#,
            #"{"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T09:00:00Z","sessionID":"S","rate":0,"previousRate":1}"#,
            #"{"type":"AVMetricPlayerItemStallEvent","date":"0001-01-01T00:00:00Z","sessionID":"S","rate":0,"previousRate":1}"#,
            #"{"type":"AVMetricPlayerItemStallEvent","date":1e300,"sessionID":"S","rate":0,"previousRate":1}"#,
            #"{"type":"AVMetricPlayerItemStallEvent","date":"9999-12-31T23:59:59.999Z","sessionID":"S","rate":0,"previousRate":1}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("odd.jsonl"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(
            report.diagnostics.contains {
                $0.location == SourceLocation(file: "odd.jsonl", line: 2) && $0.message.contains("backwards")
            })
        #expect(
            report.diagnostics.contains {
                $0.location == SourceLocation(file: "odd.jsonl", line: 3) && $0.message.contains("duplicate")
            })
        // Rendering the far-off dates does not crash.
        _ = ForensicsReportsProbe.render(report)
    }

    @Test func emptyFilesAreDiagnosed() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data().write(to: dir.appendingPathComponent("empty.log"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(report.diagnostics.contains { $0.location.file == "empty.log" && $0.message.contains("empty") })
    }

    /// `Range: bytes=0-9223372036854775807` (a length that does not fit) in a HAR request and in a
    /// KTVHTTPCache request: read as an open range, never an overflow trap.
    @Test func aRangeEndingAtInt64MaxIsAnOpenRange() throws {
        #expect(ByteRange(httpRangeHeader: "bytes=0-9223372036854775807") == ByteRange(offset: 0, length: nil))
        #expect(ByteRange(httpRangeHeader: "bytes=1-9223372036854775807") == ByteRange(offset: 1, length: Int64.max))
        let har = #"""
            {"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"startedDateTime":"2026-11-21T10:00:00.000Z","time":10,
            "request":{"method":"GET","url":"https://cdn.example.com/a.mp4","httpVersion":"HTTP/1.1","headers":[{"name":"Range","value":"bytes=0-9223372036854775807"}],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},
            "response":{"status":206,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":9223372036854775807,"mimeType":"video/mp4"},"redirectURL":"","headersSize":-1,"bodySize":9223372036854775807},
            "cache":{},"timings":{"send":0,"wait":5,"receive":5}}]}}
            """#
        let ktv = """
            2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
            request : <KTVHCDataRequest: 0x280d2c780>
            URL : https://cdn.example.com/a.mp4
            headers : {
                Range = "bytes=0-9223372036854775807";
            }
            2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
            Length : 9223372036854775807
            URL : https://cdn.example.com/a.mp4
            2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
            request : <KTVHCDataRequest: 0x280d2c790>
            URL : https://cdn.example.com/a.mp4
            headers : {
                Range = "bytes=1-9223372036854775807";
            }
            2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
            Length : 9223372036854775807
            URL : https://cdn.example.com/a.mp4
            2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
            Length : 9223372036854775807
            URL : https://cdn.example.com/a.mp4
            """
        let report = Analyzer().analyze(files: [("a.har", Array(har.utf8)), ("KTVHTTPCache.log", Array(ktv.utf8))])
        #expect(report.inputs.map(\.records) == [5, 1])
        #expect(report.sessions.flatMap(\.findings).contains { $0.ruleID == "proxy-cache-ineffective" })
    }

    /// A ustar header block for `name` of `size` bytes, with the size field given raw when asked.
    static func tarHeader(_ name: String, size: Int, rawSize: [UInt8]? = nil) -> [UInt8] {
        var h = [UInt8](repeating: 0, count: 512)
        for (i, b) in name.utf8.prefix(99).enumerated() { h[i] = b }
        for (i, b) in "0000644\0".utf8.enumerated() { h[100 + i] = b }
        let octal = String(size, radix: 8)
        let field = Array((String(repeating: "0", count: max(0, 11 - octal.count)) + octal).utf8) + [0]
        for (i, b) in (rawSize ?? field).prefix(12).enumerated() { h[124 + i] = b }
        for (i, b) in "00000000000\0".utf8.enumerated() { h[136 + i] = b }
        h[156] = 0x30
        for (i, b) in "ustar\000".utf8.enumerated() { h[257 + i] = b }
        for i in 148..<156 { h[i] = 32 }
        let sum = h.reduce(0) { $0 + Int($1) }
        for (i, b) in Array((String(sum, radix: 8).leftPadded(to: 6) + "\0 ").utf8).enumerated() { h[148 + i] = b }
        return h
    }

    /// A base-256 size near Int.max, or negative, after a good member: the good member's records
    /// are kept and the bad header is named — no overflow trap.
    @Test(arguments: [
        [0x80, 0, 0, 0, 0x7F] + [UInt8](repeating: 0xFF, count: 7),
        [0x80, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00],
        [0x80] + [UInt8](repeating: 0xFF, count: 11), [0xBF] + [UInt8](repeating: 0xFF, count: 11),
        [UInt8](repeating: 0xFF, count: 12),
    ])
    func aTarMemberSizeNearIntMaxOrNegativeIsCorruptNotACrash(rawSize: [UInt8]) throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = Array(Self.good.utf8)
        var tar = Self.tarHeader("inner.jsonl", size: body.count) + body
        tar += [UInt8](repeating: 0, count: (512 - body.count % 512) % 512)
        tar += Self.tarHeader("evil.jsonl", size: 0, rawSize: rawSize) + [UInt8](repeating: 0, count: 1024)
        try Data(tar).write(to: dir.appendingPathComponent("bundle.tar"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(report.inputs.contains { $0.path == "bundle.tar/inner.jsonl" && $0.records == 1 })
        #expect(report.diagnostics.contains { $0.location.file.hasPrefix("bundle.tar") && $0.message.contains("size") })
    }

    /// Probe M: two members of one name each get a path of their own (the later `name (2)`,
    /// with a warning), so every citation names one member. Near miss: distinct names unchanged.
    @Test func membersOfOneNameAreCitedApart() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = Array(Self.good.utf8)
        var tar: [UInt8] = []
        for name in ["inner.jsonl", "inner.jsonl", "inner.jsonl (2)", "other.jsonl"] {
            tar += Self.tarHeader(name, size: body.count) + body
            tar += [UInt8](repeating: 0, count: (512 - body.count % 512) % 512)
        }
        tar += [UInt8](repeating: 0, count: 1024)
        try Data(tar).write(to: dir.appendingPathComponent("bundle.tar"))
        let report = try analyze(dir)
        let paths = report.inputs.map(\.path)
        #expect(paths.contains("bundle.tar/inner.jsonl") && paths.contains("bundle.tar/inner.jsonl (2)"), "\(paths)")
        #expect(paths.contains("bundle.tar/other.jsonl"))
        #expect(Set(paths).count == paths.count)
        #expect(
            report.diagnostics.contains { $0.message.contains("more than one member named bundle.tar/inner.jsonl") })
        // Near miss of a collision: a member really called `inner.jsonl (2)` keeps a path of its own.
        #expect(paths.filter { $0.hasPrefix("bundle.tar/") }.count == 4, "\(paths)")
    }

    /// Link, device and FIFO members of a tar are never followed or read, and never vanish
    /// without a word (probe B, F10): each is named with its kind, and the regular member beside
    /// them keeps its records.
    @Test func linkAndDeviceMembersOfATarAreNamed() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = Array(Self.good.utf8)
        var tar = Self.tarHeader("inner.jsonl", size: body.count) + body
        tar += [UInt8](repeating: 0, count: (512 - body.count % 512) % 512)
        for (name, type) in [("sym.log", UInt8(0x32)), ("hard.log", 0x31), ("pipe.log", 0x36), ("tty", 0x33)] {
            var header = Self.tarHeader(name, size: 0)
            header[156] = type
            for i in 148..<156 { header[i] = 32 }
            let sum = header.reduce(0) { $0 + Int($1) }
            for (i, b) in Array((String(sum, radix: 8).leftPadded(to: 6) + "\0 ").utf8).enumerated() {
                header[148 + i] = b
            }
            tar += header
        }
        tar += [UInt8](repeating: 0, count: 1024)
        try Data(tar).write(to: dir.appendingPathComponent("bundle.tar"))
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        for (name, kind) in [
            ("sym.log", "symbolic link"), ("hard.log", "hard link"), ("pipe.log", "FIFO"), ("tty", "character device"),
        ] {
            #expect(
                report.diagnostics.contains {
                    $0.location.file == "bundle.tar/" + name && $0.severity == .warning && $0.message.contains(kind)
                }, "\(name)")
        }
    }

    /// A FIFO, a Unix socket and a character device inside a bundle are named and skipped (opening
    /// a FIFO blocks forever); the good file beside them keeps its records.
    @Test func specialFilesAreSkippedWithoutOpeningThem() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("pipe.log").path, 0o644) == 0)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let socketPath = dir.appendingPathComponent("agent.sock").path
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("zero").path, withDestinationPath: "/dev/zero")
        let report = try analyze(dir)
        #expect(goodRecordSurvived(report))
        #expect(report.diagnostics.contains { $0.location.file == "pipe.log" && $0.message.contains("FIFO") })
        #expect(report.diagnostics.contains { $0.location.file == "agent.sock" && $0.message.contains("socket") })
        #expect(!report.inputs.contains { $0.path == "pipe.log" || $0.path == "agent.sock" })
        // Given directly (as `--log-format` users do), a FIFO is refused, not waited on.
        #expect(throws: InputError.self) {
            var d: [Diagnostic] = []
            try BundleReader().read(path: dir.appendingPathComponent("pipe.log").path, diagnostics: &d) { _ in }
        }
    }

    /// A file appended to while it is read is read up to its size at open.
    @Test func aGrowingFileIsReadToItsSizeAtOpen() throws {
        let dir = try bundle()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("growing.log").path
        try Data(repeating: 0x61, count: 10_000).write(to: URL(fileURLWithPath: path))
        var source = try FileByteSource(path: path, chunkSize: 4096)
        let writer = try #require(FileHandle(forWritingAtPath: path))
        writer.seekToEndOfFile()
        var total = 0
        while let chunk = try source.nextChunk() {
            total += chunk.count
            writer.write(Data(repeating: 0x62, count: 8192))
            #expect(total <= 10_000)
        }
        try writer.close()
        #expect(total == 10_000)
    }
}

extension String {
    func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

/// Probe N: one event dated 9999-12-31 (or 0001) between events of 2026 keeps its content but
/// not its time, with a warning at its line; no startup of 251,607,045,599 s. Near misses: a long
/// log's earlier weeks (neighbours near each other) and a file's first or last record (in 2000–2199)
/// keep theirs.
@Suite struct TimeOutlierTests {
    static func event(_ type: String, _ date: String, _ extra: String = "") -> String {
        "{\"type\":\"\(type)\",\"date\":\"\(date)\",\"sessionID\":\"S1\"\(extra)}"
    }

    func ingest(_ lines: [String]) throws -> ParseResult {
        let outcome = Ingestor().ingest(
            BundleMember(path: "metrics.jsonl", open: { MemoryByteSource(Array(lines.joined(separator: "\n").utf8)) }))
        return try #require(outcome.result)
    }

    @Test func aLoneFarDateLosesItsTimeOnly() throws {
        for far in ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "1970-01-01T00:00:00Z"] {
            let r = try ingest([
                Self.event(
                    "AVMetricPlayerItemRateChangeEvent", "2026-11-21T10:00:00Z", ",\"rate\":1,\"previousRate\":0"),
                Self.event("AVMetricPlayerItemInitialLikelyToKeepUpEvent", far, ",\"timeTaken\":0.9"),
                Self.event("AVMetricPlayerItemStallEvent", "2026-11-21T10:00:30Z", ",\"rate\":0,\"previousRate\":1"),
            ])
            #expect(r.records.count == 3)
            #expect(r.records[1].time == nil && r.records[0].time != nil && r.records[2].time != nil, "\(far)")
            let warning = try #require(r.diagnostics.first { $0.message.contains("more than 30 days") })
            #expect(warning.location.line == 2)
        }
        // Probe Q: a request's own end in 2200 is dropped, with a warning (the session is not
        // stretched to it).
        let far = try ingest([
            Self.event("AVMetricPlayerItemRateChangeEvent", "2026-11-21T10:00:00Z", ",\"rate\":1,\"previousRate\":0"),
            "{\"type\":\"AVMetricHLSMediaSegmentRequestEvent\",\"date\":\"2026-11-21T10:00:06Z\",\"sessionID\":\"S1\",\"url\":\"https://cdn.example.com/a/s1.ts\",\"mediaResourceRequestEvent\":{\"url\":\"https://cdn.example.com/a/s1.ts\",\"requestStartTime\":\"2026-11-21T10:00:05Z\",\"responseEndTime\":\"2200-01-01T00:00:00Z\"}}",
            Self.event("AVMetricPlayerItemStallEvent", "2026-11-21T10:00:30Z", ",\"rate\":0,\"previousRate\":1"),
        ])
        #expect(far.records.compactMap(\.request).first?.end == nil)
        #expect(far.records.compactMap(\.request).first?.start != nil)
        #expect(far.diagnostics.contains { $0.message.contains("request with a start or end") })
        // Probe O: before 2000 or from 2200 on, a first or last record loses its time too.
        for (far, at) in [("1970-01-01T00:00:00Z", 0), ("9999-12-31T23:59:59Z", 2)] {
            var lines = [
                Self.event(
                    "AVMetricPlayerItemRateChangeEvent", "2026-11-21T10:00:00Z", ",\"rate\":1,\"previousRate\":0"),
                Self.event(
                    "AVMetricPlayerItemInitialLikelyToKeepUpEvent", "2026-11-21T10:00:01Z", ",\"timeTaken\":0.9"),
                Self.event("AVMetricPlayerItemStallEvent", "2026-11-21T10:00:30Z", ",\"rate\":0,\"previousRate\":1"),
            ]
            lines[at] = lines[at].replacingOccurrences(
                of: at == 0 ? "2026-11-21T10:00:00Z" : "2026-11-21T10:00:30Z", with: far)
            let r = try ingest(lines)
            #expect(r.records[at].time == nil, "\(far)")
            #expect(r.records.filter { $0.time != nil }.count == 2)
        }
        // Near miss: weeks apart in order (an appended log) and a far last record are kept.
        let kept = try ingest([
            Self.event("AVMetricPlayerItemRateChangeEvent", "2026-08-01T10:00:00Z", ",\"rate\":1,\"previousRate\":0"),
            Self.event("AVMetricPlayerItemRateChangeEvent", "2026-08-01T10:05:00Z", ",\"rate\":1,\"previousRate\":0"),
            Self.event("AVMetricPlayerItemRateChangeEvent", "2026-11-21T10:00:00Z", ",\"rate\":1,\"previousRate\":0"),
            Self.event("AVMetricPlayerItemRateChangeEvent", "2026-11-21T10:05:00Z", ",\"rate\":1,\"previousRate\":0"),
            Self.event("AVMetricPlayerItemRateChangeEvent", "2027-06-01T10:00:00Z", ",\"rate\":1,\"previousRate\":0"),
        ])
        #expect(kept.records.allSatisfy { $0.time != nil })
        #expect(!kept.diagnostics.contains { $0.message.contains("more than 30 days") })
    }
}
