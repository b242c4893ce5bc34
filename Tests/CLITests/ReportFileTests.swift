import Foundation
import Testing

@testable import PlaybackForensics
@testable import playback_forensics

/// Triage writes its per-bundle reports with plain POSIX calls; they must land whole, replace an
/// older file of the same name, and fail with the path when they cannot be written.
@Suite struct ReportFileTests {
    @Test func writesReplacesAndReportsFailures() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/report.md"
        let long = String(repeating: "| 10:07:24.000 | `metrics.jsonl.gz:79` | segment → 404 ✓ |\n", count: 20_000)
        try ReportFile.write(long, to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == long)
        try ReportFile.write("short\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "short\n")
        #expect(throws: ReportFile.WriteError.self) { try ReportFile.write("x", to: dir + "/missing/report.md") }
        do {
            try ReportFile.write("x", to: dir + "/missing/report.md")
        } catch {
            #expect("\(error)".contains("missing/report.md"))
        }
    }
}

/// The triage overview follows the run's redaction setting.
@Suite struct TriageOverviewRedactionTests {
    @Test func noRedactHoldsForTheOverview() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pf-index-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let index = try TriageIndex(path: path)
        var bundle = IndexedBundle(name: "capture?token=s3cret", file: "capture", contentHash: "h", analyzer: "a")
        bundle.error = "unreadable"
        try index.store(bundle)
        for text in [try TriageReporter().markdown(index), try TriageReporter().json(index)] {
            #expect(!text.contains("s3cret"))
            #expect(text.contains("token=REDACTED"))
        }
        let kept = try TriageReporter(redactor: Redactor(enabled: false)).markdown(index)
        #expect(kept.contains("token=s3cret"))
    }

    /// A symbolic link planted where a report goes is refused, and its target left alone.
    @Test func aPlantedSymlinkIsNotWrittenThrough() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-report-link-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "precious\n".write(toFile: dir + "/target", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/bundle.md", withDestinationPath: dir + "/target")
        #expect(throws: ReportFile.WriteError.self) { try ReportFile.write("report", to: dir + "/bundle.md") }
        #expect(try String(contentsOfFile: dir + "/target", encoding: .utf8) == "precious\n")
    }
}
