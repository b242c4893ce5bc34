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
        format: InputFormat("toy-beacon"), displayName: "Toy beacon log", summary: "One player event per line.",
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
