import ForensicsCore
import Foundation
import Testing

@testable import ForensicsIndex

/// What one fix cures is one problem: a host's 404s across assets and variants, with the
/// down-switch they forced and the stall they caused beneath them as symptoms.
@Suite struct ProblemFoldingTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pf-fold-\(UUID().uuidString)")

    func finding(
        _ rule: String, _ severity: Severity = .warning, cause: String? = nil, subject: Finding.Subject = .init()
    ) -> Finding {
        Finding(
            ruleID: rule, severity: severity, start: nil, end: nil, title: rule, cause: cause, evidence: [],
            advice: "a", subject: subject)
    }

    func session(_ id: String, asset: String) -> Session {
        Session(id: id, idIsFromLogs: true, assetURL: asset, entries: [], sources: [], clockOffsets: [], kpis: KPIs())
    }

    /// One bundle per session: a session at `asset` with `findings`.
    func problems(_ sessions: [(asset: String, findings: [Finding])]) throws -> [ProblemGroup] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let index = try TriageIndex(path: directory.appendingPathComponent("triage.sqlite").path)
        for (n, s) in sessions.enumerated() {
            var bundle = IndexedBundle(name: "b\(n)", file: "b\(n)", contentHash: "h\(n)", analyzer: "x")
            bundle.sessions = [
                IndexedSession(
                    AnalysisReport.SessionResult(session: session("S\(n)", asset: s.asset), findings: s.findings),
                    ordinal: 0, redactor: Redactor())
            ]
            try index.store(bundle)
        }
        let groups = try index.updateProblems()
        try index.close()
        return groups
    }

    /// A share counts the sessions that played: a bundle holding only a playlist file makes a
    /// session nobody watched, and it is not in the count the share is of.
    @Test func sharesCountSessionsThatPlayed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let index = try TriageIndex(path: directory.appendingPathComponent("triage.sqlite").path)
        func entry(_ payload: Record.Payload) -> TimelineEntry {
            TimelineEntry(
                record: Record(
                    time: Timestamp(1_790_000_000), location: SourceLocation(file: "f", line: 1), format: .metricEvents,
                    sessionID: nil, payload: payload),
                time: Timestamp(1_790_000_000), endTime: nil)
        }
        let played = entry(.request(MediaRequest(kind: .segment, url: "https://h.example/s1.ts")))
        let playlistOnly = entry(.playlist(PlaylistSnapshot(url: "https://h.example/v.m3u8", isMultivariant: false)))
        let cases: [(entries: [TimelineEntry], findings: [Finding])] = [
            (
                [played],
                [finding("segment-errors", subject: Finding.Subject(host: "edge1.example", status: "HTTP 404"))]
            ),
            ([played], []), ([playlistOnly], [finding("stream-defects")]), ([playlistOnly], []),
        ]
        for (n, c) in cases.enumerated() {
            var s = session("S\(n)", asset: "https://h.example/a.m3u8")
            s.entries = c.entries
            var bundle = IndexedBundle(name: "b\(n)", file: "b\(n)", contentHash: "h\(n)", analyzer: "x")
            bundle.sessions = [
                IndexedSession(
                    AnalysisReport.SessionResult(session: s, findings: c.findings), ordinal: 0, redactor: Redactor())
            ]
            try index.store(bundle)
        }
        let groups = try index.updateProblems()
        #expect(try index.counts().sessions == 4)
        #expect(try index.counts().played == 2)
        try index.close()
        let errors = try #require(groups.first { $0.key.ruleID == "segment-errors" })
        #expect(errors.share == 0.5 && errors.playedSessions == 1, "1 of the 2 that played")
        // Near miss: a finding on a session that did not play is still a problem, of no viewer's share.
        let defects = try #require(groups.first { $0.key.ruleID == "stream-defects" })
        #expect(defects.sessions == 1 && defects.playedSessions == 0 && defects.share == 0)
    }

    /// A 404 → down-switch → stall story on `host`, at `asset` and `variant`.
    func story(host: String, asset: String, variant: Int) -> (asset: String, findings: [Finding]) {
        (
            asset,
            [
                finding("segment-errors", subject: Finding.Subject(host: host, status: "HTTP 404")),
                finding(
                    "segment-404-downswitch", .error,
                    subject: Finding.Subject(host: host, status: "404", variantBandwidth: variant)),
                finding("stall", cause: "segment-errors"),
            ]
        )
    }

    @Test func aChainOfSymptomsIsOneProblemAcrossAssetsAndVariants() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let groups = try problems([
            story(host: "edge1.example", asset: "https://cdn.example.com/a/master.m3u8", variant: 12_000_000),
            story(host: "edge1.example", asset: "https://cdn.example.com/b/master.m3u8", variant: 8_000_000),
            story(host: "edge1.example", asset: "https://cdn.example.com/c/master.m3u8", variant: 12_000_000),
            story(host: "edge2.example", asset: "https://cdn.example.com/a/master.m3u8", variant: 12_000_000),
        ])
        let edge1 = try #require(groups.first { $0.key.host == "edge1.example" })
        #expect(edge1.key.text == "segment-errors host=edge1.example status=HTTP 404")
        #expect(edge1.sessions == 3 && edge1.findings == 9)
        #expect(edge1.worst == .error, "its symptoms' severity counts")
        #expect(edge1.assets == 3 && edge1.variants == [12_000_000, 8_000_000])
        #expect(
            edge1.symptoms.map(\.key) == [
                "segment-404-downswitch host=edge1.example status=404", "stall cause=segment-errors",
            ])
        #expect(edge1.symptoms.allSatisfy { $0.sessions == 3 })
        // Two hosts, two problems: nothing else stands alone.
        #expect(groups.count == 2 && groups[0].key.host == "edge1.example")
    }

    @Test func nearMissASymptomWithoutItsCauseInTheSessionIsAProblemOfItsOwn() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two 404s: below segment-errors' threshold, so the down-switch and the stall stand alone.
        let groups = try problems([
            (
                "https://cdn.example.com/a/master.m3u8",
                [
                    finding(
                        "segment-404-downswitch", .error,
                        subject: Finding.Subject(host: "edge1.example", status: "404", variantBandwidth: 12_000_000)),
                    finding("stall", cause: "segment-errors"),
                ]
            )
        ])
        #expect(
            groups.map(\.key.text).sorted() == [
                "segment-404-downswitch host=edge1.example status=404", "stall cause=segment-errors",
            ])
        #expect(groups.allSatisfy { $0.symptoms.isEmpty })
    }

    @Test func harmWeighsEachSessionByItsOwnWorstSeverity() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // One session where the 404s came with a forced down-switch (error), three with 404s only.
        var sessions = [
            story(host: "edge1.example", asset: "https://cdn.example.com/a/master.m3u8", variant: 8_000_000)
        ]
        for _ in 0..<3 {
            sessions.append(
                (
                    "https://cdn.example.com/a/master.m3u8",
                    [finding("segment-errors", subject: Finding.Subject(host: "edge1.example", status: "HTTP 404"))]
                ))
        }
        let group = try #require(try problems(sessions).first)
        #expect(group.sessions == 4 && group.worst == .error)
        #expect(group.harm == 9 + 3 * 3, "not 4 sessions × the worst")
    }

    @Test func aStallCountsUnderTheFailuresThatCameBeforeIt() {
        func at(_ rule: String, _ seconds: Double, host: String? = nil, cause: String? = nil) -> Finding {
            Finding(
                ruleID: rule, severity: .warning, start: Timestamp(1_000 + seconds), end: nil, title: rule,
                cause: cause, evidence: [], advice: "a", subject: Finding.Subject(host: host, status: "HTTP 404"))
        }
        let findings = [
            at("segment-errors", 50, host: "b.example"), at("segment-errors", 10, host: "a.example"),
            at("stall", 20, cause: "segment-errors"),
        ]
        let s = session("S", asset: "https://cdn.example.com/a/master.m3u8")
        let keys = findings.map { ProblemKey($0, in: s) }
        #expect(ProblemFolding.roots(findings, keys: keys) == [nil, nil, 1])
    }
}
