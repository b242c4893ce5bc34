import ForensicsCore
import Testing

@testable import ForensicsIndex

/// A fleet's problems are ranked by harm, not by count: sessions weighed by the worst severity.
@Suite struct ProblemRankingTests {
    /// A group whose every session has `worst` (its harm as `updateProblems` weighs it).
    func group(_ rule: String, _ worst: Severity, sessions: Int) -> ProblemGroup {
        var g = ProblemGroup(
            key: ProblemKey(ruleID: rule), worst: worst, sessions: sessions, share: 0, bundles: sessions,
            findings: sessions, firstSeen: nil, lastSeen: nil, medianStartupAffected: nil,
            medianStartupUnaffected: nil, medianRebufferAffected: nil, medianRebufferUnaffected: nil, examples: [])
        g.harm = sessions * ProblemGroup.weight(worst)
        return g
    }

    @Test func aCriticalFailureInFewerSessionsOutranksAWarningInMore() {
        let failed = group("playback-failed", .critical, sessions: 2)
        let slow = group("slow-startup", .warning, sessions: 5)
        #expect(
            [slow, failed].sorted(by: ProblemGroup.byHarm).map(\.key.ruleID) == ["playback-failed", "slow-startup"])
    }

    @Test func nearMissAWarningInManyTimesMoreSessionsStillComesFirst() {
        let failed = group("playback-failed", .critical, sessions: 1)
        let slow = group("slow-startup", .warning, sessions: 30)
        #expect(
            [failed, slow].sorted(by: ProblemGroup.byHarm).map(\.key.ruleID) == ["slow-startup", "playback-failed"])
    }

    @Test func equalHarmFallsBackToSessionsThenTheKey() {
        let a = group("segment-errors", .warning, sessions: 9)
        let b = group("stall", .error, sessions: 3)
        #expect([b, a].sorted(by: ProblemGroup.byHarm).map(\.key.ruleID) == ["segment-errors", "stall"])
    }
}

/// The KPI provenance column reads back as `insert` writes it; anything else reads as nothing.
@Suite struct ProvenanceColumnTests {
    @Test func readsBackWhatWasWritten() {
        var k = KPIs()
        k.provenance[.startupTime] = .timeline
        k.provenance[.playingTime] = .accessLog
        let text = "{" + k.provenanceByName.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
        #expect(TriageIndex.provenance(text) == k.provenance)
    }

    @Test func nearMissUnknownOrBrokenTextGivesNoSource() {
        #expect(TriageIndex.provenance("").isEmpty)
        #expect(TriageIndex.provenance(#"{"startup_time":"nowhere","x":"timeline"}"#).isEmpty)
        #expect(TriageIndex.provenance(#"{"startup_time":"#).isEmpty)
    }
}
