import ForensicsCore
import ForensicsParsers
import Foundation

/// One fuzz entry point per parser, chosen by the `PF_FUZZ_TARGET` environment variable:
/// `playlist`, `har`, `metric-events`, `access-log`, `cache-log`, `bundle` (gzip + sniffing +
/// every parser). Each runs the real ingest path on the input bytes; any crash is a bug.
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
}
