import ForensicsCore

/// `proxy-unplayable-content-type`: the proxy answered with a non-media Content-Type for a URL
/// whose path has no media extension, which AVPlayer refuses.
package struct ProxyUnplayableContentTypeRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "proxy-unplayable-content-type", name: "Proxy Unplayable Content-Type",
        summary:
            "A proxied response with a non-media Content-Type (e.g. application/octet-stream) for a URL without a media path extension.",
        rationale: """
            AVPlayer decides what a resource is from its Content-Type, or from the URL's path \
            extension. A CDN that serves video as application/octet-stream from an extension-less \
            URL makes the item fail to load even though every byte arrives.
            """,
        kind: .proxy, defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "octet-stream for an extension-less URL",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDataResponse       :   0x280f31a40 Create data response ◀
                        URL : https://media.example.com/v/clip42
                        Headers : {
                        \tContent-Type = application/octet-stream;
                        }
                        contentType : application/octet-stream
                        totalLength : 5510872
                        currentLength : 2
                        """)
                ]),
            RuleExample(
                "binary/octet-stream from S3",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDataResponse       :   0x280f31a40 Create data response ◀
                        URL : https://bucket.s3.example.com/videos/8842?sig=abc
                        Headers : {
                        }
                        contentType : binary/octet-stream
                        totalLength : 100
                        currentLength : 100
                        """)
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: octet-stream but the URL ends in .mp4",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDataResponse       :   0x280f31a40 Create data response
                        URL : https://media.example.com/v/clip42.mp4
                        Headers : {
                        }
                        contentType : application/octet-stream
                        totalLength : 5510872
                        currentLength : 2
                        """)
                ]),
            RuleExample(
                "video/mp4",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDataResponse       :   0x280f31a40 Create data response
                        URL : https://media.example.com/v/clip42
                        Headers : {
                        }
                        contentType : video/mp4
                        totalLength : 5510872
                        currentLength : 2
                        """)
                ]),
        ])

    static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "mov", "m4a", "mp3", "aac", "ts", "m4s", "m3u8", "m3u", "mpd", "webm", "wav", "caf", "aif",
        "aiff", "3gp", "vtt", "cmfv", "cmfa", "fmp4", "ac3", "ec3", "flac",
    ]

    package func findings(in session: Session) -> [Finding] {
        var out: [Finding] = []
        var seen: Set<String> = []
        for item in session.proxyEntries where item.event.kind == .dataResponse || item.event.kind == .downloadResponse
        {
            guard let url = item.event.url, let type = item.event.contentType?.lowercased() else { continue }
            let isMedia =
                type.hasPrefix("video/") || type.hasPrefix("audio/") || type.contains("mpegurl")
                || type.hasPrefix("application/mp4") || type.contains("dash+xml")
            guard !isMedia else { continue }
            let path = URLCanonicalizer.withoutQuery(url)
            let last = path.split(separator: "/").last ?? ""
            let ext = last.contains(".") ? String(last.split(separator: ".").last ?? "").lowercased() : ""
            guard !Self.mediaExtensions.contains(ext), seen.insert(path).inserted else { continue }
            out.append(
                finding(
                    start: item.entry.time, end: item.entry.time,
                    title: "Content-Type \(type) for \(url) — AVPlayer cannot tell it is media",
                    details: ["url": .string(url), "content_type": .string(type)],
                    evidence: [item.evidence],
                    subject: Finding.Subject(url: url),
                    advice:
                        "Serve media with its real Content-Type (video/mp4, audio/mp4, application/vnd.apple.mpegurl, video/mp2t), or give the URL a media path extension (the proxy URL keeps it)."
                ))
        }
        return out
    }
}
