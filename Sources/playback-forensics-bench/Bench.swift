import ForensicsCorrelation
import ForensicsCore
import ForensicsParsers
import ForensicsReports
import ForensicsRules
import Foundation
import PlaybackForensics

/// Times the parsers in-process on one file: `playback-forensics-bench FORMAT FILE [RUNS]`.
/// `playback-forensics-bench analyze-stages FILE` instead times each stage of `analyze` on it
/// (ingest, correlation, rules, Markdown and JSON reports), to show where end-to-end time goes.
/// `playback-forensics-bench triage DIR OUTDIR [JOBS]` runs triage in-process (for profilers
/// that cannot load the CLI binary).
/// `playback-forensics-bench playlist-dump FILE…` prints every playlist parsed from each file with
/// every segment in full and the diagnostics: run before and after a parser change and diff the
/// outputs (a speed-up must not change a single field).
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
        if args[1] == "triage", args.count >= 4 {
            let start = DispatchTime.now().uptimeNanoseconds
            let jobs = args.count > 4 ? Int(args[4]) ?? 1 : 1
            do {
                let reports = args[3] + "/bundles"
                try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
                unlink(args[3] + "/triage.sqlite")
                let index = try TriageIndex(path: args[3] + "/triage.sqlite")
                let store = TriageRunner.ReportStore(write: { bundle in
                    // As the CLI stores them: two plain writes per bundle, no fsync.
                    for (text, ext) in [(bundle.markdown, "md"), (bundle.json, "json")] {
                        guard let f = fopen("\(reports)/\(bundle.file).\(ext)", "w") else { continue }
                        fputs(text, f)
                        fclose(f)
                    }
                })
                let statistics = try TriageRunner(analyzer: Analyzer(), jobs: jobs).run(
                    directory: args[2], index: index, store: store)
                let bundles = try index.counts().bundles
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                print(
                    String(
                        format: "%d bundles (%d analysed) in %.3f s", bundles, statistics.analyzed,
                        seconds))
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
            return
        }
        if args[1] == "playlist-dump" {
            for path in args.dropFirst(2) { dumpPlaylists(path: path) }
            return
        }
        if args[1] == "analyze-stages" {
            analyzeStages(path: args[2])
            return
        }
        let format = args[1] == "auto" ? nil : FormatCatalog.format(named: args[1])
        // An unknown name would force a format no reader has and parse nothing: say so instead.
        if args[1] != "auto", format == nil {
            let known = FormatCatalog.all.map(\.format.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("unknown format '\(args[1])'; known: auto, \(known)\n".utf8))
            exit(64)
        }
        let path = args[2]
        let runs = args.count > 3 ? max(1, Int(args[3]) ?? 5) : 5
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
        var limits = BundleLimits()
        limits.maxDecompressedSize = 8 << 30
        // The whole file is measured: the shipped record limits would stop a 200 MB input early.
        limits.maxRecordsPerFile = .max
        limits.maxRecordsPerBundle = .max
        let ingestor = Ingestor(limits: limits, forcedFormat: format)
        var times: [Double] = []
        var records = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = ingestor.ingest(BundleMember(path: path, open: { try FileByteSource(path: path) }))
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            records =
                (outcome.result?.records.count ?? 0)
                + (outcome.result?.playlists.reduce(0) { $0 + $1.segments.count + $1.variants.count } ?? 0)
            times.append(elapsed)
        }
        times.sort()
        let median = times[times.count / 2]
        let line = String(
            format: "%.4f\t%.1f\t%.0f\t%d\n", median, size / 1e6 / median, Double(records) / median, records)
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    static func dumpPlaylists(path: String) {
        let outcome = Ingestor().ingest(BundleMember(path: path, open: { try FileByteSource(path: path) }))
        var out = "== \(path) \(outcome.format?.rawValue ?? "-")\n"
        for d in outcome.diagnostics + (outcome.result?.diagnostics ?? []) { out += "diagnostic \(d)\n" }
        for playlist in outcome.result?.playlists ?? [] {
            // Every field but the segment table's storage, which a parser change may lay out anew.
            for child in Mirror(reflecting: playlist).children where child.label != "segments" {
                out += "playlist.\(child.label ?? "?") \(String(describing: child.value))\n"
            }
            for segment in playlist.segments { out += "segment \(segment)\n" }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    static func analyzeStages(path: String) {
        func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        var t = now()
        var stages: [(String, Double)] = []
        func lap(_ name: String) {
            let n = now()
            stages.append((name, n - t))
            t = n
        }
        var limits = BundleLimits()
        limits.maxDecompressedSize = 8 << 30
        // The whole file is measured: the shipped record limits would stop a 200 MB input early.
        limits.maxRecordsPerFile = .max
        limits.maxRecordsPerBundle = .max
        let outcome = Ingestor(limits: limits).ingest(
            BundleMember(path: path, open: { try FileByteSource(path: path) }))
        lap("ingest")
        let records = outcome.result?.records ?? []
        let sources =
            outcome.result.map {
                [
                    SourceFile(
                        path: $0.file, format: $0.format, semantics: FormatRegistry.standard.semantics(of: $0.format),
                        records: $0.records)
                ]
            } ?? []
        let correlation = Correlator().correlate(consume sources)
        lap("correlate")
        let engine = RuleEngine()
        let sessions = correlation.sessions.map {
            AnalysisReport.SessionResult(session: $0, findings: engine.evaluate($0))
        }
        lap("rules")
        let report = AnalysisReport(
            bundle: path, inputs: [], sessions: sessions, diagnostics: outcome.result?.diagnostics ?? [],
            unassignedRecords: correlation.unassigned.count)
        let markdown = MarkdownReporter(toolVersion: "bench").render(report)
        lap("markdown")
        let json = JSONReporter(toolVersion: "bench").render(report)
        lap("json")
        var line =
            "records \(records.count), sessions \(sessions.count), markdown \(markdown.utf8.count) B, json \(json.utf8.count) B\n"
        for (name, seconds) in stages { line += String(format: "%-10@ %.3f s\n", name as NSString, seconds) }
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
