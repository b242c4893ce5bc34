import Foundation
import ForensicsCore
import PlaybackForensics
import ForensicsTestSupport
import Testing

/// What the real excerpts users pasted, and the 2.x console sample, must give — read by hand.
@Suite struct KTVHTTPCacheRealLogTests {
    static func analyze(_ name: String) throws -> AnalysisReport {
        let url = TestPaths.corpus.appendingPathComponent("ktvhttpcache/" + name)
        return Analyzer().analyze(files: [(name, [UInt8](try Data(contentsOf: url)))])
    }

    static func findings(_ report: AnalysisReport) -> [Finding] { report.sessions.flatMap(\.findings) }

    /// Excerpts of a working proxy (a ping, a reader, a player's request): nothing to report.
    @Test(arguments: [
        "issue110-record-log-1.1.x.log", "issue25-console-1.1.x.log", "issue107-console-ijkplayer-1.1.x.log",
    ])
    func excerptsOfAWorkingProxyGiveNoFinding(name: String) throws {
        let report = try Self.analyze(name)
        #expect(Self.findings(report).isEmpty, "\(Self.findings(report).map(\.title))")
    }

    /// issue63 (1.1.0, 2018): the origin answered 200 with a Content-Type the proxy rejected
    /// (-192701 in 1.x), once, for the .wav the error names — not "not enough disk space".
    @Test func issue63IsOneContentTypeRejectionOfTheNamedURL() throws {
        let findings = Self.findings(try Self.analyze("issue63-console-error-1.1.0.log"))
        #expect(findings.map(\.ruleID) == ["proxy-origin-errors"])
        let f = try #require(findings.first)
        #expect(f.details["count"] == .integer(1))
        #expect(
            f.details["url"]
                == .string(
                    "http://image.wondertech.com.cn/togetherv2/voice/ios/2208EBF6-6C20-4DB8-B072-CF499EFC4C11.wav"))
        #expect(f.title.contains("HTTP 200 (unsupported Content-Type)"), "\(f.title)")
        #expect(!f.title.contains("disk"))
        // The CFNetwork cancellation (-999) beside it is not a failure.
        #expect(f.evidence.allSatisfy { !$0.summary.contains("-999") })
    }

    /// issue159 (2.x era, pasted without the NSLog prefix or any time): a 302 whose
    /// application/octet-stream body the proxy rejected (-192701: unsupported Content-Type);
    /// the finding says its time is unknown.
    @Test func issue159IsAContentTypeRejectionAtAnUnknownTime() throws {
        let findings = Self.findings(try Self.analyze("issue159-console-invalid-response-2.x.log"))
        #expect(findings.map(\.ruleID) == ["proxy-origin-errors"])
        let f = try #require(findings.first)
        #expect(f.title.contains("HTTP 302 (unsupported Content-Type)"), "\(f.title)")
        #expect(f.title.contains("time unknown"))
        #expect(f.start == nil)
        #expect(f.details["content_type"] == .string("application/octet-stream"))
    }

    /// A pasted NSError dump with no log line around it: the error, the response and its headers.
    @Test func aBareErrorDumpIsReadAndJudged() throws {
        let dump = """
            Error Domain=KTVHTTPCache error Code=-192701 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://cdn.example.com/a/b.mp4, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x281fdb340> { URL: https://cdn.example.com/a/b.mp4 } { Status Code: 206, Headers {
                "Content-Range" =     (
                    "bytes 0-1/7340032"
                );
                "Content-Type" =     (
                    "multipart/form-data"
                );
            } }}
            """
        let report = Analyzer().analyze(files: [("pasted.log", Array(dump.utf8))])
        let findings = Self.findings(report)
        #expect(findings.map(\.ruleID) == ["proxy-origin-errors"])
        let f = try #require(findings.first)
        #expect(f.details["status"] == .string("HTTP 206"))
        #expect(f.details["content_type"] == .string("multipart/form-data"))
        #expect(f.details["url"] == .string("https://cdn.example.com/a/b.mp4"))
        #expect(f.title.contains("time unknown"))
        // The response inside the error shows a Content-Type rejection (1.1.x–2.x), not 3.x's disk space.
        #expect(f.title.contains("(unsupported Content-Type)"), "\(f.title)")
    }

    /// A code alone, with nothing to tell 1.1.x–2.x from 3.x: both meanings, and why.
    @Test func aCodeTheEvidenceCannotPlaceGivesBothMeanings() throws {
        let log = "KTVHCDataSourceManager  :   failure, -192701\n"
        let f = try #require(Self.findings(Analyzer().analyze(files: [("k.log", Array(log.utf8))])).first)
        #expect(f.ruleID == "proxy-origin-errors")
        #expect(
            f.title.contains("unsupported Content-Type in 1.1.x–2.x, or not enough disk space in 3.x"), "\(f.title)")
        #expect(f.title.contains("does not show which version"))
    }

    /// The 2.x console sample: the proxy's lines among ijkplayer's, the app's and CFNetwork's.
    @Test func consoleSampleKeepsOtherComponentsAndTakesIjkplayersStall() throws {
        let report = try Analyzer().analyze(
            path: TestPaths.sampleLogs.appendingPathComponent("ktvhttpcache-2x-ijkplayer").path)
        let session = try #require(report.sessions.first)
        #expect(report.sessions.count == 1)
        let console = session.session.entries.compactMap(\.record.consoleLine)
        #expect(console.allSatisfy { $0.process == "ShortVideo" })
        #expect(console.contains { $0.component == .system && $0.library == "CFNetwork" })
        #expect(console.contains { $0.component == .app && $0.text.hasPrefix("[Feed]") })
        #expect(console.contains { $0.component == .player && $0.library == "ijkplayer" })
        // No proxy module is invented from another component's line.
        #expect(
            session.session.entries.compactMap(\.record.proxyEvent).allSatisfy {
                $0.tag.hasPrefix("KTVHC") || $0.tag.hasPrefix("<")
            })
        // ijkplayer's buffering start and its app's load-state line are one stall, ended by buffering end.
        let stalls = session.session.analysis.stalls
        #expect(stalls.count == 1)
        #expect(stalls.first?.recovered == true)
        #expect(abs((stalls.first?.duration ?? 0) - 4.2) < 0.001)
        #expect(session.session.kpis.stallCount == 1)
        #expect(Set(session.findings.map(\.ruleID)) == ["proxy-origin-errors", "proxy-cache-ineffective", "stall"])
        #expect(report.inputs.first?.producer?.hasPrefix("KTVHTTPCache 2.x") == true)
    }
}
