import Foundation
import ForensicsCore
import ForensicsParsers

/// Times the parsers in-process on one file: `playback-forensics-bench FORMAT FILE [RUNS]`.
/// FORMAT is an input format id (or `auto`); prints one tab-separated line:
/// `median_seconds  MB_per_second  records_per_second  records`. The median of RUNS (default 5)
/// full ingests (read, gunzip if gzip, parse) of the file.
@main
struct Bench {
    static func main() {
        let args = CommandLine.arguments
        guard args.count >= 3 else {
            FileHandle.standardError.write(Data("usage: playback-forensics-bench FORMAT FILE [RUNS]\n".utf8))
            exit(64)
        }
        let format = args[1] == "auto" ? nil : InputFormat(rawValue: args[1])
        let path = args[2]
        let runs = args.count > 3 ? max(1, Int(args[3]) ?? 5) : 5
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
        var limits = BundleLimits()
        limits.maxDecompressedSize = 8 << 30
        let ingestor = Ingestor(limits: limits, forcedFormat: format)
        var times: [Double] = []
        var records = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = ingestor.ingest(BundleMember(path: path, open: { try FileByteSource(path: path) }))
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            records = (outcome.result?.records.count ?? 0)
                + (outcome.result?.playlists.reduce(0) { $0 + $1.segments.count + $1.variants.count } ?? 0)
            times.append(elapsed)
        }
        times.sort()
        let median = times[times.count / 2]
        let line = String(format: "%.4f\t%.1f\t%.0f\t%d\n", median, size / 1e6 / median, Double(records) / median, records)
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
