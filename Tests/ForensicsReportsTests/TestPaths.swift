import Foundation

enum TestPaths {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sampleLogs = repository.appendingPathComponent("SampleLogs")
    static let golden = repository.appendingPathComponent("Tests/ForensicsReportsTests/Golden")
}
