import ForensicsCore
import PlaybackForensics
import Testing

/// Folding a proxy log's per-chunk lines changes how many records there are, never what the
/// rules conclude: the same downloads logged with every chunk line in a run of its own (a line
/// the linker skips after each chunk ends the run) give the same finding with the same bytes.
@Suite struct ProxyChatterFoldEquivalenceTests {
    static let url = "https://media.example.com/vod/clip-7.mp4"

    /// Two downloads of the same 2 MiB through the proxy (2.x formats), the unit deleted in
    /// between; `separate` puts a health-ping line after every chunk line.
    static func log(separate: Bool) -> String {
        var lines: [String] = []
        func t(_ s: Int) -> String { String(format: "2026-11-21 10:%02d:%02d +0000", s / 60, s % 60) }
        func download(source: String, request: String, at second: Int) {
            let length = 2 * 1_048_576
            lines += [
                "\(t(second))  KTVHCHTTPConnection     :   0x281a0\(request.suffix(3)), Receive request",
                "URL : /request.mp4?url=https%3A%2F%2Fmedia.example.com%2Fvod%2Fclip-7.mp4",
                "\(t(second))  KTVHCDataRequest        :   \(request), Create data request",
                "URL : \(url)", "Headers : {", "    \"X-Playback-Session-Id\" = \"FOLD-SESSION\";", "}",
                "\(t(second))  KTVHCDataNetworkSource  :   \(source), Create network source",
                "request : <KTVHCDataRequest: \(request)>", "range : Range : {0, \(length - 1)}",
                "\(t(second))  KTVHCDownload           :   0x2804f1e30, Add Request",
                "request : <KTVHCDataRequest: \(request)>", "URL : \(url)", "headers : {",
                "    Range = \"bytes=0-\(length - 1)\";", "}",
            ]
            let chunks = length / 16384
            for k in 1...chunks {
                let s = t(second + k * 8 / chunks)
                let chunk = [
                    [
                        "\(s)  KTVHCDownload           :   0x2804f1e30, Receive data - Begin", "Length : 16384",
                        "URL : \(url)",
                    ],
                    ["\(s)  KTVHCDataNetworkSource  :   \(source), Receive data : 16384, \(k * 16384), \(length)"],
                    [
                        "\(s)  KTVHCDownload           :   0x2804f1e30, Receive data - End", "Length : 16384",
                        "URL : \(url)",
                    ],
                    ["\(s)  KTVHCHTTPResponse       :   0x283c9\(request.suffix(4)), Read data : 16384"],
                ]
                for entry in chunk {
                    lines += entry
                    if separate { lines.append("\(s)  KTVHCHTTPServer         :   0x2800aa000, ping server") }
                }
            }
            lines.append("\(t(second + 8))  KTVHCDataNetworkSource  :   \(source), Complete and finisehed")
        }
        download(source: "0x2835e8c60", request: "0x280d2c780", at: 5)
        lines += [
            "\(t(200))  KTVHCDataUnit           :   0x2839a0b40, Delete Unit", "Unit : <KTVHCDataUnit: 0x2839a0b40>",
        ]
        download(source: "0x2835e9d10", request: "0x280d2c990", at: 300)
        return lines.joined(separator: "\n") + "\n"
    }

    static func analyze(separate: Bool) -> (finding: Finding?, records: Int) {
        let report = Analyzer().analyze(files: [("KTVHTTPCache.log", Array(log(separate: separate).utf8))])
        let finding = report.sessions.flatMap(\.findings).first { $0.ruleID == "proxy-cache-ineffective" }
        return (finding, report.inputs.reduce(0) { $0 + $1.records })
    }

    @Test func foldingChangesTheRecordsNotTheFinding() throws {
        let folded = Self.analyze(separate: false)
        let apart = Self.analyze(separate: true)
        let a = try #require(folded.finding)
        let b = try #require(apart.finding)
        #expect(a.details["bytes_received"] == b.details["bytes_received"])
        #expect(a.details["bytes_received_again"] == b.details["bytes_received_again"])
        #expect(a.details["bytes_received_again"] == .integer(2 * 1_048_576))
        #expect(a.title == b.title)
        // Folded: a few records a download; apart: one a chunk line (and the pings).
        #expect(folded.records < 40 && apart.records > 1000)
    }
}
