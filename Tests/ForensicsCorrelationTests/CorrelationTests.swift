import Foundation
import ForensicsCore
import ForensicsParsers
import PlaybackForensics
import ForensicsTestSupport
import Testing

@Suite struct CorrelationTests {
    func sample(_ name: String) throws -> AnalysisReport {
        try Analyzer().analyze(path: TestPaths.sampleLogs.appendingPathComponent(name).path)
    }

    @Test func threeInterleavedSessionsAcrossFiveSourcesAreSeparated() throws {
        let report = try sample("three-sessions.tar.gz")
        #expect(
            report.sessions.map(\.session.id) == [
                "11111111-AAAA-4AAA-8AAA-111111111111", "22222222-BBBB-4BBB-8BBB-222222222222",
                "33333333-CCCC-4CCC-8CCC-333333333333",
            ])
        #expect(report.unassignedRecords == 0)
        let total = report.inputs.reduce(0) { $0 + $1.records }
        let placed = report.sessions.reduce(0) { acc, s in
            acc + s.session.entries.reduce(0) { $0 + 1 + $1.otherViews.count }
        }
        #expect(placed == total, "every record is on exactly one timeline")
        // The proxy log has no session identifier: its entries join by URL.
        for s in report.sessions { #expect(s.session.sources.contains(.cacheLog)) }
        #expect(report.sessions[1].session.sources.contains(.errorLog))
    }

    @Test func recordsThatFitNoSessionAreListedWithAReason() {
        let a = TimelineScriptFiles.dump(
            "0.0 multivariant https://a.example.com/m.m3u8 200 0.1\n1.0 initial-ltku", session: "A")
        let b = TimelineScriptFiles.dump(
            "0.5 multivariant https://b.example.com/m.m3u8 200 0.1\n1.5 initial-ltku", session: "B")
        let orphan = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nhttps://c.example.com/x.ts\n"
        let report = Analyzer().analyze(files: [("a.jsonl", a), ("b.jsonl", b), ("orphan.m3u8", Array(orphan.utf8))])
        #expect(report.sessions.count == 2)
        #expect(report.unassignedRecords == 1)
        #expect(
            report.diagnostics.contains {
                $0.location.file == "orphan.m3u8" && $0.message.contains("not assigned to a session")
            })
    }

    @Test func harClockAheadBy93Point4SecondsIsAlignedWithin50ms() throws {
        let report = try sample("cdn-404-stall")
        let offsets = try #require(report.sessions.first).session.clockOffsets
        let har = try #require(offsets.first { $0.format == .har })
        #expect(abs(har.offset - -93.4) < 0.05)
        #expect(har.confidence == "high")
        // The error log was written in local time (UTC+1): alignment finds the hour.
        let errors = try #require(offsets.first { $0.format == .errorLog })
        #expect(abs(errors.offset - -3600) < 1.0)
        let markdown = MarkdownReporterProbe.render(report)
        #expect(markdown.contains("| `charles-capture.har.gz` | -93.4 s |"))
    }

    /// KPIs computed by hand from the generator's figures (Scripts/make_sample_logs.py), not
    /// copied from the program's output.
    @Test func kpisOfTheSampleBundlesMatchHandComputedValues() throws {
        let stall = try #require(try sample("cdn-404-stall").sessions.first).session.kpis
        #expect(stall.startupTime.map { abs($0 - 0.9) < 0.0005 } == true)  // play at 0.000, LTKU at 0.900
        #expect(stall.stallCount == 1)
        // stall 451.002 → LTKU 455.100
        #expect(stall.stallDuration.map { abs($0 - (455.1 - 451.002)) < 0.0005 } == true)
        #expect(stall.rebufferRatio.map { abs($0 - 4.098 / (595 + 4.098)) < 0.00005 } == true)
        #expect(stall.variantSwitchCount == 1)
        #expect(stall.downswitchCount == 1)
        #expect(stall.errorCount == 3)  // s74 404, s75 404 twice; error events and error-log rows are the same failures
        #expect(stall.fatalError == false)
        #expect(stall.timeWeightedAverageBitrate == 19_000_000)
        #expect(stall.playingTime == 595)

        let key = try #require(try sample("slow-key-startup").sessions.first).session.kpis
        #expect(key.startupTime.map { abs($0 - 2.05) < 0.0005 } == true)  // play at 0.000, LTKU at 2.050
        #expect(key.stallCount == 0)
        #expect(key.errorCount == 0)

        let proxy = try #require(try sample("proxy-octet-stream").sessions.first).session.kpis
        #expect(proxy.fatalError == true)
        // The unplayable response's fatal error, the -1004 connection failure, the origin 404 the
        // proxy got (one request, counted once).
        #expect(proxy.errorCount == 3)
    }

    @Test func shufflingFileOrderOrSplittingAFileDoesNotChangeTheTimeline() throws {
        let dir = TestPaths.sampleLogs.appendingPathComponent("cdn-404-stall")
        var files: [(name: String, bytes: [UInt8])] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
            files.append((name, [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))))
        }
        func timeline(_ f: [(name: String, bytes: [UInt8])]) -> [String] {
            Analyzer().analyze(files: f).sessions.flatMap { s in
                s.session.entries.map { "\($0.time?.iso8601 ?? "-") \($0.record.summary) +\($0.otherViews.count)" }
            }
        }
        let reference = timeline(files)
        #expect(!reference.isEmpty)
        #expect(timeline(files.reversed()) == reference)
        #expect(timeline([files[2], files[0], files[3], files[1]]) == reference)
        // Split the (gunzipped) metric dump into two files.
        let metricsIndex = try #require(files.firstIndex { $0.name == "metrics.jsonl.gz" })
        var gz = try GzipByteSource(MemoryByteSource(files[metricsIndex].bytes), name: "m", limit: 1 << 30)
        let lines = String(decoding: try readAll(&gz, limit: 1 << 30, name: "m"), as: UTF8.self).split(separator: "\n")
        let half = lines.count / 2
        var split = files
        split.remove(at: metricsIndex)
        split.append(("metrics-part1.jsonl", Array((lines[..<half].joined(separator: "\n") + "\n").utf8)))
        split.append(("metrics-part2.jsonl", Array((lines[half...].joined(separator: "\n") + "\n").utf8)))
        #expect(timeline(split) == reference)
    }
}
