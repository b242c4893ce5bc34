import Foundation
import ForensicsCore
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// Every member of every SampleLogs bundle is recognised and parses without errors.
@Suite struct SampleLogsParseTests {
    @Test func everyMemberIsRecognisedAndParsesCleanly() throws {
        let bundles = try FileManager.default.contentsOfDirectory(atPath: TestPaths.sampleLogs.path).filter {
            !$0.hasSuffix(".md")
        }.sorted()
        #expect(bundles.count >= 4)
        var formats: Set<InputFormat> = []
        for bundle in bundles {
            var diagnostics: [Diagnostic] = []
            var members = 0
            try BundleReader().read(
                path: TestPaths.sampleLogs.appendingPathComponent(bundle).path, diagnostics: &diagnostics
            ) { member in
                members += 1
                let outcome = Ingestor().ingest(member)
                #expect(outcome.format != nil, "\(member.path) not recognised")
                if let f = outcome.format { formats.insert(f) }
                let errors = (outcome.diagnostics + (outcome.result?.diagnostics ?? [])).filter {
                    $0.severity >= .warning
                }
                #expect(errors.isEmpty, "\(member.path): \(errors.map(\.message))")
                #expect((outcome.result?.records.count ?? 0) > 0, "\(member.path)")
            }
            #expect(members > 0)
            #expect(diagnostics.isEmpty)
        }
        // Every format a session is made of, and a server log beside a bundle (each vendor's own
        // samples and the CDN stories test the others).
        let clientFormats = FormatRegistry.standard.descriptors.filter(\.semantics.role.makesSessions).map(\.format)
        #expect(Set(clientFormats).isSubset(of: formats), "SampleLogs covers every client format")
        #expect(formats.contains(InputFormat("cloudfront-standard")), "SampleLogs has a CDN log")
    }
}
