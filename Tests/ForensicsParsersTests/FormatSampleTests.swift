import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// The samples each format declares yield the records they promise (one generic test).
@Suite struct FormatSampleTests {
    @Test(arguments: FormatRegistry.standard.formats)
    func declaredSamplesParseAsDeclared(format: InputFormat) throws {
        let reader = try #require(FormatRegistry.standard.reader(for: format))
        for sample in reader.declaration.samples {
            let outcome = ingest("sample", sample.text)
            #expect(outcome.format == format, "sniffed as \(String(describing: outcome.format))")
            let records = outcome.result?.records ?? []
            #expect(records.map(\.summary) == sample.expectedSummaries)
            let problems = (outcome.result?.diagnostics ?? []).filter { $0.severity >= .warning }
            #expect(problems.isEmpty, "\(problems.map(\.message))")
        }
    }

    @Test func everyFormatHasSamples() {
        #expect(Set(FormatRegistry.standard.formats).count == FormatRegistry.standard.formats.count)
        for declaration in FormatRegistry.standard.declarations { #expect(!declaration.samples.isEmpty) }
    }
}
