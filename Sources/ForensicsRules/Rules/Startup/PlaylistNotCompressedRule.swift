import ForensicsCore

/// `playlist-not-compressed`: a large playlist response served without gzip.
package struct PlaylistNotCompressedRule: Rule {
    package struct Options: RuleOptions {
        package var minimumBytes: Int = 4096

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .bytes("minimum-bytes", \.minimumBytes, "playlist responses larger than this should be compressed")
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
        identifier: "playlist-not-compressed", name: "Playlist Not Compressed",
        summary: "A playlist response of more than 4 KiB was served without Content-Encoding: gzip.",
        rationale: """
            Playlists are text and compress about tenfold. Live playlists are fetched every target \
            duration, so an uncompressed one costs time at startup and on every reload.
            """,
        kind: .startup, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "a 60 KB media playlist without gzip",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100 bytes=2000 encoding=gzip
                    0.150 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.300 bytes=60000 ◀
                    0.600 initial-ltku variant=20M
                    """),
            RuleExample(
                "an uncompressed multivariant playlist",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100 bytes=9000 ◀
                    0.600 initial-ltku variant=20M
                    """),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "compressed playlists",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100 bytes=9000 encoding=gzip
                    0.150 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.300 bytes=60000 encoding=gzip
                    """),
            RuleExample(
                "near miss: a 60 KB playlist whose response headers were not recorded (unknown, not uncompressed)",
                timeline: """
                    0.150 playlist https://cdn.example.com/a/v20/index.m3u8 200 0.300 bytes=60000 headers=none
                    0.600 initial-ltku variant=20M
                    """),
            RuleExample(
                "near miss: a 4000-byte playlist",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100 bytes=4000
                    """),
        ])

    package func findings(in session: Session) -> [Finding] {
        var seen: Set<String> = []
        var hits: [(TimelineEntry, MediaRequest, Int64)] = []
        for item in session.requestEntries
        where item.request.kind == .multivariantPlaylist || item.request.kind == .mediaPlaylist {
            guard let r = session.mergedRequest(item.entry), let bytes = r.bytes, bytes > options.minimumBytes,
                r.status.map({ $0 < 300 }) ?? true
            else { continue }
            // Only a view that recorded the response headers can say "no Content-Encoding": a
            // response whose headers nobody recorded is unknown, not uncompressed; when views
            // disagree, the one that saw the headers wins.
            let views = ([item.entry.record] + item.entry.otherViews).compactMap(\.request)
            let withHeaders = views.filter(Self.recordedHeaders)
            guard !withHeaders.isEmpty else { continue }
            let compressed = withHeaders.contains { v in
                let encoding = (v.contentEncoding ?? "").lowercased()
                return encoding.contains("gzip") || encoding.contains("br") || encoding.contains("deflate")
            }
            guard !compressed else { continue }
            let key = URLCanonicalizer.withoutQuery(r.url)
            guard seen.insert(key).inserted else { continue }
            hits.append((item.entry, r, bytes))
        }
        guard let first = hits.first else { return [] }
        let largest = hits.map(\.2).max() ?? 0
        return [
            finding(
                start: first.0.time, end: hits.last?.0.endTime,
                title:
                    "\(hits.count) playlist\(hits.count == 1 ? "" : "s") over \(options.minimumBytes) bytes served without gzip (largest \(largest) bytes)",
                details: [
                    "playlists": .integer(hits.count), "largest_bytes": .integer(Int(largest)),
                    "urls": .strings(hits.prefix(10).map { $0.1.url }),
                ],
                evidence: hits.prefix(10).map { Finding.Evidence($0.0) },
                subject: Finding.Subject(urls: hits.prefix(10).map { $0.1.url }),
                advice:
                    "Enable gzip (or brotli) compression for application/vnd.apple.mpegurl responses on the origin and CDN."
            )
        ]
    }

    /// True when the source recorded the response's headers (an encoding, or any real header).
    static func recordedHeaders(_ r: MediaRequest) -> Bool {
        r.contentEncoding != nil || !r.responseHeaders.isEmpty
    }
}
