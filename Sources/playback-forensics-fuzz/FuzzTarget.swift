import ForensicsCore
import ForensicsParsers
import ForensicsReports
import Foundation
import PlaybackForensics

/// One fuzz entry point per format of `FormatRegistry` (named by its identifier, e.g.
/// `playlist-capture`, `metric-events`), chosen by the `PF_FUZZ_TARGET` environment variable,
/// plus `bundle`. A format target runs the real ingest path of that format on the input bytes;
/// `bundle` takes the bytes as a bundle file (zip, tar, tar.gz, gzip or a single log, recognised
/// by content) and runs everything a user's `analyze` runs: the bundle reader, sniffing, every
/// reader, correlation, the rules and both reports. Any crash is a bug.
enum FuzzTarget {
    case format(InputFormat)
    case bundle

    /// Every target's name: the registry's formats, then `bundle` (`Scripts/fuzz.sh` runs these).
    static var names: [String] { FormatRegistry.standard.formats.map(\.rawValue) + ["bundle"] }

    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PF_FUZZ_TARGET"] ?? "bundle"
        return FormatRegistry.standard.reader(for: InputFormat(name)).map { .format($0.declaration.format) } ?? .bundle
    }()

    func run(_ bytes: [UInt8]) {
        var limits = BundleLimits()
        limits.maxDecompressedSize = 64 << 20
        limits.maxLineLength = 1 << 20
        switch self {
        case .bundle:
            Self.analyzeAsBundle(bytes, limits: limits)
        case .format(let format):
            let outcome = Ingestor(limits: limits, forcedFormat: format)
                .ingest(BundleMember(path: "fuzz", open: { MemoryByteSource(bytes) }))
            // Touch the results the way the reporters do.
            for record in outcome.result?.records ?? [] { _ = record.summary }
        }
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
