import ForensicsCore
import Foundation
import PlaybackForensics
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// Every input a fuzzer found to crash or hang the tool, replayed the way its target ran it.
/// A new finding goes into `Fuzz/regressions/TARGET/` (see Scripts/fuzz.sh); this test picks it up.
@Suite struct FuzzRegressionTests {
    static let root = TestPaths.repository.appendingPathComponent("Fuzz/regressions")

    static var cases: [String] {
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return targets.sorted().flatMap { target in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(target).path)) ?? [])
                .sorted().map { "\(target)/\($0)" }
        }
    }

    @Test func thereAreRegressionInputs() {
        #expect(!Self.cases.isEmpty)
    }

    @Test(arguments: cases) func replaysWithoutCrashing(_ path: String) throws {
        let url = Self.root.appendingPathComponent(path)
        let target = String(path.split(separator: "/").first ?? "")
        if target == "bundle" {
            // The bundle target: everything analyze does, reports included.
            let report = try Analyzer().analyze(path: url.path)
            _ = ForensicsReportsProbe.render(report)
            #expect(!report.inputs.isEmpty || !report.diagnostics.isEmpty)
        } else {
            let format = try #require(
                FormatRegistry.standard.reader(for: InputFormat(target))?.declaration.format,
                "unknown fuzz target \(target)")
            let bytes = [UInt8](try Data(contentsOf: url))
            _ = Ingestor(forcedFormat: format).ingest(BundleMember(path: path, open: { MemoryByteSource(bytes) }))
        }
    }
}
