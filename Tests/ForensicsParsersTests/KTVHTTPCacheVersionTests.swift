import Foundation
import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// The library version each real excerpt shows, read from its own evidence, and what its error
/// codes mean there (reference §6; the library's tags 1.0.0–3.1.0).
@Suite struct KTVHTTPCacheVersionTests {
    typealias R = KTVHTTPCacheRelease

    static func evidence(_ name: String) throws -> (KTVHTTPCacheVersionEvidence, [Record]) {
        let data = try Data(contentsOf: TestPaths.corpus.appendingPathComponent("ktvhttpcache/" + name))
        let result = try #require(ingest(name, [UInt8](data)).result)
        return (try #require(result.libraryVersion), result.records)
    }

    /// Each file's versions as read by hand: the tags and templates it shows, and its date.
    static let expectedVersions: [(String, Set<R>)] = [
        // KTVHCHTTPURL (1.0–1.1) with `%p, ` messages (1.1+), `requestType=` URLs (1.1 only).
        ("issue110-record-log-1.1.x.log", Set<R>([.v1_1])),
        // `%p, ` messages (1.1+), dated 2018-12-13 (before 2.0.0).
        ("issue25-console-1.1.x.log", [.v1_1]),
        // `%p Create data request` (1.1+), dated 2019-04-10: 1.1.x or 2.0.x — the excerpt cannot tell.
        ("issue107-console-ijkplayer-1.1.x.log", [.v1_1, .v2]),
        // KTVHCDataSourceManager (1.1+), -192701 carrying a response (≤ 2.x), dated 2018-05-31.
        ("issue63-console-error-1.1.0.log", [.v1_1]),
        // No timestamp; `%p, ` messages (1.1+), -192701 carrying a response (≤ 2.x).
        ("issue159-console-invalid-response-2.x.log", [.v1_1, .v2]),
    ]

    @Test(arguments: expectedVersions)
    func versionFromTheLogsOwnEvidence(name: String, expected: Set<R>) throws {
        let (version, _) = try Self.evidence(name)
        #expect(version.candidates == expected, "\(version.summary)")
        #expect(!version.summary.contains("version unknown"))
    }

    @Test(arguments: ["issue63-console-error-1.1.0.log", "issue159-console-invalid-response-2.x.log"])
    func code192701IsAContentTypeRejectionNotDiskSpace(name: String) throws {
        let (_, records) = try Self.evidence(name)
        let errors = records.compactMap { $0.proxyEvent?.error }.filter { $0.code == -192701 }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.description == "unsupported Content-Type" }, "\(errors.map(\.description))")
    }

    @Test func aLogDatedBeforeAReleaseCannotBeThatRelease() {
        var v = KTVHTTPCacheVersionEvidence()
        v.observe(date: "2018-03-01")
        v.applyDate()
        #expect(v.candidates == [.v1_0_0])
        #expect(v.meaning(ofCode: -192701) == "not enough disk space")
    }

    /// When the evidence leaves releases whose meanings differ, every meaning is given, with why.
    @Test func anUnsettledVersionGivesBothMeanings() {
        let v = KTVHTTPCacheVersionEvidence()
        let text = v.meaning(ofCode: -192701) ?? ""
        #expect(text.contains("not enough disk space"))
        #expect(text.contains("unsupported Content-Type in 1.0.3–2.x"))
        #expect(text.contains("does not show which version"))
    }

    @Test func releaseRunsReadAsUsersSayThem() {
        #expect(R.text([.v1_1, .v2]) == "1.1.x–2.x")
        #expect(R.text([.v1_0_0, .v3]) == "1.0.0–1.0.2 or 3.x")
        #expect(R.text([.v1_0_0, .v1_0_3]) == "1.0.0–1.0.4")
    }
}
