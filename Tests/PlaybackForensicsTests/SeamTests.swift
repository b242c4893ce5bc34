import ForensicsCore
import ForensicsParsers
import ForensicsRules
import ForensicsTestSupport
import Testing

@testable import PlaybackForensics

/// A format this test declares: `BEACON <unix seconds> <session> <play|stall>` lines, as an
/// imaginary player SDK might write them. It is the whole of what adding a format takes.
enum ToyBeaconFormat: FormatReader {
    static let declaration = FormatDeclaration(
        format: InputFormat("toy-beacon"), displayName: "Toy beacon log",
        semantics: SourceSemantics(
            role: .player, clock: .deviceUTC, anchor: .event, resolution: 1, clockPrecedence: 10, viewPrecedence: 10,
            capabilities: [.playerEvents]),
        summary: "One player event per line.",
        samples: [.init(text: "BEACON 1795255200 S1 play\n", expectedSummaries: ["rate-change rate 1"])])

    static func sniff(_ text: SniffText) -> Bool { text.hasPrefix("BEACON ") }

    static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        try context.readLines(&source) { lines in
            var result = ParseResult(file: context.path, format: declaration.format)
            while let line = try lines.next() {
                if result.reachedRecordLimit(context.maxRecords, line: line.number) { break }
                let words = line.text.split(separator: " ")
                guard words.count == 4, words[0] == "BEACON", let seconds = Double(words[1]) else {
                    result.diagnose(
                        Diagnostic(SourceLocation(file: context.path, line: line.number), .warning, "not a beacon"))
                    continue
                }
                let event =
                    words[3] == "stall"
                    ? PlayerEvent(kind: .stall, rate: 0, previousRate: 1)
                    : PlayerEvent(kind: .rateChange, rate: 1, previousRate: 0)
                result.records.append(
                    Record(
                        time: Timestamp(seconds), location: SourceLocation(file: context.path, line: line.number),
                        format: declaration.format, sessionID: String(words[2]), payload: .player(event)))
            }
            return result
        }
    }
}

/// A server log this test declares: a few lines of field names, units and time semantics, as an
/// imaginary CDN writes them (one JSON object per line). With one registry line its rows are read,
/// and joined to the bundle's sessions by the correlator.
enum ToyEdgeLog: ServerLogVendor {
    static let vendor = ServerLogDeclaration(
        format: InputFormat("toy-edge"), displayName: "Toy edge log", summary: "One served request per line.",
        layout: .jsonLines,
        fields: [
            ("startMs", .timestamp), ("tookMs", .duration(.milliseconds)), ("uri", .pathAndQuery),
            ("code", .status), ("rid", .requestID), ("sess", .sessionHeader), ("pop", .pop),
        ],
        anchor: .requestStart, resolution: 0.001, requestIDHeader: "x-toy-id", evidence: ["startMs", "rid", "uri"])
}

/// A rule this test declares: a session that stalled more than once. Its options are declared once.
struct ToyRepeatedStallRule: Rule {
    struct Options: RuleOptions {
        var minimumStalls = 2
        init() {}
        static var declarations: [RuleOption<Options>] { [.count("minimum-stalls", \.minimumStalls, "stalls needed")] }
    }

    static let description = RuleDescription(
        identifier: "toy-repeated-stall", name: "Toy Repeated Stall", summary: "The session stalled repeatedly.",
        rationale: "A test of the rule seam.", kind: .playback, defaultSeverity: .warning, triggeringExamples: [],
        nonTriggeringExamples: [])
    let options: Options
    init(options: Options) { self.options = options }

    func findings(in session: Session) -> [Finding] {
        let stalls = session.analysis.stalls
        guard stalls.count >= options.minimumStalls else { return [] }
        return [
            finding(
                start: stalls.first?.start, end: stalls.last?.start, title: "\(stalls.count) stalls",
                explanation: "counted \(stalls.count) stalls",
                evidence: stalls.map { Finding.Evidence(session, $0.index) },
                advice: "none")
        ]
    }
}

/// Adding a format and a rule takes only their declarations and one registry line each: the
/// ingest path sniffs and reads the new format, correlation and the new rule see its records, and
/// the rule's options are configurable by their declared key.
@Suite struct SeamTests {
    static let beacons = """
        BEACON 1795255200 S1 play
        BEACON 1795255210 S1 stall
        BEACON 1795255211 S1 play
        BEACON 1795255230 S1 stall
        BEACON 1795255231 S1 play
        """

    func analyzer(minimumStalls: Int? = nil) throws -> Analyzer {
        var ingestor = Ingestor()
        ingestor.registry = FormatRegistry(readers: FormatRegistry.standard.readers + [ToyBeaconFormat.self])
        let rules: [any Rule.Type] = RuleRegistry.all + [ToyRepeatedStallRule.self]
        let engine =
            try minimumStalls.map {
                try RuleEngine(configuration: ["rules": ["toy-repeated-stall": ["minimum-stalls": $0]]], rules: rules)
            }
            ?? RuleEngine(rules: rules)
        return Analyzer(ingestor: ingestor, rules: engine)
    }

    @Test func aToyFormatAndRuleNeedOnlyTheirSeams() throws {
        let report = try analyzer().analyze(files: [("beacons.txt", Array(Self.beacons.utf8))])
        #expect(report.inputs.map(\.format) == [InputFormat("toy-beacon")])
        let session = try #require(report.sessions.first)
        #expect(session.session.id == "S1")
        #expect(session.session.analysis.stalls.count == 2)
        let toy = session.findings.filter { $0.ruleID == "toy-repeated-stall" }
        #expect(toy.map(\.title) == ["2 stalls"])
        #expect(toy.first?.evidence.map(\.location.line) == [2, 4])
        #expect(toy.first?.evidence.compactMap(\.timelineIndex).count == 2)
    }

    @Test func theToyRuleIsConfigurableByItsDeclaredKey() throws {
        let report = try analyzer(minimumStalls: 3).analyze(files: [("beacons.txt", Array(Self.beacons.utf8))])
        #expect(!report.sessions.flatMap(\.findings).contains { $0.ruleID == "toy-repeated-stall" })
        #expect(
            throws: ConfigurationError.invalidValue(
                rule: "toy-repeated-stall", key: "minimum-stalls", reason: "must be a whole number")
        ) {
            try RuleEngine(
                configuration: ["rules": ["toy-repeated-stall": ["minimum-stalls": 2.5]]],
                rules: [ToyRepeatedStallRule.self])
        }
    }

    @Test func withoutTheRegistryLineTheFormatIsNotRead() {
        let report = Analyzer().analyze(files: [("beacons.txt", Array(Self.beacons.utf8))])
        #expect(report.inputs.map(\.format) == [nil])
        #expect(report.sessions.isEmpty)
    }

    /// The device's session: four segments; the first answered with the edge's request id.
    static let events = [
        request("s1.ts", start: "00.000", end: "00.500", header: #""X-Toy-Id":"r-1""#),
        request("s2.ts", start: "02.000", end: "02.600"), request("s3.ts", start: "04.000", end: "04.400"),
        request("s4.ts", start: "06.000", end: "06.300"),
    ].joined(separator: "\n")

    static func request(_ name: String, start: String, end: String, header: String = "") -> String {
        let url = "https://cdn.example.com/a/\(name)"
        return #"{"type":"AVMetricHLSMediaSegmentRequestEvent","date":"2026-11-21T10:00:"#
            + end + #"Z","sessionID":"S1","url":""# + url + #"","mediaResourceRequestEvent":{"url":""# + url
            + #"","requestStartTime":"2026-11-21T10:00:"# + start + #"Z","responseEndTime":"2026-11-21T10:00:"#
            + end + #"Z","networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":200,"headers":{"#
            + header + "}}}]}}}"
    }

    /// The edge saw the device's requests 0.25 s earlier on its clock, and other viewers' too.
    static let edge = """
        {"startMs":1795255199750,"tookMs":400,"uri":"/a/s1.ts","code":200,"rid":"r-1","pop":"FRA1"}
        {"startMs":1795255199800,"tookMs":400,"uri":"/a/s1.ts","code":200,"rid":"o-1","sess":"OTHER","pop":"FRA1"}
        {"startMs":1795255201760,"tookMs":500,"uri":"/a/s2.ts","code":200,"rid":"o-2","sess":"OTHER","pop":"FRA1"}
        {"startMs":1795255201750,"tookMs":500,"uri":"/a/s2.ts","code":200,"rid":"r-2","sess":"s1","pop":"FRA1"}
        {"startMs":1795255203750,"tookMs":300,"uri":"/a/s3.ts?t=1","code":200,"rid":"r-3","pop":"FRA1"}
        {"startMs":1795255205700,"tookMs":200,"uri":"/a/s4.ts","code":200,"rid":"r-4a","pop":"FRA1"}
        {"startMs":1795255205800,"tookMs":200,"uri":"/a/s4.ts","code":200,"rid":"r-4b","pop":"FRA1"}
        {"startMs":1795258800000,"tookMs":200,"uri":"/a/s3.ts","code":200,"rid":"o-3","pop":"FRA1"}
        """

    @Test func aToyServerLogIsJoinedToTheSessionWithoutMakingOne() throws {
        var ingestor = Ingestor()
        ingestor.registry = FormatRegistry(
            readers: FormatRegistry.standard.readers + [ToyEdgeLog.self])
        let report = Analyzer(ingestor: ingestor).analyze(files: [
            ("events.jsonl", Array(Self.events.utf8)), ("edge.log", Array(Self.edge.utf8)),
        ])
        #expect(report.inputs.map(\.format) == [InputFormat("toy-edge"), .metricEvents])
        #expect(report.sessions.count == 1, "server rows make no session")
        let session = try #require(report.sessions.first?.session)
        #expect(!session.sources.contains(InputFormat("toy-edge")))
        func joined(_ name: String) -> [(String, JoinConfidence, JoinKey)] {
            session.entries.first { $0.record.request?.url.hasSuffix(name) == true }.map(session.serverViews(of:))?.map
            {
                ($0.serverRequest?.requestID ?? "", $0.confidence, $0.key)
            } ?? []
        }
        #expect(joined("s1.ts").map(\.0) == ["r-1"])
        #expect(joined("s1.ts").map(\.1) == [.exact])
        #expect(joined("s2.ts").map(\.0) == ["r-2"])
        #expect(joined("s2.ts").map(\.1) == [.strong])
        #expect(joined("s3.ts").map(\.0) == ["r-3"])
        #expect(joined("s3.ts").map(\.1) == [.probable])
        #expect(joined("s4.ts").map(\.0) == ["r-4a", "r-4b"])
        #expect(joined("s4.ts").map(\.1) == [.ambiguous, .ambiguous])
        let cited = Set(session.serverViews.values.flatMap { $0 }.compactMap { $0.serverRequest?.requestID })
        #expect(cited.isDisjoint(with: ["o-1", "o-2", "o-3"]), "no other viewer's row is cited")
        let join = try #require(session.serverJoin)
        #expect(join.pairs == 2)
        #expect(abs((join.offset ?? 0) - 0.25) < 0.001)
        #expect(join.joined == [.exact: 1, .strong: 1, .probable: 1, .ambiguous: 1])
        #expect(report.serverRows == 8)
        #expect(report.unjoinedServerRows == 5)
        // Each joined row keeps its own time, on the session's clock.
        let s1 = try #require(session.entries.first { $0.record.request?.url.hasSuffix("s1.ts") == true })
        #expect(abs((session.serverViews(of: s1).first?.alignedStart?.secondsSince1970 ?? 0) - 1_795_255_200) < 0.001)
    }

    @Test func withoutTheRegistryLineTheServerLogIsNotRead() {
        let report = Analyzer().analyze(files: [
            ("events.jsonl", Array(Self.events.utf8)), ("edge.log", Array(Self.edge.utf8)),
        ])
        #expect(report.inputs.first { $0.path == "edge.log" }?.format == nil)
        #expect(report.sessions.count == 1)
    }

    @Test func theToyFormatsOwnSampleSniffsAndReads() throws {
        var ingestor = Ingestor()
        ingestor.registry = FormatRegistry(readers: FormatRegistry.standard.readers + [ToyBeaconFormat.self])
        for sample in ToyBeaconFormat.declaration.samples {
            let bytes = Array(sample.text.utf8)
            let outcome = ingestor.ingest(BundleMember(path: "sample", open: { MemoryByteSource(bytes) }))
            #expect(outcome.format == ToyBeaconFormat.declaration.format)
            #expect(outcome.result?.records.map(\.summary) == sample.expectedSummaries)
        }
    }
}
