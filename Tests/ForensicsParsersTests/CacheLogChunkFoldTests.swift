import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsParsers

/// A progress chunk that continues an open run is folded from its bytes, without its event
/// (`CacheLogChatterFold.foldChunk`). It must give the records that making every event gives,
/// field for field, on every shape of chunk the templates allow — and the near misses (a
/// reference, an error dump, a non-ASCII byte, an oversized entry) must take the event path.
@Suite struct CacheLogChunkFoldTests {
    static let t = "2026-11-21 10:00:01 +0000"

    /// Every record as text: line, time, session and the whole payload.
    static func rendered(_ result: ParseResult) -> [String] {
        result.records.map { r in
            let payload: String =
                switch r.payload {
                case .proxy(var e):
                    // Headers in a fixed order (a dictionary's own order differs from copy to copy).
                    e.headers.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
                        + {
                            e.headers = [:]
                            return "\(e)"
                        }()
                case .console(let line): "\(line)"
                case .player(let p): "\(p)"
                default: "other"
                }
            return "\(r.location.line) \(String(describing: r.time)) \(r.sessionID ?? "-") \(payload)"
        }
    }

    /// The first record where the two readings differ, or nil when they agree.
    static func firstDifference(_ a: [String], _ b: [String]) -> String? {
        for (x, y) in zip(a, b) where x != y { return "\(x)\n  vs\n\(y)" }
        return a.count == b.count ? nil : "\(a.count) records vs \(b.count)"
    }

    /// Parses `log` both ways; returns the records of each and how many chunks were folded from bytes.
    static func bothWays(_ log: String, maxRecords: Int = .max) throws -> (fast: [String], slow: [String], folded: Int)
    {
        func run(_ fromBytes: Bool) throws -> ([String], [Diagnostic], Int) {
            var parser = CacheLogParser(file: "KTVHTTPCache.log")
            parser.maxRecords = maxRecords
            parser.foldsChunksFromBytes = fromBytes
            var reader = LineReader(MemoryByteSource(Array(log.utf8)), maxLineLength: 1 << 20)
            var folded = 0
            let result = try parser.parse(lines: &reader, chunksFoldedFromBytes: &folded)
            return (rendered(result), result.diagnostics, folded)
        }
        let fast = try run(true)
        let slow = try run(false)
        #expect(fast.1 == slow.1)
        #expect(slow.2 == 0)
        return (fast.0, slow.0, fast.2)
    }

    /// The opening of a request path (so chunks get a path) and enough entries that the version
    /// clues are done reading (`CacheLogParser.entriesToObserve`).
    static var preamble: String {
        var lines = [
            "\(t)  KTVHCHTTPConnection     :   0x281c3a4c0, Receive request",
            "method : GET",
            "path : /request.mp4?url=https%3A%2F%2Fmedia.example.com%2Fvod%2Fclip.mp4",
            "version : HTTP/1.1",
            "\(t)  KTVHCDataRequest        :   0x280d2c780, Create data request",
            "URL : https://media.example.com/vod/clip.mp4",
            "Headers : {",
            "    \"X-Playback-Session-Id\" = \"9F0C1B2A-0000-4000-8000-000000000001\";",
            "}",
        ]
        for k in 0..<CacheLogParser.entriesToObserve {
            lines.append("\(t)  KTVHCDataStorage        :   0x2839a0b40, Tick \(k)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func begin(
        _ url: String, length: String = "16384", end: Bool = false, pointer: String = "0x2804f1e30"
    )
        -> String
    {
        "\(t)  KTVHCDownload           :   \(pointer), Receive data - \(end ? "End" : "Begin")\nLength : \(length)\nURL : \(url)\n"
    }

    static func total(_ so: Int, source: String = "0x2835e8c60") -> String {
        "\(t)  KTVHCDataNetworkSource  :   \(source), Receive data : 16384, \(so), 5510872\n"
    }

    static func read(_ message: String = "Read data : 16384") -> String {
        "\(t)  KTVHCHTTPResponse       :   0x283c94150, \(message)\n"
    }

    @Test func interleavedRunsFoldTheSameFromBytesAsFromEvents() throws {
        var log = Self.preamble
        for k in 0..<400 {
            log += Self.begin("https://media.example.com/vod/clip-\(k % 7).mp4")
            log += Self.total(k * 16384)
            log += Self.total(k * 16384, source: "0x2835e8d00")
            log += Self.begin("https://media.example.com/vod/clip-\(k % 7).mp4", end: true)
            log += Self.read(k % 2 == 0 ? "Read data : 16384" : "READ DATA : 16384")
        }
        let (fast, slow, folded) = try Self.bothWays(log)
        #expect(Self.firstDifference(fast, slow) == nil)
        #expect(folded > 1500)
        // The preamble's entries, then the runs: seven URLs and four other kinds of chunk.
        #expect(fast.count < CacheLogParser.entriesToObserve + 200)
    }

    @Test func oddChunkShapesFoldTheSameFromBytesAsFromEvents() throws {
        var log = Self.preamble
        let url = "https://media.example.com/vod/clip.mp4"
        for k in 0..<30 {
            log += Self.begin(url)
            // Lengths the event path reads as Int64(String): signs, junk, overflow, absent.
            log += Self.begin(url, length: ["+16384", "-5", "16x", "", "99999999999999999999", "0"][k % 6])
            log += "\(Self.t)  KTVHCDownload           :   0x2804f1e30, Receive data - Begin\nURL : \(url)\n"
            // NSURL's `relative -- base` description.
            log += Self.begin("clip.mp4 -- https://media.example.com/vod/")
            log += Self.total(k)
            // A total without its numbers, and one with a spaced list.
            log += "\(Self.t)  KTVHCDataNetworkSource  :   0x2835e8c60, Receive data : 16384\n"
            log += "\(Self.t)  KTVHCDataNetworkSource  :   0x2835e8c60, Receive data : 16384 ,  \(k) , 9\n"
            log += Self.read()
            log += Self.read("read Data :   12")
        }
        let (fast, slow, folded) = try Self.bothWays(log)
        #expect(Self.firstDifference(fast, slow) == nil)
        #expect(folded > 100)
    }

    /// Near misses: a chunk naming another object, one with an error dump, one with a non-ASCII
    /// byte and one larger than `maxRawEntryBytes` are made into events; the records still agree.
    @Test func chunksThatAreNotReadFromBytesAgreeToo() throws {
        var log = Self.preamble
        let url = "https://media.example.com/vod/clip.mp4"
        for k in 0..<20 {
            log += Self.begin(url) + Self.begin(url)
            log +=
                "\(Self.t)  KTVHCDownload           :   0x2804f1e30, Receive data - Begin\nLength : 16384\nURL : \(url)\nrequest : <KTVHCDataRequest: 0x280d2c780>\n"
            log += Self.begin(url) + Self.begin(url)
            log += Self.read() + Self.read()
            log +=
                "\(Self.t)  KTVHCHTTPResponse       :   0x283c94150, Read data : 16384\nError : Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\"\n"
            log += Self.read() + Self.read()
            log +=
                Self.begin("https://media.example.com/vod/clip-é.mp4")
                + Self.begin("https://media.example.com/vod/clip-é.mp4")
            let long =
                "https://media.example.com/vod/" + String(repeating: "a", count: CacheLogChatterFold.maxRawEntryBytes)
            log += Self.begin(long) + Self.begin(long) + Self.begin(long)
            log += Self.total(k) + Self.total(k + 1)
        }
        let (fast, slow, _) = try Self.bothWays(log)
        #expect(Self.firstDifference(fast, slow) == nil)
        let results = try Self.parse(log)
        // The chunks with a reference or an error dump are events of their own, never folded.
        let referencing = results.records.compactMap(\.proxyEvent).filter {
            !$0.references.isEmpty && $0.kind == .downloadData
        }
        #expect(referencing.count == 20)
        #expect(referencing.allSatisfy { $0.foldedEntries == 0 })
    }

    /// A URL is its bytes: `café` precomposed and decomposed are two URLs, so two runs (probe I:
    /// `String ==` folded them, the byte hash did not). Non-ASCII entries take the event path, so
    /// this holds `append`'s key to the bytes the fast path compares. Near miss: the same bytes
    /// again fold.
    @Test func canonicallyEqualURLsAreTwoRuns() throws {
        let nfc = "https://media.example.com/vod/caf\u{E9}.mp4"
        let nfd = "https://media.example.com/vod/cafe\u{301}.mp4"
        #expect(nfc == nfd && !nfc.utf8.elementsEqual(nfd.utf8))
        for preamble in ["", Self.preamble] {
            let log = preamble + Self.begin(nfc) + Self.begin(nfd) + Self.begin(nfc) + Self.begin(nfc)
            let (fast, slow, _) = try Self.bothWays(log)
            #expect(Self.firstDifference(fast, slow) == nil)
            let chunks = try Self.parse(log).records.compactMap(\.proxyEvent).filter { $0.kind == .downloadData }
            #expect(chunks.count == 3)
            #expect(chunks.filter { $0.url.map { $0.utf8.elementsEqual(nfd.utf8) } == true }.count == 1)
        }
    }

    /// More runs than may be open at once, under a record limit: the runs close, the raw latest
    /// entries are made into records in line order, and the limit counts the same way.
    @Test func manyRunsAndARecordLimitAgree() throws {
        var log = Self.preamble
        // Rounds of more URLs than may be open at once (all runs close), then rounds of fewer
        // (runs fold from bytes and are closed by the limit or the end).
        for (round, urls) in [CacheLogChatterFold.maxOpenRuns + 30, 40, 40, 40, 40].enumerated() {
            for k in 0..<urls {
                log += Self.begin("https://a.example/\(k)", length: "\(round + 1)")
            }
        }
        for limit in [Int.max, 2500, 2300, 2100] {
            let (fast, slow, folded) = try Self.bothWays(log, maxRecords: limit)
            #expect(Self.firstDifference(fast, slow) == nil, "limit \(limit)")
            if limit == .max { #expect(folded >= 100) }
        }
    }

    /// Real logs (the team's corpus, the samples) after the preamble, so that their chunks are
    /// read with the fast path on: the same records either way.
    @Test func realLogsFoldTheSameFromBytesAsFromEvents() throws {
        let logs =
            TestPaths.files(under: TestPaths.corpus.appendingPathComponent("ktvhttpcache"), withExtension: "log")
            + [
                TestPaths.sampleLogs.appendingPathComponent("proxy-octet-stream/KTVHTTPCache.log"),
                TestPaths.sampleLogs.appendingPathComponent("ktvhttpcache-2x-ijkplayer/console.log"),
            ]
        #expect(logs.count >= 7)
        for url in logs {
            let text = try String(contentsOf: url, encoding: .utf8)
            let (fast, slow, _) = try Self.bothWays(Self.preamble + text + text)
            #expect(Self.firstDifference(fast, slow) == nil, "\(url.lastPathComponent)")
        }
    }

    static func parse(_ log: String) throws -> ParseResult {
        var reader = LineReader(MemoryByteSource(Array(log.utf8)), maxLineLength: 1 << 20)
        return try CacheLogParser(file: "KTVHTTPCache.log").parse(lines: &reader)
    }
}
