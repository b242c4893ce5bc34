import Foundation
import ForensicsCore
import ForensicsReports
import PlaybackForensics
import ForensicsTestSupport
import Testing

/// Golden files for the Markdown and JSON reports of every SampleLogs bundle; also proves the
/// output is deterministic. Regenerate with `UPDATE_GOLDEN=1 swift test --filter GoldenReportTests`.
@Suite struct GoldenReportTests {
    static var bundles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: TestPaths.sampleLogs.path)) ?? [])
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
    }

    @Test(arguments: bundles)
    func reportsMatchGoldenFiles(bundle: String) throws {
        let path = TestPaths.sampleLogs.appendingPathComponent(bundle).path
        // The bundle is named relative to the repository, as a user would type it.
        func render() throws -> (String, String) {
            var report = try Analyzer().analyze(path: path)
            report.bundle = "SampleLogs/" + bundle
            return (
                MarkdownReporter(toolVersion: "golden").render(report),
                JSONReporter(toolVersion: "golden").render(report)
            )
        }
        let (markdown, json) = try render()
        let again = try render()
        #expect(markdown == again.0, "Markdown is not deterministic")
        #expect(json == again.1, "JSON is not deterministic")
        let update = ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != nil
        for (ext, text) in [("md", markdown), ("json", json)] {
            let url = TestPaths.golden.appendingPathComponent("\(bundle).\(ext)")
            if update {
                try FileManager.default.createDirectory(at: TestPaths.golden, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            let expected = try? String(contentsOf: url, encoding: .utf8)
            #expect(expected == text, "\(bundle).\(ext) differs from its golden file (UPDATE_GOLDEN=1 to accept)")
        }
    }

    @Test func jsonReportFollowsTheContract() throws {
        let report = try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent("cdn-404-stall").path)
        let json = JSONReporter(toolVersion: "1").render(report)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(root["schema_version"] as? Int == 1)
        let tool = try #require(root["tool"] as? [String: Any])
        #expect(tool["name"] as? String == "playback-forensics")
        let inputs = try #require(root["inputs"] as? [[String: Any]])
        #expect(
            inputs.allSatisfy {
                $0["path"] is String && $0["format"] != nil && $0["records"] is Int && $0["diagnostics"] is Int
            })
        let session = try #require((root["sessions"] as? [[String: Any]])?.first)
        for key in ["session_id", "start", "end", "asset_url", "sources", "kpis", "findings"] {
            #expect(session[key] != nil, "\(key)")
        }
        let kpis = try #require(session["kpis"] as? [String: Any])
        for key in [
            "startup_time", "stall_count", "stall_duration", "rebuffer_ratio", "variant_switch_count",
            "downswitch_count", "error_count", "fatal_error", "time_weighted_average_bitrate", "playing_time",
        ] {
            #expect(kpis[key] != nil, "\(key)")
        }
        let findings = try #require(session["findings"] as? [[String: Any]])
        for f in findings {
            for key in ["rule_id", "severity", "start", "end", "title", "cause", "details", "evidence", "advice"] {
                #expect(f[key] != nil, "\(key)")
            }
            let evidence = try #require(f["evidence"] as? [[String: Any]])
            #expect(evidence.allSatisfy { $0["file"] is String && $0["line"] is Int && $0["summary"] is String })
        }
        // Findings ordered by start time then rule id.
        let starts = findings.map { ($0["start"] as? String ?? "") + " " + ($0["rule_id"] as? String ?? "") }
        #expect(starts == starts.sorted())
        let start = try #require(session["start"] as? String)
        #expect(start.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil)
    }
}
