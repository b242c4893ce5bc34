import ForensicsCore
import Testing

@testable import ForensicsIndex

/// What makes findings one problem: each field read from what the rule reported, never guessed.
@Suite struct ProblemKeyTests {
    func finding(
        _ rule: String, cause: String? = nil, _ subject: Finding.Subject = Finding.Subject(),
        details: [String: DetailValue] = [:]
    ) -> Finding {
        Finding(
            ruleID: rule, severity: .warning, start: nil, end: nil, title: "t", cause: cause, details: details,
            evidence: [], advice: "a", subject: subject)
    }

    var session: Session {
        Session(
            id: "S", idIsFromLogs: true, assetURL: "https://cdn.example.com/show/master.m3u8?token=abc", entries: [],
            sources: [], clockOffsets: [], kpis: KPIs())
    }

    @Test func hostAndStatusComeFromTheRulesSubject() {
        let k = ProblemKey(
            finding("segment-errors", Finding.Subject(host: "edge1.example", status: "HTTP 404")), in: session)
        #expect(k.text == "segment-errors host=edge1.example status=HTTP 404")
        #expect(k.asset == nil && k.variant == nil)
    }

    /// Near miss: details that look like a subject are free-form text, never read as one.
    @Test func detailsAreNotASubject() {
        let k = ProblemKey(
            finding("segment-errors", details: ["host": .string("edge1.example"), "status": .string("HTTP 404")]),
            in: session)
        #expect(k.text == "segment-errors")
    }

    @Test func aResourceURLNamesTheHostAndAListOnlyWhenItHasOneHost() {
        let one = ProblemKey(finding("slow-key-fetch", Finding.Subject(url: "https://keys.example/k?t=1")), in: session)
        #expect(one.host == "keys.example")
        let same = ProblemKey(
            finding("playlist-not-compressed", Finding.Subject(urls: ["https://a.example/1", "https://a.example/2"])),
            in: session)
        #expect(same.host == "a.example")
        let mixed = ProblemKey(
            finding("playlist-not-compressed", Finding.Subject(urls: ["https://a.example/1", "https://b.example/2"])),
            in: session)
        #expect(mixed.host == nil)
    }

    @Test func aVariantAndTheSessionsAssetOnlyWhenTheRuleNamesAVariant() {
        let down = ProblemKey(
            finding("segment-404-downswitch", Finding.Subject(variantBandwidth: 12_000_000)), in: session)
        #expect(down.variant == 12_000_000)
        #expect(down.asset == "https://cdn.example.com/show/master.m3u8")
        // A stall's current variant is not what the stall is about: no variant, no asset.
        let stall = ProblemKey(
            finding("stall", cause: "segment-errors", details: ["variant_bandwidth": .number(8_000_000)]), in: session)
        #expect(stall.text == "stall cause=segment-errors")
    }

    @Test func logTextIsRedactedByTheCallersRedactor() {
        let redactor = Redactor()
        let k = ProblemKey(
            finding("segment-404-downswitch", Finding.Subject(variantBandwidth: 5_000_000)), in: session,
            redact: redactor.redact)
        #expect(!(k.asset ?? "").contains("abc"))
    }
}

@Suite struct ClientInfoTests {
    @Test func appleCoreMediaTellsDeviceAndOSButNoApp() {
        let c = ClientInfo(userAgent: "AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)")
        #expect(c.device == "iPhone")
        #expect(c.osVersion == "18.1")
        #expect(c.app == nil)
    }

    @Test func anAppsOwnAgentNamesTheAppAndVersion() {
        let c = ClientInfo(userAgent: "StreamApp/4.12.1 (com.example.stream; build:812; tvOS 17.2.0) Alamofire/5.8.0")
        #expect(c.app == "StreamApp")
        #expect(c.appVersion == "4.12.1")
        #expect(c.device == "Apple TV")
        #expect(c.osVersion == "17.2.0")
    }

    @Test func nothingIsGuessedFromAnUnknownAgent() {
        let c = ClientInfo(userAgent: "curl")
        #expect(c.device == nil && c.osVersion == nil && c.app == nil)
    }
}

@Suite struct TriageIndexProblemTests {
    @Test func mediansAndTheUnaffectedSide() {
        #expect(TriageIndex.median([]) == nil)
        // One convention on the overview page: the nearest rank, as the KPI distributions use.
        #expect(TriageIndex.median([1, 3]) == 1)
        #expect(TriageIndex.median([1, 2, 9]) == 2)
        #expect(TriageIndex.median([1, 2, 9, 10]) == 2)
        #expect(TriageIndex.removing([2, 2], from: [1, 2, 2, 2, 5]) == [1, 2, 5])
    }
}
