import Foundation
import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// The real KTVHTTPCache excerpts users pasted in GitHub issues parse into entries.
@Suite struct CacheLogCorpusTests {
    static var excerpts: [String] {
        TestPaths.files(under: TestPaths.corpus.appendingPathComponent("ktvhttpcache"), withExtension: "log").map(
            \.lastPathComponent)
    }

    @Test(arguments: excerpts)
    func realExcerptsParseWithoutUnknownTemplates(name: String) throws {
        let data = try Data(contentsOf: TestPaths.corpus.appendingPathComponent("ktvhttpcache/" + name))
        let outcome = ingest(name, [UInt8](data))
        #expect(outcome.format == .cacheLog)
        let records = outcome.result?.records ?? []
        #expect(!records.isEmpty)
        let unknown = (outcome.result?.diagnostics ?? []).filter { $0.message.contains("unrecognised") }
        #expect(unknown.isEmpty, "\(unknown.map(\.message))")
    }

    @Test func issue25ConsoleExcerptYieldsReaderAndNetworkSource() throws {
        let data = try Data(
            contentsOf: TestPaths.corpus.appendingPathComponent("ktvhttpcache/issue25-console-1.1.x.log"))
        let events = (ingest("i25.log", [UInt8](data)).result?.records ?? []).compactMap(\.proxyEvent)
        #expect(events.contains { $0.kind == .readerCreated && $0.pointer == "0x283c94150" })
        let net = try #require(events.first { $0.kind == .networkSource })
        #expect(net.range == ByteRange(offset: 0, length: 2))
        #expect(net.references.contains("0x281893b70"))
    }

    @Test func issue107HeaderDumpGivesRangeAndUserAgent() throws {
        let data = try Data(
            contentsOf: TestPaths.corpus.appendingPathComponent("ktvhttpcache/issue107-console-ijkplayer-1.1.x.log"))
        let events = (ingest("i107.log", [UInt8](data)).result?.records ?? []).compactMap(\.proxyEvent)
        let request = try #require(events.first { $0.kind == .dataRequest })
        #expect(request.headers["Range"] == "bytes=0-9514767")
        #expect(request.headers["User-Agent"] == "ijkplayer")
        #expect(request.range == ByteRange(offset: 0, length: 9_514_768))
    }

    @Test func issue63ErrorPathGivesTheFailureCodeAndForeignLine() throws {
        let data = try Data(
            contentsOf: TestPaths.corpus.appendingPathComponent("ktvhttpcache/issue63-console-error-1.1.0.log"))
        let records = ingest("i63.log", [UInt8](data)).result?.records ?? []
        let events = records.compactMap(\.proxyEvent)
        #expect(events.contains { $0.kind == .sourceManagerFailure && $0.error?.code == -192701 })
        // CFNetwork's own line is the system's, from the app's process — not a proxy module.
        let console = try #require(records.compactMap(\.consoleLine).first)
        #expect(console.process == "together")
        #expect(console.component == .system)
        #expect(console.text.hasPrefix("Task <61A3EA30"))
        let failed = try #require(events.first { $0.kind == .networkFailed })
        #expect(failed.error?.domain == "KTVHTTPCache error")
        #expect(failed.error?.description == "unsupported Content-Type")
    }

    @Test func issue159InvalidResponseGivesStatus302AndContentType() throws {
        let data = try Data(
            contentsOf: TestPaths.corpus.appendingPathComponent(
                "ktvhttpcache/issue159-console-invalid-response-2.x.log"))
        let events = (ingest("i159.log", [UInt8](data)).result?.records ?? []).compactMap(\.proxyEvent)
        let invalid = try #require(events.first { $0.kind == .downloadInvalidResponse })
        #expect(invalid.status == 302)
        #expect(invalid.contentType == "application/octet-stream")
    }

    @Test func issue110RecordLogHasUTCTimestamps() throws {
        let data = try Data(
            contentsOf: TestPaths.corpus.appendingPathComponent("ktvhttpcache/issue110-record-log-1.1.x.log"))
        let records = ingest("i110.log", [UInt8](data)).result?.records ?? []
        #expect(records.first?.time?.iso8601 == "2019-04-23T09:26:03.000Z")
        #expect(records.contains { $0.proxyEvent?.kind == .connectionRequest })
    }
}

/// The request path through the proxy is rebuilt from pointers.
@Suite struct CacheLogPathTests {
    @Test func entriesOfOneRequestShareAPathAndItsSessionID() throws {
        let data = try Data(
            contentsOf: TestPaths.sampleLogs.appendingPathComponent("proxy-octet-stream/KTVHTTPCache.log"))
        let records = ingest("k.log", [UInt8](data)).result?.records ?? []
        let accept = try #require(records.first { $0.proxyEvent?.kind == .acceptRequest })
        let path = try #require(accept.proxyEvent?.requestPath)
        let onPath = records.filter { $0.proxyEvent?.requestPath == path }
        #expect(onPath.contains { $0.proxyEvent?.kind == .dataRequest })
        #expect(onPath.contains { $0.proxyEvent?.kind == .networkSource })
        #expect(onPath.contains { $0.proxyEvent?.kind == .downloadResponse })
        #expect(onPath.allSatisfy { $0.sessionID == "9A1E44C2-7D3B-4C55-8E21-0F6A2B9C1D77" })
        #expect(onPath.allSatisfy { $0.proxyEvent?.requestURL == "https://media.example.com/v/clip42" })
        // The restarted server's later request opens a new path.
        let accepts = records.compactMap { $0.proxyEvent }.filter { $0.kind == .acceptRequest }.compactMap(
            \.requestPath)
        #expect(Set(accepts).count == accepts.count)
    }

    @Test func deallocatedPointersLeaveTheirPath() {
        let log = """
            2026-11-21 10:00:00 +0000  KTVHCHTTPConnection     :   0x1, Accept request
            URL : https://a.example.com/one.mp4
            2026-11-21 10:00:00 +0000  KTVHCHTTPResponse       :   0x2, Create response
            request : <KTVHCDataRequest: 0x3>
            2026-11-21 10:00:01 +0000  <KTVHCHTTPResponse: 0x2>  :   dealloc
            2026-11-21 10:00:02 +0000  KTVHCHTTPConnection     :   0x9, Accept request
            URL : https://a.example.com/two.mp4
            2026-11-21 10:00:02 +0000  KTVHCHTTPResponse       :   0x2, Create response
            request : <KTVHCDataRequest: 0x7>
            """
        let events = (ingest("k.log", log).result?.records ?? []).compactMap(\.proxyEvent).filter {
            $0.kind == .httpResponse
        }
        #expect(events.map(\.requestURL) == ["https://a.example.com/one.mp4", "https://a.example.com/two.mp4"])
    }

    /// A continuation line (a dumped header, a URL) over the line limit is cut and named, like a
    /// first line, and the entries after it are still read.
    @Test func anOverlongContinuationLineIsCutWithADiagnostic() throws {
        let log = """
            2026-11-21 10:00:00 +0000  KTVHCHTTPConnection     :   0x1, Accept request
            URL : https://a.example.com/\(String(repeating: "x", count: 300))
            2026-11-21 10:00:01 +0000  KTVHCHTTPServer         :   Stop server
            """
        var limits = BundleLimits()
        limits.maxLineLength = 100
        let outcome = Ingestor(limits: limits).ingest(
            BundleMember(path: "k.log", open: { MemoryByteSource(Array(log.utf8)) }))
        let result = try #require(outcome.result)
        #expect(
            result.diagnostics.contains {
                $0.location == SourceLocation(file: "k.log", line: 2) && $0.message.contains("too long")
            })
        let events = result.records.compactMap(\.proxyEvent)
        #expect(events.map(\.kind) == [.acceptRequest, .serverStop])
        #expect(events.first?.url == "https://a.example.com/" + String(repeating: "x", count: 100 - 28))
    }

    /// One entry followed by many huge continuation lines keeps a bounded amount of text, says
    /// so, and the next entry is read.
    @Test func aHugeEntryIsBoundedWithADiagnostic() throws {
        var parser = CacheLogParser(file: "k.log")
        parser.maxEntryBytes = 1000
        let line = String(repeating: "y", count: 300)
        let log =
            "2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x1, Complete\n"
            + Array(repeating: line, count: 10).joined(separator: "\n")
            + "\n2026-11-21 10:00:01 +0000  KTVHCHTTPServer         :   0x2, Start server success\n"
        var reader = LineReader(MemoryByteSource(Array(log.utf8)), maxLineLength: 1 << 20)
        let result = try parser.parse(lines: &reader)
        #expect(result.records.compactMap(\.proxyEvent).map(\.kind) == [.downloadComplete, .serverStart])
        #expect(
            result.diagnostics.contains {
                $0.location.line == 1 && $0.message.contains("7 continuation lines not kept")
            })
    }
}
