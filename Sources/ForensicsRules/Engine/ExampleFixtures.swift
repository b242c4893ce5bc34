import ForensicsCore

/// Builders for rule examples in the formats users actually send: AVPlayer access and error logs
/// (`extendedLogData()`, W3C extended log format with Apple's 24 access-log and 9 error-log
/// columns, see `shared/spec/avplayer-access-log.md`) and HAR 1.2 captures. Times are seconds
/// after 2026-11-21 10:00:00 (device local time for the logs, UTC for the HAR).
package enum ExampleFixtures {
    package static let sessionGUID = "6C1D0F0B-4E2A-4F7B-9C1D-0A1B2C3D4E5F"

    static let accessFields = """
        date time uri cs-guid s-ip s-ip-changes sc-count c-duration-downloaded c-start-time c-duration-watched \
        bytes c-observed-bitrate sc-indicated-bitrate c-stalls c-frames-dropped c-startup-time c-overdue c-reason \
        c-observed-min-bitrate c-observed-max-bitrate c-observed-bitrate-sd s-playback-type sc-wwan-count c-switch-bitrate
        """

    /// `#Date` is when the app wrote the log out: after every row of the examples (an hour past
    /// their base time), as Apple's writer dates it.
    static func header(_ fields: String) -> String {
        """
        #Version: 1.0
        #Software: AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)
        #Date: 2026/11/21 11:00:00.000
        #Fields: \(fields)
        """
    }

    /// `2026/11/21 10:07:24.024`: Apple's form, the "fraction" repeating the seconds.
    static func stamp(_ seconds: Int) -> String {
        let h = 10 + seconds / 3600
        let m = (seconds / 60) % 60
        let s = seconds % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "2026/11/21 \(two(h)):\(two(m)):\(two(s)).0\(two(s))"
    }

    static func decimal(_ v: Double) -> String { NumberFormat.trimmed(v, decimals: 3) }

    /// One access-log row: a period of playing `uri`, starting `at` seconds.
    package static func accessRow(
        at seconds: Int, uri: String, watched: Double, observed: Double, indicated: Double, stalls: Int = 0,
        startup: Double? = nil, requests: Int = 10, anchor: Bool = false
    ) -> String {
        let bytes = Int(observed * watched / 8)
        return [
            stamp(seconds), uri, sessionGUID, "203.0.113.7", "0", String(requests), decimal(watched), "0",
            decimal(watched),
            String(bytes), decimal(observed), String(Int(indicated)), String(stalls), "0", startup.map(decimal) ?? "-",
            "0", "-",
            decimal(observed * 0.8), decimal(observed * 1.2), "-", "VOD", "0", String(Int(indicated)),
        ].joined(separator: " ") + (anchor ? " \(RuleExample.anchorMarker)" : "")
    }

    /// One error-log row.
    package static func errorRow(
        at seconds: Int, uri: String, status: Int = -12938, comment: String = "HTTP 404: File Not Found",
        anchor: Bool = false
    ) -> String {
        "\(stamp(seconds)) \(uri) \(sessionGUID) 203.0.113.7 \(status) \"CoreMediaErrorDomain\" \"\(comment)\" en0"
            + (anchor ? " \(RuleExample.anchorMarker)" : "")
    }

    /// A live stream that stopped advancing, as AVPlayer's own logs tell it: a LIVE access log
    /// whose second row counts a stall, and three error-log rows "Playlist File unchanged for
    /// longer than 1.5 * target duration" (-12888) on the media playlist before it.
    package static func staleLiveLogs(anchor: Bool) -> [RuleExample.File] {
        let playlist = "https://cdn.example.com/live/v5/index.m3u8"
        let access = accessLog([
            accessRow(at: 0, uri: playlist, watched: 40, observed: 9_000_000, indicated: 5_000_000, startup: 0.9),
            accessRow(
                at: 60, uri: playlist, watched: 30, observed: 9_000_000, indicated: 5_000_000, stalls: 1,
                anchor: anchor),
        ])
        let comment = "Playlist File unchanged for longer than 1.5 * target duration"
        let errors = errorLog([40, 46, 52].map { errorRow(at: $0, uri: playlist, status: -12888, comment: comment) })
        return [
            RuleExample.File(access.name, access.text.replacingOccurrences(of: " VOD ", with: " LIVE ")), errors,
        ]
    }

    /// One error-log row of a live playlist that stopped advancing (-12888) at 40 s: a near miss
    /// for the console rules (a stall cause, neither a parse error nor a start point).
    package static func staleLivePlaylistRow() -> RuleExample.File {
        errorLog([
            errorRow(
                at: 40, uri: "https://cdn.example.com/live/v5/index.m3u8", status: -12888,
                comment: "Playlist File unchanged for longer than 1.5 * target duration")
        ])
    }

    /// One `log show` line (default style, UTC) `at` seconds after the base time.
    package static func consoleLine(
        at seconds: Double, process: String = "Player", level: String = "Error", _ message: String, anchor: Bool = false
    ) -> String {
        let whole = Int(seconds)
        let micros = Int((seconds - Double(whole)) * 1_000_000)
        let h = 10 + whole / 3600
        let m = (whole / 60) % 60
        let sec = whole % 60
        func pad(_ v: Int, _ width: Int) -> String {
            let t = String(v)
            return String(repeating: "0", count: max(0, width - t.count)) + t
        }
        let type = level + String(repeating: " ", count: max(0, 11 - level.count))
        return
            "2026-11-21 \(pad(h, 2)):\(pad(m, 2)):\(pad(sec, 2)).\(pad(micros, 6))+0000 0x5b21c    \(type) 0x0                  611    0    \(process): \(message)"
            + (anchor ? " \(RuleExample.anchorMarker)" : "")
    }

    /// A `log show` capture (default style) of the given lines.
    package static func console(_ lines: [String]) -> RuleExample.File {
        RuleExample.File(
            "console.log",
            "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
                + lines.joined(separator: "\n"))
    }

    package static func accessLog(_ rows: [String]) -> RuleExample.File {
        RuleExample.File("access.log", header(accessFields) + "\n" + rows.joined(separator: "\n"))
    }

    package static func errorLog(_ rows: [String]) -> RuleExample.File {
        RuleExample.File(
            "error.log",
            header("date time uri cs-guid s-ip status domain comment cs-iftype") + "\n" + rows.joined(separator: "\n"))
    }

    /// One HAR entry: a request started `at` seconds, answered with `status` after `seconds`.
    package struct HAREntry: Sendable {
        var at: Double
        var url: String
        var status: Int
        var seconds: Double
        var bytes: Int
        var body: String?
        var anchor: Bool
        /// `content.size` when it differs from the bytes on the wire (`bodySize`): a capture
        /// that did not keep the body writes 0.
        var contentSize: Int?

        package init(
            at: Double, url: String, status: Int = 200, seconds: Double = 0.05, bytes: Int = 1000, body: String? = nil,
            anchor: Bool = false, contentSize: Int? = nil
        ) {
            self.anchor = anchor
            self.contentSize = contentSize
            self.at = at
            self.url = url
            self.status = status
            self.seconds = seconds
            self.bytes = bytes
            self.body = body
        }
    }

    static func json(_ s: String) -> String { RuleExample.jsonString(s) }

    /// A HAR 1.2 capture (one entry per line, so the record lines are easy to name).
    package static func har(_ entries: [HAREntry]) -> RuleExample.File {
        var lines = [
            "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"Charles Proxy\", \"version\": \"4.6\"}, \"entries\": ["
        ]
        for (i, e) in entries.enumerated() {
            let started = Timestamp(RuleExample.baseTime + e.at).iso8601
            let ms = NumberFormat.trimmed(e.seconds * 1000, decimals: 1)
            let type = e.url.contains(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp4"
            let content = e.body.map { ", \"text\": \(json($0))" } ?? ""
            lines.append(
                "{\"startedDateTime\": \"\(started)\", \"time\": \(ms), "
                    + "\"request\": {\"method\": \"GET\", \"url\": \(json(e.url)), \"httpVersion\": \"HTTP/1.1\", \"headers\": [], \"queryString\": [], \"headersSize\": -1, \"bodySize\": 0}, "
                    + "\"response\": {\"status\": \(e.status), \"statusText\": \"\", \"httpVersion\": \"HTTP/1.1\", \"headers\": [{\"name\": \"Content-Type\", \"value\": \"\(type)\"}], "
                    + "\"content\": {\"size\": \(e.contentSize ?? e.bytes), \"mimeType\": \"\(type)\"\(content)}, \"redirectURL\": \"\", \"headersSize\": -1, \"bodySize\": \(e.bytes)}, "
                    + "\"cache\": {}, \"timings\": {\"send\": 0, \"wait\": \(ms), \"receive\": 0}}"
                    + (i + 1 < entries.count ? "," : "") + (e.anchor ? " \(RuleExample.anchorMarker)" : ""))
        }
        lines.append("]}}")
        return RuleExample.File("capture.har", lines.joined(separator: "\n"))
    }

    /// A multivariant playlist listing variants (bandwidth, URI) in order.
    package static func multivariant(_ variants: [(Int, String)]) -> String {
        (["#EXTM3U"] + variants.flatMap { ["#EXT-X-STREAM-INF:BANDWIDTH=\($0.0)", $0.1] }).joined(separator: "\n")
            + "\n"
    }

    /// A media playlist of 6-second segments.
    package static func mediaPlaylist(_ segments: [String]) -> String {
        (["#EXTM3U", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:1"] + segments.flatMap { ["#EXTINF:6.0,", $0] }
            + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }

    /// The record of the seed 404 story a finding must anchor on.
    package enum SeedAnchor: Sendable {
        /// The 404 on the 20 Mbit/s variant (error log).
        case first404
        /// The access-log row at 15 Mbit/s that follows it.
        case lowerRow
    }

    static let seedBase = "https://cdn.example.com/a"

    /// The seed story as AVPlayer's own logs: 444 s at 20 Mbit/s, a 404 on its segment, a new
    /// access-log row at 15 Mbit/s one second later (counting `stalls`), two more 404s on it.
    package static func cdn404Logs(stallsInLowerRow stalls: Int, anchor: SeedAnchor? = nil) -> [RuleExample.File] {
        [
            accessLog([
                accessRow(
                    at: 0, uri: "\(seedBase)/v20/index.m3u8", watched: 444, observed: 110_000_000,
                    indicated: 20_000_000, startup: 0.89),
                accessRow(
                    at: 445, uri: "\(seedBase)/v15/index.m3u8", watched: 150, observed: 98_000_000,
                    indicated: 15_000_000,
                    stalls: stalls, anchor: anchor == .lowerRow),
            ]),
            errorLog([
                errorRow(at: 444, uri: "\(seedBase)/v20/s74.m4s", anchor: anchor == .first404),
                errorRow(at: 448, uri: "\(seedBase)/v15/s75.m4s"),
                errorRow(at: 449, uri: "\(seedBase)/v15/s75.m4s"),
            ]),
        ]
    }

    /// The seed story as a proxy capture: the ladder (20 and 15 Mbit/s), two good 20 Mbit/s
    /// segments, a 404 on the third at 12 s, then `after` (what the player asked for next).
    package static func cdn404HAR(anchor404: Bool = false, after: [HAREntry]) -> RuleExample.File {
        har(
            [
                HAREntry(
                    at: 0, url: "\(seedBase)/master.m3u8",
                    body: multivariant([(20_000_000, "v20/index.m3u8"), (15_000_000, "v15/index.m3u8")])),
                HAREntry(at: 0.2, url: "\(seedBase)/v20/index.m3u8", body: cdn404VariantPlaylist),
                HAREntry(at: 0.4, url: "\(seedBase)/v20/s1.m4s", seconds: 0.5, bytes: 15_000_000),
                HAREntry(at: 6.0, url: "\(seedBase)/v20/s2.m4s", seconds: 0.5, bytes: 15_000_000),
                HAREntry(at: 12.0, url: "\(seedBase)/v20/s3.m4s", status: 404, anchor: anchor404),
            ] + after)
    }

    /// A variant's media playlist of the seed HAR.
    package static let cdn404VariantPlaylist = mediaPlaylist(["s1.m4s", "s2.m4s", "s3.m4s", "s4.m4s"])
}
