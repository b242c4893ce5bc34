import ForensicsCore
import ForensicsParsers
import ForensicsReports
import Foundation
import PlaybackForensics

/// One fuzz entry point per parser, chosen by the `PF_FUZZ_TARGET` environment variable:
/// `playlist`, `har`, `metric-events`, `access-log`, `cache-log` run the real ingest path of that
/// format on the input bytes; `bundle` takes the bytes as a bundle file (zip, tar, tar.gz, gzip or
/// a single log, recognised by content) and runs everything a user's `analyze` runs: the bundle
/// reader, sniffing, every parser, correlation, the rules and both reports. Any crash is a bug.
enum FuzzTarget: String, CaseIterable {
    case playlist
    case har
    case metricEvents = "metric-events"
    case accessLog = "access-log"
    case cacheLog = "cache-log"
    case bundle

    static let current: FuzzTarget = {
        ProcessInfo.processInfo.environment["PF_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:)) ?? .bundle
    }()

    func run(_ bytes: [UInt8]) {
        var limits = BundleLimits()
        limits.maxDecompressedSize = 64 << 20
        limits.maxLineLength = 1 << 20
        if self == .bundle {
            Self.analyzeAsBundle(bytes, limits: limits)
            return
        }
        let format: InputFormat? =
            switch self {
            case .playlist: .playlist
            case .har: .har
            case .metricEvents: .metricEvents
            case .accessLog: .accessLog
            case .cacheLog: .cacheLog
            case .bundle: nil
            }
        let outcome = Ingestor(limits: limits, forcedFormat: format)
            .ingest(BundleMember(path: "fuzz", open: { MemoryByteSource(bytes) }))
        // Touch the results the way the reporters do.
        for record in outcome.result?.records ?? [] { _ = record.summary }
    }

    /// The bundle reader reads paths (zip archives are read with `pread`, tar ones streamed
    /// from files), so each input is first written to a scratch file named after the process.
    static let scratchPath = NSTemporaryDirectory() + "pf-fuzz-bundle-\(ProcessInfo.processInfo.processIdentifier)"

    static func analyzeAsBundle(_ bytes: [UInt8], limits: BundleLimits) {
        guard FileManager.default.createFile(atPath: scratchPath, contents: Data(bytes)) else { return }
        defer { try? FileManager.default.removeItem(atPath: scratchPath) }
        let analyzer = Analyzer(ingestor: Ingestor(limits: limits))
        // A bundle that cannot be read at all is an error the CLI reports; not a crash.
        guard let report = try? analyzer.analyze(path: scratchPath) else { return }
        _ = MarkdownReporter(toolVersion: "fuzz").render(report)
        _ = JSONReporter(toolVersion: "fuzz").render(report)
    }
}
