import Testing

@testable import ForensicsCore

/// A record a rule names twice is one row of evidence (seen on a dump whose first segment request
/// was also the slowest: `slow-startup` listed it twice).
@Suite struct FindingEvidenceTests {
    @Test func repeatedEvidenceIsKeptOnceInOrder() {
        let first = Finding.Evidence(
            location: SourceLocation(file: "m.jsonl", line: 2), time: Timestamp(100), summary: "segment s0",
            timelineIndex: 0)
        let last = Finding.Evidence(
            location: SourceLocation(file: "m.jsonl", line: 7), time: Timestamp(106), summary: "ltku", timelineIndex: 5)
        let finding = Finding(
            ruleID: "slow-startup", severity: .error, start: nil, end: nil, title: "t",
            evidence: [first, first, last, first], advice: "a")
        #expect(finding.evidence == [first, last])
    }

    @Test func distinctRecordsOnOneLineStay() {
        let a = Finding.Evidence(location: SourceLocation(file: "p.log", line: 3), time: nil, summary: "request a")
        let b = Finding.Evidence(location: SourceLocation(file: "p.log", line: 3), time: nil, summary: "request b")
        let finding = Finding(
            ruleID: "x", severity: .info, start: nil, end: nil, title: "t", evidence: [a, b], advice: "a")
        #expect(finding.evidence == [a, b])
    }
}
