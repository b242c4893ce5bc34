import Foundation
import ForensicsCore
import ForensicsRules
import PlaybackForensics
import ForensicsTestSupport
import Testing

/// One request seen by the metric events (whole-body `byteRange`), a HAR capture (no range, its
/// own clock) and an access log (device local time in any zone): one timeline entry, every file
/// aligned with a stated offset, no finding twice. Written from the published formats.
@Suite struct OneRequestAcrossSourcesTests {
    static let session = ExampleFixtures.sessionGUID
    static let base = "https://cdn.example.com/a"

    /// A 1.6 s key inside a 2 s startup, as metric events with `byteRange: {0, N}` on every request.
    static func metricDump() -> [UInt8] {
        var script = TimelineScript.compile(
            """
            0.000 play
            0.020 multivariant \(base)/master.m3u8 200 0.100 bytes=900 encoding=gzip
            0.150 playlist \(base)/v20/index.m3u8 200 0.050 bytes=900 encoding=gzip
            0.210 key https://keys.example.com/fps 200 1.600
            1.820 segment \(base)/v20/s1.m4s 200 0.150 dur=6 bytes=1500000
            2.000 initial-ltku variant=20M
            """, sessionID: session)
        // Metric events name a byte range for whole-file requests too.
        script = script.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.contains("\"url\"") else { return String(line) }
            return line.replacingOccurrences(
                of: "\"url\":", with: "\"byteRange\":{\"location\":0,\"length\":900},\"url\":")
        }.joined(separator: "\n")
        return Array(script.utf8)
    }

    static func har(skew: Double) -> [UInt8] {
        let entries: [ExampleFixtures.HAREntry] = [
            .init(at: 0.020 + skew, url: "\(base)/master.m3u8?token=abc", seconds: 0.1, bytes: 900),
            .init(at: 0.150 + skew, url: "\(base)/v20/index.m3u8", seconds: 0.05, bytes: 900),
            .init(at: 0.210 + skew, url: "https://keys.example.com/fps", seconds: 1.6, bytes: 100),
            .init(at: 1.820 + skew, url: "\(base)/v20/s1.m4s", seconds: 0.15, bytes: 1_500_000),
        ]
        return Array(ExampleFixtures.har(entries).text.utf8)
    }

    /// The access log of a device at `zone` seconds east of UTC: its first row starts with the
    /// media playlist request.
    static func accessLog(zone: Int) -> [UInt8] {
        let row = ExampleFixtures.accessRow(
            at: 0, uri: "\(base)/v20/index.m3u8", watched: 60, observed: 80_000_000, indicated: 20_000_000, startup: 2.0
        )
        var text = ExampleFixtures.accessLog([row]).text
        // Shift the row's local time by the zone (the builder writes 10:00:00 local = UTC).
        let local = Timestamp(TimelineScript.baseTime + Double(zone)).iso8601
        let stamp = local.prefix(19).replacingOccurrences(of: "-", with: "/").replacingOccurrences(of: "T", with: " ")
        text = text.replacingOccurrences(of: "2026/11/21 10:00:00.000 https", with: "\(stamp).000 https")
        return Array(text.utf8)
    }

    // UTC−5, UTC+5:30, the extremes UTC+14 and UTC−12, and a :45 zone (Nepal, UTC+5:45).
    static let cases: [(zone: Int, skew: Double)] = [
        (-18_000, 0), (19_800, 0), (-18_000, 93.4), (19_800, 93.4), (50_400, 93.4), (-43_200, 0), (20_700, -41.2),
    ]

    @Test(arguments: Self.cases)
    func oneEntryPerRequestWithEveryFileAligned(zone: Int, skew: Double) throws {
        let report = Analyzer().analyze(files: [
            ("metrics.jsonl", Self.metricDump()), ("capture.har", Self.har(skew: skew)),
            ("access.log", Self.accessLog(zone: zone)),
        ])
        #expect(report.sessions.count == 1)
        let s = try #require(report.sessions.first)
        // One entry per request: 4 requests, each seen by the metric events and the HAR.
        let requests = s.session.entries.filter { $0.record.request != nil }
        #expect(requests.count == 4)
        #expect(requests.allSatisfy { $0.otherViews.count == 1 })
        let har = try #require(s.session.clockOffsets.first { $0.file == "capture.har" })
        #expect(abs(har.offset + skew) < 0.01)
        #expect(har.matches == 4)
        let access = try #require(s.session.clockOffsets.first { $0.file == "access.log" })
        #expect(access.inferredZone == zone)
        #expect(abs(access.offset + Double(zone)) < 0.001)
        #expect(s.session.timeBasis == .utc)
        // No finding twice for the one key.
        #expect(s.findings.filter { $0.ruleID == "slow-key-fetch" }.count == 1)
    }

    @Test func aLocalTimeLogWithNothingToAlignReadsAsZoneUnknown() throws {
        let report = Analyzer().analyze(files: [("access.log", Self.accessLog(zone: -5 * 3600))])
        let s = try #require(report.sessions.first)
        #expect(s.session.timeBasis == .deviceLocalZoneUnknown)
        let markdown = MarkdownReporterProbe.render(report)
        #expect(markdown.contains("device local time, zone unknown"))
        #expect(!markdown.contains("T05:00:00.000Z"))
        // Two dumps of that log: the sources table names their clock as what it is.
        let two = Analyzer().analyze(files: [
            ("access.log", Self.accessLog(zone: -5 * 3600)), ("access-again.log", Self.accessLog(zone: -5 * 3600)),
        ])
        let table = MarkdownReporterProbe.render(two)
        #expect(table.contains("| reference | device local, zone unknown |"))
        #expect(!table.contains("device local, aligned"))
    }
}

/// The real iPadOS session dumped three times (`shared/corpus/real-world/access-log/srg-…`,
/// FB22519249): every row counted once, the folding said in a diagnostic.
@Suite struct RepeatedAccessLogDumpTests {
    @Test func threeDumpsOfOneSessionCountEachRowOnce() throws {
        let dir =
            TestPaths.repository.deletingLastPathComponent().appendingPathComponent(
                "shared/corpus/real-world/access-log/"
            ).path + "/"
        let names = [
            "srg-fb22519249-log_before_audio_switch.log", "srg-fb22519249-log_after_first_audio_switch.log",
            "srg-fb22519249-log_after_second_audio_switch.log",
        ]
        let files = try names.map { ($0, Array(try String(contentsOfFile: dir + $0, encoding: .utf8).utf8)) }
        let once = Analyzer().analyze(files: [files[2]])
        let thrice = Analyzer().analyze(files: files)
        let a = try #require(once.sessions.first?.session.kpis)
        let b = try #require(thrice.sessions.first?.session.kpis)
        #expect(thrice.sessions.count == 1)
        #expect(b.playingTime == a.playingTime)
        #expect(b.stallCount == a.stallCount)
        #expect(b.variantSwitchCount == a.variantSwitchCount)
        #expect(thrice.diagnostics.contains { $0.message.contains("dumped 3 times") })
    }
}

/// The seed 404 story from AVPlayer's access and error logs alone, as a report.
@Suite struct AccessAndErrorLogOnlyReportTests {
    @Test func theChartMarksTheStallWithoutClaimingADurationAndShowsTheErrors() {
        let files = ExampleFixtures.cdn404Logs(stallsInLowerRow: 1).map { ($0.name, Array($0.text.utf8)) }
        let markdown = MarkdownReporterProbe.render(Analyzer().analyze(files: files))
        #expect(markdown.contains("    1 stall in this row time unknown :crit, milestone, "))
        #expect(!markdown.contains("    stall :crit, "))
        // Three error marks in each chart (the overview, and the close-up when there is one).
        let charts = markdown.components(separatedBy: "#### Close-up of the findings")
        for chart in charts { #expect(chart.components(separatedBy: "    HTTP 404 s7").count - 1 == 3) }
        // One story: the KPI table, the verdict and the findings say the same.
        #expect(markdown.contains("| Stalls | 1 (duration unknown) | access-log |"))
        #expect(markdown.contains("| Errors | 3 | timeline |"))
        #expect(markdown.contains("1 stall, 1 variant switch, 3 errors"))
        #expect(!markdown.contains("No problem found"))
    }
}
