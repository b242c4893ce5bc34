import Foundation

/// Where the repository, `SampleLogs/` and the team's `../shared/corpus` are, from this file.
enum TestPaths {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sampleLogs = repository.appendingPathComponent("SampleLogs")
    static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static func files(under directory: URL, withExtension ext: String) -> [URL] {
        guard let e = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return e.compactMap { $0 as? URL }.filter { $0.pathExtension == ext }.sorted { $0.path < $1.path }
    }
}
