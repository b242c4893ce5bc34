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
/// reader, correlation, the rules and both reports. `configuration` reads the bytes as a rule
/// configuration file (`--config`); `triage-index` takes them as an earlier `triage.sqlite` and runs
/// what `--since-index` and `triage merge` run on it: the untrusted copy into a fresh index, the
/// problem grouping and the overview. Any crash is a bug.
enum FuzzTarget {
    case format(InputFormat)
    case bundle
    case configuration
    case triageIndex

    /// Every target's name: the registry's formats, then `bundle`, `configuration` and
    /// `triage-index` (`Scripts/fuzz.sh` runs these).
    static var names: [String] {
        FormatRegistry.standard.formats.map(\.rawValue) + ["bundle", "configuration", "triage-index"]
    }

    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PF_FUZZ_TARGET"] ?? "bundle"
        if name == "configuration" { return .configuration }
        if name == "triage-index" { return .triageIndex }
        return FormatRegistry.standard.reader(for: InputFormat(name)).map { .format($0.declaration.format) } ?? .bundle
    }()

    func run(_ bytes: [UInt8]) {
        var limits = BundleLimits()
        limits.maxDecompressedSize = 64 << 20
        limits.maxLineLength = 1 << 20
        switch self {
        case .bundle:
            Self.analyzeAsBundle(bytes, limits: limits)
        case .configuration:
            // Refusing the bytes is right; crashing, hanging or growing without bound is not.
            if let document = try? ConfigurationDocument(bytes: bytes),
                let dict = document.value as? [String: Any]
            {
                _ = try? RuleSet(configuration: dict)
            }
        case .triageIndex:
            Self.readAsTriageIndex(bytes)
        case .format(let format):
            let outcome = Ingestor(limits: limits, forcedFormat: format)
                .ingest(BundleMember(path: "fuzz", open: { MemoryByteSource(bytes) }))
            // Touch the results the way the reporters do.
            for record in outcome.result?.records ?? [] { _ = record.summary }
        }
    }

    /// Writes the bytes as an earlier index and opens it both ways the tool does: copied into a
    /// fresh one row by row (`triage merge`) and adopted in place (`--since-index`); each is then
    /// brought up to date and reported.
    static func readAsTriageIndex(_ bytes: [UInt8]) {
        let directory = scratchPath + "-index"
        try? FileManager.default.removeItem(atPath: directory)
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil,
            FileManager.default.createFile(atPath: directory + "/old.sqlite", contents: Data(bytes))
        else { return }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if let index = try? TriageIndex(path: directory + "/new.sqlite"),
            (try? index.absorb(directory + "/old.sqlite", refuseClash: false)) != nil
        {
            report(index)
        }
        if let adopted = try? TriageIndex.adopting(copyOf: directory + "/old.sqlite", at: directory + "/adopted.sqlite")
        {
            report(adopted)
        }
    }

    static func report(_ index: TriageIndex) {
        _ = try? index.knownBundles()
        _ = try? index.updateProblems()
        let reporter = TriageReporter(redactor: Redactor())
        _ = try? reporter.markdown(index) { _ in }
        _ = try? reporter.json(index) { _ in }
        _ = try? reporter.html(index)
        try? index.close()
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
