import ForensicsCore

/// `proxy-cache-ineffective`: bytes of one resource received from the origin more than once in a
/// session — the proxy's cache did not keep or did not reuse what it had downloaded.
package struct ProxyCacheIneffectiveRule: Rule {
    package struct Options: RuleOptions {
        package var minimumRepeats: Int = 2
        /// rules.md: at least 1 MiB downloaded again…
        package var minimumBytesAgain: Int = 1 << 20
        /// …and at least 10 % of what the session downloaded of that resource.
        package var minimumShareAgain: Double = 0.1

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .count(
                    "minimum-repeats", \.minimumRepeats,
                    "how many times the same bytes must have been received from the origin to make a finding"),
                .count(
                    "minimum-bytes-again", \.minimumBytesAgain,
                    "bytes of a resource that must have been received again to make a finding"),
                .ratio(
                    "minimum-share-again", \.minimumShareAgain,
                    "share of what the session received of the resource that must have been received again"),
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "proxy-cache-ineffective", name: "Proxy Cache Ineffective",
        summary:
            "Overlapping byte ranges of one resource were received from the origin more than once in a session: the cache was not reused.",
        rationale: """
            A caching proxy that downloads the same bytes twice costs the viewer data and time: the \
            cache may be too small (the unit was deleted to make room), its pieces failed to merge, \
            it is keyed by a URL that changes (tokens in the query), or it is disabled for that \
            content. Only bytes actually received by downloads that succeeded count, and only \
            when they matter: AVPlayer's `Range: bytes=0-1` probe (any response of 2 bytes or \
            less) followed by the full download is how it starts every file, and a failed or \
            empty retry is no re-download. The ranges are compared by their bytes, not their text.
            """,
        kind: .proxy, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "the same range received twice, the unit deleted in between",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Create network source
                        request : <KTVHCDataRequest: 0x280d2c780>
                        range : Range : {0, 1048575}
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request ◀
                        request : <KTVHCDataRequest: 0x280d2c780>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        Count : 1
                        2026-11-21 10:00:02 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Receive data : 1048576, 1048576, 1048576
                        2026-11-21 10:00:02 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Complete and finisehed
                        2026-11-21 10:04:00 +0000  KTVHCDataUnit           :   0x2839a0b40, Delete Unit
                        Unit : <KTVHCDataUnit: 0x2839a0b40>
                        Func : -[KTVHCDataUnitPool deleteUnitsWithLength:]
                        2026-11-21 10:05:01 +0000  KTVHCDataNetworkSource  :   0x2835e9d10, Create network source
                        request : <KTVHCDataRequest: 0x280d2c990>
                        range : Range : {0, 2097151}
                        2026-11-21 10:05:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        request : <KTVHCDataRequest: 0x280d2c990>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-2097151";
                        }
                        Count : 1
                        2026-11-21 10:05:02 +0000  KTVHCDataNetworkSource  :   0x2835e9d10, Receive data : 2097152, 2097152, 2097152
                        """)
                ]),
            RuleExample(
                "a 1.0.x log: the whole file downloaded three times",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2018-01-10 09:00:01 +0000  KTVHCDownload           :   add download begin ◀
                        https://media.example.com/vod/a.mp4
                        {
                            Range = "bytes=0-";
                        }
                        2018-01-10 09:00:02 +0000  KTVHCDataNetworkSource  :   receive data, 1048576, 1048576, 1048576
                        2018-01-10 09:01:01 +0000  KTVHCDownload           :   add download begin
                        https://media.example.com/vod/a.mp4
                        {
                            Range = "bytes=0-";
                        }
                        2018-01-10 09:01:02 +0000  KTVHCDataNetworkSource  :   receive data, 1048576, 1048576, 1048576
                        2018-01-10 09:02:01 +0000  KTVHCDownload           :   add download begin
                        https://media.example.com/vod/a.mp4
                        {
                            Range = "bytes=0-";
                        }
                        2018-01-10 09:02:02 +0000  KTVHCDataNetworkSource  :   receive data, 1048576, 1048576, 1048576
                        """)
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: AVPlayer's Range: bytes=0-1 probe, then the full download",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        request : <KTVHCDataRequest: 0x280d2c780>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1";
                        }
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : (null)
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        request : <KTVHCDataRequest: 0x280d2c990>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-8388607";
                        }
                        2026-11-21 10:00:03 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : (null)
                        """)
                ]),
            RuleExample(
                "near miss: a failed attempt that received 2 MiB, then the retry",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-8388607";
                        }
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
                        Length : 2097152
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:00:03 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : Error Domain=NSURLErrorDomain Code=-1005 "The network connection was lost." UserInfo={}
                        2026-11-21 10:00:04 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-8388607";
                        }
                        2026-11-21 10:00:09 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : (null)
                        """)
                ]),
            RuleExample(
                "near miss: 512 KiB received again (under 1 MiB)",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : (null)
                        2026-11-21 10:05:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=524288-1572863";
                        }
                        2026-11-21 10:05:02 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : (null)
                        """)
                ]),
            RuleExample(
                "near miss: adjacent, non-overlapping ranges of the same file",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        request : <KTVHCDataRequest: 0x280d2c780>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
                        Length : 1048576
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:00:03 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        request : <KTVHCDataRequest: 0x280d2c990>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=1048576-2097151";
                        }
                        2026-11-21 10:00:04 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
                        Length : 1048576
                        URL : https://media.example.com/vod/clip-042.mp4
                        """)
                ]),
            RuleExample(
                "near miss: every chunk logged at its Begin and again at its End, then the next range",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
                        Length : 524288
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - End
                        Length : 524288
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
                        Length : 524288
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - End
                        Length : 524288
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:00:03 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=1048576-2097151";
                        }
                        2026-11-21 10:00:04 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin
                        Length : 1048576
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:00:04 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - End
                        Length : 1048576
                        URL : https://media.example.com/vod/clip-042.mp4
                        """)
                ]),
            RuleExample(
                "near miss: four failed attempts that received nothing",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/a.mp4
                        headers : {
                            Range = "bytes=0-1";
                        }
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : Error Domain=NSURLErrorDomain Code=-1001 "The request timed out." UserInfo={}
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/a.mp4
                        headers : {
                            Range = "bytes=0-1";
                        }
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : Error Domain=NSURLErrorDomain Code=-1001 "The request timed out." UserInfo={}
                        2026-11-21 10:00:03 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/a.mp4
                        headers : {
                            Range = "bytes=0-1";
                        }
                        2026-11-21 10:00:03 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : Error Domain=NSURLErrorDomain Code=-1001 "The request timed out." UserInfo={}
                        2026-11-21 10:00:04 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/a.mp4
                        headers : {
                            Range = "bytes=0-1";
                        }
                        2026-11-21 10:00:04 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : Error Domain=NSURLErrorDomain Code=-1001 "The request timed out." UserInfo={}
                        """)
                ]),
            RuleExample(
                "a second play served from the cache",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        2026-11-21 10:00:02 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : (null)
                        2026-11-21 10:05:01 +0000  KTVHCDataFileSource     :   0x2805d8e80, Create file source
                        path : /var/mobile/Documents/KTVHTTPCache/d4/d4_0_0
                        range : Range : {0, 1048575}
                        readRange : Range : {0, 1048575}
                        """)
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        let downloads = ProxyDownloads.received(in: session)
        var byURL: [String: [ProxyDownloads.Download]] = [:]
        var order: [String] = []
        for d in downloads where !d.failed && (d.received ?? 0) > 2 && (d.length.map { $0 > 2 } ?? true) {
            let key = URLCanonicalizer.withoutQuery(d.url)
            if byURL[key] == nil { order.append(key) }
            byURL[key, default: []].append(d)
        }
        var out: [Finding] = []
        for url in order {
            guard let list = byURL[url], list.count > 1 else { continue }
            let overlap = ProxyDownloads.overlap(list)
            let total = list.reduce(Int64(0)) { sum, d in
                let next = sum.addingReportingOverflow(d.received ?? 0)
                return next.overflow ? Int64.max : next.partialValue
            }
            guard overlap.bytes > 0, overlap.depth >= options.minimumRepeats,
                overlap.bytes >= Int64(options.minimumBytesAgain),
                Double(overlap.bytes) >= options.minimumShareAgain * Double(total)
            else { continue }
            let involved = list.filter { overlap.involved.contains($0.index) }
            guard let firstIndex = involved.first?.index, let lastIndex = involved.last?.index else { continue }
            // What happened to the cache in between: units deleted, merges that failed.
            let between = (firstIndex...lastIndex).filter { i in
                guard let k = session.entries[i].record.proxyEvent?.kind else { return false }
                return k == .unitDeleted || k == .unitMergeFailed
            }
            let evidenceIndices = (involved.flatMap(\.indices) + between).sorted()
            var why = ""
            if between.contains(where: { session.entries[$0].record.proxyEvent?.kind == .unitDeleted }) {
                why = "; the cache unit was deleted in between"
            } else if !between.isEmpty {
                why = "; merging the cached pieces failed in between"
            }
            out.append(
                finding(
                    start: session.entries[firstIndex].time, end: session.entries[lastIndex].time,
                    title:
                        "Received \(ByteCountText.text(overlap.bytes)) of \(url) from the origin again (\(involved.count) downloads overlap\(why))",
                    details: [
                        "resource": .string(url), "downloads": .integer(involved.count),
                        "bytes_received_again": .integer(Int(clamping: overlap.bytes)),
                        "times_received": .integer(overlap.depth),
                        "bytes_received": .integer(Int(clamping: total)),
                    ],
                    evidence: evidenceIndices.prefix(30).map { Finding.Evidence(session, $0) },
                    advice:
                        "Check that the cache is large enough not to evict what is replayed (a Delete Unit between the downloads), that the cache key is stable (strip changing query tokens with a URL converter), and that downloads complete and merge."
                ))
        }
        return out
    }
}

/// Bytes as people read them: `512 KiB`, `1.5 MiB`, `800 B`.
enum ByteCountText {
    static func text(_ bytes: Int64) -> String {
        let b = Double(bytes)
        if b >= 1_048_576 { return NumberFormat.trimmed(b / 1_048_576, decimals: 1) + " MiB" }
        if b >= 1024 { return NumberFormat.trimmed(b / 1024, decimals: 1) + " KiB" }
        return "\(bytes) B"
    }
}
