import Foundation

/// Runs the built `playback-forensics` binary and captures stdout, stderr and the exit code.
enum CLIRunner {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var binary: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        if dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        let candidate = dir.appendingPathComponent("playback-forensics")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return repository.appendingPathComponent(".build/debug/playback-forensics")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: URL? = nil) throws -> Result {
        try runProgram(binary.path, arguments, environment: environment, stdin: stdin)
    }

    /// Runs any program from the repository root (e.g. `script`, to give the tool a terminal).
    static func runProgram(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], stdin: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = repository
        var env = ProcessInfo.processInfo.environment
        // An empty value removes the variable (the test runner may set NO_COLOR itself).
        for (k, v) in environment { env[k] = v.isEmpty ? nil : v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting so a large report cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh folder holding copies of these `SampleLogs/` bundles, and a path beside it for
    /// triage's output; the caller removes both.
    static func sampleFleet(_ names: [String]) throws -> (fleet: URL, output: URL) {
        let fleet = FileManager.default.temporaryDirectory.appendingPathComponent("pf-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fleet, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: repository.appendingPathComponent("SampleLogs/\(name)"), to: fleet.appendingPathComponent(name))
        }
        return (fleet, fleet.appendingPathExtension("out"))
    }
}
