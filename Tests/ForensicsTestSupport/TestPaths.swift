import Foundation

/// Where the repository, `SampleLogs/`, the golden reports and the team's `../shared/corpus` are,
/// from this file (one copy for every test target).
package enum TestPaths {
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    package static let sampleLogs = repository.appendingPathComponent("SampleLogs")
    package static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    package static let golden = repository.appendingPathComponent("Tests/ForensicsReportsTests/Golden")

    package static func files(under directory: URL, withExtension ext: String) -> [URL] {
        guard let e = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return e.compactMap { $0 as? URL }.filter { $0.pathExtension == ext }.sorted { $0.path < $1.path }
    }
}
