import ForensicsCore
import Testing

@testable import ForensicsParsers

/// Per-chunk progress entries fold into runs (first and last kept, the middle counted) as the
/// log is read: the record count follows the requests, not the bytes, and what the rules read
/// from the chunks (the running total, the sum of chunks) is the same as from every entry.
@Suite struct CacheLogChatterFoldTests {
    static let url = "https://media.example.com/vod/clip-7.mp4"

    /// One download as 2.x logs it (KTVHCDownload.m, KTVHCDataNetworkSource.m, KTVHCHTTPResponse.m):
    /// per chunk the download module's Begin and End, the network source's running total and
    /// the response's read.
    static func download(chunks: Int, chunk: Int = 16384, second: Int = 1, source: String = "0x2835e8c60") -> String {
        let t = String(format: "2026-11-21 10:00:%02d +0000", second)
        var lines = [
            "\(t)  KTVHCDataNetworkSource  :   \(source), Create network source",
            "request : <KTVHCDataRequest: 0x280d2c780>",
            "range : Range : {0, \(chunks * chunk - 1)}",
            "\(t)  KTVHCDownload           :   0x2804f1e30, Add Request",
            "request : <KTVHCDataRequest: 0x280d2c780>",
            "URL : \(url)",
            "headers : {",
            "    Range = \"bytes=0-\(chunks * chunk - 1)\";",
            "}",
        ]
        for k in 1...chunks {
            lines += [
                "\(t)  KTVHCDownload           :   0x2804f1e30, Receive data - Begin", "Length : \(chunk)",
                "URL : \(url)",
                "\(t)  KTVHCDataNetworkSource  :   \(source), Receive data : \(chunk), \(k * chunk), \(chunks * chunk)",
                "\(t)  KTVHCDownload           :   0x2804f1e30, Receive data - End", "Length : \(chunk)",
                "URL : \(url)",
                "\(t)  KTVHCHTTPResponse       :   0x283c94150, Read data : \(chunk)",
            ]
        }
        lines.append("\(t)  KTVHCDataNetworkSource  :   \(source), Complete and finisehed")
        return lines.joined(separator: "\n") + "\n"
    }

    static func parse(_ log: String, maxRecords: Int = .max) throws -> ParseResult {
        var parser = CacheLogParser(file: "KTVHTTPCache.log")
        parser.maxRecords = maxRecords
        var reader = LineReader(MemoryByteSource(Array(log.utf8)), maxLineLength: 1 << 20)
        return try parser.parse(lines: &reader)
    }

    @Test func aDownloadsChunksAreTwoRecordsPerRunCarryingTheirBytes() throws {
        let result = try Self.parse(Self.download(chunks: 64))
        let events = result.records.compactMap(\.proxyEvent)
        // Source, request, four runs of two (Begin, running total, End, read), completion.
        #expect(events.count == 11)
        let lines = result.records.map(\.location.line)
        #expect(lines == lines.sorted() && Set(lines).count == lines.count)
        let begins = events.filter { $0.kind == .downloadData && !$0.isChunkEndEcho }
        #expect(begins.map(\.foldedEntries) == [62, 0])
        #expect(begins.compactMap(\.contentLength).reduce(0, +) == 64 * 16384)
        let totals = events.filter { $0.kind == .networkData }
        #expect(totals.map(\.contentLength) == [63 * 16384, 64 * 16384])
        let reads = events.filter { $0.kind == .generic && $0.tag == "KTVHCHTTPResponse" }
        #expect(reads.map(\.foldedEntries) == [62, 0])
        // The first of a run says how far it reaches; the last keeps its own line.
        let firstBegin = try #require(result.records.first { $0.proxyEvent?.foldedEntries == 62 })
        #expect(firstBegin.summary.hasSuffix("(and 62 more like it through line \(10 + 62 * 8))"))
    }

    /// Near miss: any other entry between two chunks ends the run, and each side is its own.
    @Test func anotherEntryBetweenChunksEndsTheRun() throws {
        let t = "2026-11-21 10:00:01 +0000"
        let chunk = "\(t)  KTVHCDataNetworkSource  :   0x2835e8c60, Receive data : 16384, 16384, 65536\n"
        let log =
            chunk + chunk + chunk + "\(t)  KTVHCDataUnit           :   0x2839a0b40, Delete Unit\n" + chunk + chunk
        let events = try Self.parse(log).records.compactMap(\.proxyEvent)
        #expect(events.map(\.kind) == [.networkData, .networkData, .unitDeleted, .networkData, .networkData])
        #expect(events.map(\.foldedEntries) == [1, 0, 0, 0, 0])
    }

    /// Entries with anything more than progress (an error, a range, headers) never fold.
    @Test func chatterIsOnlyProgress() {
        var read = ProxyEvent(kind: .generic, tag: "KTVHCHTTPResponse", message: "Read data : 16384")
        #expect(CacheLogChatterFold.isChatter(read))
        read.message = "Read data did finished"
        #expect(!CacheLogChatterFold.isChatter(read))
        var failed = ProxyEvent(kind: .networkData, tag: "KTVHCDataNetworkSource", message: "Receive data : 1, 1, 1")
        failed.error = ErrorInfo(domain: "NSURLErrorDomain", code: -1001, description: "timed out")
        #expect(!CacheLogChatterFold.isChatter(failed))
        #expect(
            !CacheLogChatterFold.isChatter(
                ProxyEvent(kind: .downloadRequest, tag: "KTVHCDownload", message: "Add Request")))
    }

    /// A large log of chunks is read whole under a small record limit, its runs bounded: more
    /// interleaved runs than `maxOpenRuns` (300 URLs, round-robin) close them all, the order still
    /// holds and no chunk's bytes are lost.
    @Test func aLogOfChunksIsReadWholeAndInOrder() throws {
        var log = ""
        let urls = CacheLogChatterFold.maxOpenRuns + 44
        for _ in 0..<3 {
            for k in 0..<urls {
                log +=
                    "2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin\nLength : 10\nURL : https://a.example/\(k)\n"
            }
        }
        log += Self.download(chunks: 5000, second: 2)
        let result = try Self.parse(log, maxRecords: 2000)
        #expect(!result.diagnostics.contains { $0.message.contains("limit") })
        let chunks = result.records.compactMap(\.proxyEvent).filter { $0.url?.hasPrefix("https://a.example/") == true }
        #expect(chunks.compactMap(\.contentLength).reduce(0, +) == Int64(3 * urls * 10))
        let lines = result.records.map(\.location.line)
        #expect(lines == lines.sorted())
        let last = try #require(result.records.last?.proxyEvent)
        #expect(last.kind == .networkComplete)
        let totals = result.records.compactMap(\.proxyEvent).filter { $0.kind == .networkData }.compactMap(
            \.contentLength)
        let largest: Int64 = 5000 * 16384
        #expect(totals.max() == largest)
    }
}
