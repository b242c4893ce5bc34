import Foundation

enum TestPaths {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sampleLogs = repository.appendingPathComponent("SampleLogs")
}

extension TestPaths {
    /// The team's shared real-world corpus, beside the repository.
    static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
}
