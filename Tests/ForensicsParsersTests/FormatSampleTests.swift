import ForensicsCore
import Testing

@testable import ForensicsParsers

/// The samples each format declares yield the records they promise (one generic test).
@Suite struct FormatSampleTests {
    @Test(arguments: FormatCatalog.all.map(\.format))
    func declaredSamplesParseAsDeclared(format: InputFormat) throws {
        let description = try #require(FormatCatalog.description(of: format))
        for sample in description.samples {
            let outcome = ingest("sample", sample.text)
            #expect(outcome.format == format, "sniffed as \(String(describing: outcome.format))")
            let records = outcome.result?.records ?? []
            #expect(records.map(\.summary) == sample.expectedSummaries)
            let problems = (outcome.result?.diagnostics ?? []).filter { $0.severity >= .warning }
            #expect(problems.isEmpty, "\(problems.map(\.message))")
        }
    }

    @Test func everyFormatHasSamples() {
        for format in InputFormat.allCases { #expect(FormatCatalog.description(of: format)?.samples.isEmpty == false) }
    }
}
