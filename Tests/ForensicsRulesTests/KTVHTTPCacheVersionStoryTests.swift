import ForensicsCore
import ForensicsParsers
import PlaybackForensics
import ForensicsTestSupport
import Testing

/// Each story at each release line, from logs written with that release's format strings: the
/// version the log shows, and the findings it must and must not give.
@Suite struct KTVHTTPCacheVersionStoryTests {
    typealias F = KTVHTTPCacheFixtures

    static let cases: [(F.Line, F.Story)] = F.Line.allCases.flatMap { v in F.Story.allCases.map { (v, $0) } }
    static let proxyRules: Set<String> = [
        "proxy-origin-errors", "proxy-cache-ineffective", "proxy-unreachable", "proxy-unplayable-content-type",
    ]

    static func analyze(_ v: F.Line, _ story: F.Story) -> AnalysisReport {
        var files: [(name: String, bytes: [UInt8])] = [("KTVHTTPCache.log", Array(F.log(v, story).utf8))]
        if story == .serverRestart, let errorLog = F.errorLogForRestart(v) {
            files.append(("error.log", Array(errorLog.utf8)))
        }
        return Analyzer().analyze(files: files)
    }

    @Test(arguments: cases)
    func theLogShowsItsVersion(v: F.Line, story: F.Story) throws {
        let outcome = Ingestor().ingest(
            BundleMember(path: "KTVHTTPCache.log", open: { MemoryByteSource(Array(F.log(v, story).utf8)) }))
        let result = try #require(outcome.result)
        #expect(outcome.format == .cacheLog)
        let expected: Set<KTVHTTPCacheRelease> =
            switch v {
            case .v1_0: story == .contentTypeRejected ? [.v1_0_3] : [.v1_0_0, .v1_0_3]
            case .v1_1: [.v1_1]
            case .v2: [.v2]
            case .v3: [.v3]
            }
        #expect(result.libraryVersion?.candidates == expected, "\(result.producer ?? "")")
        let unknown = result.diagnostics.filter { $0.message.contains("unrecognised") }
        #expect(unknown.isEmpty, "\(unknown.map(\.message))")
    }

    @Test(arguments: cases)
    func findingsMatchWhatTheProxyDid(v: F.Line, story: F.Story) throws {
        let report = Self.analyze(v, story)
        let findings = report.sessions.flatMap(\.findings)
        let proxy = findings.filter { Self.proxyRules.contains($0.ruleID) }
        let ids = proxy.map(\.ruleID).sorted()
        switch story {
        case .cacheMiss, .cacheHit:
            #expect(ids.isEmpty, "\(proxy.map(\.title))")
            #expect(report.sessions.allSatisfy { $0.session.analysis.failures.isEmpty })
        case .origin404, .contentTypeRejected:
            #expect(ids == ["proxy-origin-errors"], "\(proxy.map(\.title))")
            let f = try #require(proxy.first)
            // Counted once, however many modules reported it, and named.
            #expect(f.details["count"] == .integer(1))
            #expect(f.details["url"] == .string(F.url))
            #expect(report.sessions.map { $0.session.analysis.failures.count }.reduce(0, +) == 1)
            if story == .origin404 {
                #expect(f.title.contains(v == .v1_0 ? "response unavailable" : "HTTP 404"), "\(f.title)")
                #expect(!f.title.contains("disk"))
            } else {
                #expect(f.title.contains("Content-Type"), "\(f.title)")
                #expect(!f.title.contains("disk space"), "\(f.title)")
            }
        case .serverRestart:
            #expect(ids == ["proxy-unreachable"], "\(proxy.map(\.title))")
            if v == .v2 {
                #expect(proxy.first?.title.contains("could not connect to the proxy") == true)
                #expect(proxy.first?.title.contains("stopped in the background") == true)
            }
        }
    }
}

/// Probe N: KTVHTTPCache 3.x logs every player connection's failure through one shared download
/// object: three invalid responses are three failed requests, whatever path they share (each
/// told once more by the source manager). The version stories above are the near miss: one
/// failure told by every component is one.
@Suite struct KTVHTTPCacheRepeatedFailureTests {
    @Test func threeInvalidResponsesAreThreeFailures() throws {
        let url = "https://media.example.com/v/clip42.mp4"
        var log = "2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success\n"
        for (i, second) in ["00", "20", "40"].enumerated() {
            log += """
                2026-11-21 10:00:\(second) +0000  KTVHCHTTPConnection     :   0x2837f0a8\(i), Accept request
                URL : \(url)
                2026-11-21 10:00:\(second) +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                request : <KTVHCDataRequest: 0x280d2c78\(i)>
                URL : \(url)
                2026-11-21 10:00:\(second) +0000  KTVHCDownload           :   0x2804f1e30, Invaild response
                Error : Error Domain=KTVHTTPCache error Code=-192703 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=\(url), KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x2837c4b80> { URL: \(url) } { Status Code: 503, Headers {
                } }}
                2026-11-21 10:00:\(second) +0000  KTVHCDataSourceManager  :   failure, -192703

                """
        }
        let report = Analyzer().analyze(files: [("KTVHTTPCache.log", Array(log.utf8))])
        let session = try #require(report.sessions.first)
        #expect(session.session.kpis.errorCount == 3)
        let origin = try #require(session.findings.first { $0.ruleID == "proxy-origin-errors" })
        #expect(origin.details["count"] == .integer(3))
        #expect(origin.title.contains("3×"))
    }
}
