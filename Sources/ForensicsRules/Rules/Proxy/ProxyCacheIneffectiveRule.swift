import ForensicsCore

/// `proxy-cache-ineffective`: the same byte ranges downloaded from the origin more than once in a
/// session.
public struct ProxyCacheIneffectiveRule: Rule {
    public struct Options: Codable, Sendable, Equatable {
        public var minimumRepeats: Double = 2
        enum CodingKeys: String, CodingKey { case minimumRepeats = "minimum-repeats" }
    }

    public static let defaultOptions = Options()
    public static let optionDocs = ["minimum-repeats": "downloads of the same URL and range that make a finding (2)"]
    public let options: Options
    public init(options: Options) { self.options = options }

    public static let description = RuleDescription(
        identifier: "proxy-cache-ineffective", name: "Proxy Cache Ineffective",
        summary: "The same byte ranges were downloaded from the network more than once in a session: the cache was not reused.",
        rationale: """
            A caching proxy that downloads the same bytes twice costs the viewer data and time: the \
            cache may be too small (evicted), keyed by a URL that changes (tokens in the query), or \
            disabled for that content.
            """,
        kind: .proxy, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "the same range fetched twice",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request ◀
                        request : <KTVHCDataRequest: 0x280d2c780>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        Count : 1
                        2026-11-21 10:05:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        request : <KTVHCDataRequest: 0x280d2c990>
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        Count : 1
                        """)
                ]),
            RuleExample(
                "three downloads of the whole file",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request ◀
                        URL : https://media.example.com/vod/a.mp4
                        headers : {
                            Range = "bytes=0-";
                        }
                        2026-11-21 10:01:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/a.mp4
                        headers : {
                            Range = "bytes=0-";
                        }
                        2026-11-21 10:02:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/a.mp4
                        headers : {
                            Range = "bytes=0-";
                        }
                        """)
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: adjacent ranges of the same file",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        2026-11-21 10:00:03 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=1048576-2097151";
                        }
                        """)
                ]),
            RuleExample(
                "a second play served from the cache",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Add Request
                        URL : https://media.example.com/vod/clip-042.mp4
                        headers : {
                            Range = "bytes=0-1048575";
                        }
                        2026-11-21 10:05:01 +0000  KTVHCDataFileSource     :   0x2805d8e80, Create file source
                        path : /var/mobile/Documents/KTVHTTPCache/d4/d4_0_0
                        range : Range : {0, 1048575}
                        readRange : Range : {0, 1048575}
                        """)
                ]),
        ])

    public func findings(in session: Session) -> [Finding] {
        var groups: [String: [TimelineEntry]] = [:]
        var order: [String] = []
        for item in session.proxyEntries where item.event.kind == .downloadRequest {
            guard let url = item.event.url else { continue }
            let key = URLCanonicalizer.withoutQuery(url) + " " + (item.event.range?.description ?? "all")
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(item.entry)
        }
        return order.compactMap { key in
            guard let list = groups[key], Double(list.count) >= options.minimumRepeats else { return nil }
            return finding(
                start: list.first?.time, end: list.last?.time,
                title: "Downloaded \(key) from the origin \(list.count) times",
                details: ["resource": .string(key), "downloads": .integer(list.count)],
                evidence: list.map(Finding.Evidence.init),
                advice: "Check that the cache key is stable (strip changing query tokens with a URL converter), that the cache is large enough not to evict what is replayed, and that the first download completed.")
        }
    }
}
