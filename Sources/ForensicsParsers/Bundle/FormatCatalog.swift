import ForensicsCore

/// Each input format, declared with sample lines and what they must yield (after lnav's format
/// definitions): `playback-forensics formats` prints them and one generic test checks them.
public struct FormatDescription: Sendable {
    public struct Sample: Sendable {
        public var text: String
        /// Record summaries must contain these, in order (one per expected record).
        public var expectedSummaries: [String]
    }

    public var format: InputFormat
    public var summary: String
    public var samples: [Sample]
}

public enum FormatCatalog {
    public static let all: [FormatDescription] = [
        FormatDescription(
            format: .metricEvents,
            summary: "AVMetrics events serialized as JSON (JSON Lines, an array, or {\"events\": [...]}); see shared/spec/metric-event-dump.md.",
            samples: [
                .init(
                    text: #"""
                        {"type":"AVMetricHLSPlaylistRequestEvent","date":"2026-11-21T10:00:00.120Z","sessionID":"S1","url":"https://cdn.example.com/a/master.m3u8","isMultivariantPlaylist":true,"mediaResourceRequestEvent":{"url":"https://cdn.example.com/a/master.m3u8","requestStartTime":"2026-11-21T10:00:00.020Z","responseEndTime":"2026-11-21T10:00:00.120Z","networkTransactionMetrics":{"transactionMetrics":[{"response":{"statusCode":200,"headers":{}}}]}}}
                        {"type":"AVMetricPlayerItemStallEvent","date":"2026-11-21T10:07:31.002Z","mediaTime":{"value":451000,"timescale":1000},"sessionID":"S1","rate":0,"previousRate":1}
                        """#,
                    expectedSummaries: ["multivariant-playlist request https://cdn.example.com/a/master.m3u8 → 200 in 0.1 s", "stall rate 0 at media time 451 s"])
            ]),
        FormatDescription(
            format: .accessLog,
            summary: "AVPlayerItemAccessLog extendedLogData (W3C extended log format, #Fields driven).",
            samples: [
                .init(
                    text: """
                        #Version: 1.0
                        #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
                        #Date: 2026/11/21 10:00:00.000
                        #Fields: date time uri cs-guid s-ip c-observed-bitrate sc-indicated-bitrate c-stalls c-duration-watched c-startup-time
                        2026/11/21 10:00:02.002 https://cdn.example.com/a/v20/index.m3u8 6C1D0F0B-5A8E-4E0B-9E53-2F1C8B7A9D10 203.0.113.7 25000000.000 20000000 0 120.500 1.920
                        """,
                    expectedSummaries: ["access log: https://cdn.example.com/a/v20/index.m3u8 observed 25 Mbit/s"])
            ]),
        FormatDescription(
            format: .errorLog,
            summary: "AVPlayerItemErrorLog extendedLogData (W3C extended log format; quoted domain and comment).",
            samples: [
                .init(
                    text: """
                        #Version: 1.0
                        #Fields: date time uri cs-guid s-ip status domain comment cs-iftype
                        2026/04/15 15:13:30.030 https://host/path/seg42.m4s 2D5C8F04-9F34-40F2-AA06-758CE4EC3643 203.0.113.7 -12938 "CoreMediaErrorDomain" "HTTP 404: File Not Found" -
                        """,
                    expectedSummaries: ["error log: CoreMediaErrorDomain -12938: HTTP 404: File Not Found https://host/path/seg42.m4s"])
            ]),
        FormatDescription(
            format: .cacheLog,
            summary: "KTVHTTPCache full-path log, record-log file or console (1.x–3.x); see shared/spec/ktvhttpcache-log.md.",
            samples: [
                .init(
                    text: """
                        2025-07-01 08:15:02 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2025-07-01 08:15:02 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                        URL : https://media.example.com/vod/clip-042.mp4
                        2018-12-13 12:58:33.143627+0800 iSmartLBS[37685:1519576] <KTVHCDataSourceManager: 0x283465d60>  :   alloc
                        """,
                    expectedSummaries: [
                        "proxy KTVHCHTTPServer: Start server success", "proxy KTVHCHTTPConnection: Accept request",
                        "proxy KTVHCDataSourceManager: alloc",
                    ])
            ]),
        FormatDescription(
            format: .playlist,
            summary: "HLS playlist (RFC 8216 and draft), multivariant or media, raw or gzip.",
            samples: [
                .init(
                    text: """
                        #EXTM3U
                        #EXT-X-TARGETDURATION:6
                        #EXTINF:6.0,
                        s1.ts
                        #EXT-X-ENDLIST
                        """,
                    expectedSummaries: ["media playlist  with 1 segments"])
            ]),
        FormatDescription(
            format: .har,
            summary: "HTTP Archive 1.2 (.har, .har.gz) from proxies and browsers; playlist bodies are parsed too.",
            samples: [
                .init(
                    text: #"""
                        {"log":{"version":"1.2","creator":{"name":"sample","version":"1"},"entries":[
                        {"startedDateTime":"2026-11-21T10:00:00.000Z","time":120,"request":{"method":"GET","url":"https://cdn.example.com/a/v1/s1.ts","headers":[{"name":"X-Playback-Session-Id","value":"S1"}]},"response":{"status":404,"headers":[],"content":{"size":0,"mimeType":"text/html"}},"timings":{"wait":100,"receive":20}}
                        ]}}
                        """#,
                    expectedSummaries: ["segment request https://cdn.example.com/a/v1/s1.ts → 404 in 0.12 s"])
            ]),
    ]

    public static func description(of format: InputFormat) -> FormatDescription? {
        all.first { $0.format == format }
    }
}
