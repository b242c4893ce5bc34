import ForensicsCore

/// `proxy-unreachable`: the local proxy failed to start, was restarted mid-session, or the
/// player's requests to it could not connect.
public struct ProxyUnreachableRule: Rule {
    public let options: NoOptions
    public init(options: NoOptions) { self.options = options }

    public static let description = RuleDescription(
        identifier: "proxy-unreachable", name: "Proxy Unreachable",
        summary: "The player's requests to the local caching proxy failed, or the proxy was (re)started mid-session.",
        rationale: """
            KTVHTTPCache's listening socket is known to die silently after the screen locks: the app \
            notices only when its foreground ping fails and restarts the server. Until then every \
            request to the proxy fails and playback stalls or errors.
            """,
        kind: .proxy, defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "the foreground ping finds the server dead and restarts it",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                        URL : https://media.example.com/vod/clip-042.mp4
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, ping server
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success ◀
                        """)
                ]),
            RuleExample(
                "restarting the server fails",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, ping server
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, restart server error Error Domain=NSPOSIXErrorDomain Code=48 "Address already in use" ◀
                        """)
                ]),
            RuleExample(
                "the player cannot connect to localhost",
                timeline: """
                    0.000 multivariant http://localhost:52814/https%3A%2F%2Fcdn%2Eexample%2Ecom%2Fa%2Fmaster%2Em3u8/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.m3u8 - 0.010 error=-1004 ◀
                    """),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "one start, requests served",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                        URL : https://media.example.com/vod/clip-042.mp4
                        """)
                ]),
            RuleExample(
                "near miss: a foreground ping that succeeds (no restart)",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, ping server
                        2026-11-21 10:20:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                        URL : https://media.example.com/vod/clip-042.mp4
                        """)
                ]),
        ])

    static let connectionErrors: Set<Int> = [-1004, -1005, -1001, -1009, -1003, -1200]

    public func findings(in session: Session) -> [Finding] {
        // By timeline index: proxy events and the player's requests are gathered in two passes,
        // and the finding's interval and evidence must follow the timeline, not the passes.
        var evidence: [(index: Int, entry: TimelineEntry)] = []
        var reasons: [String] = []
        var starts = 0
        var pinged = false
        for item in session.proxyEntries {
            switch item.event.kind {
            case .serverStart:
                starts += 1
                if starts > 1 {
                    evidence.append((item.index, item.entry))
                    reasons.append(pinged ? "the server was restarted after a foreground ping" : "the server was started again mid-session")
                }
            case .serverPing:
                pinged = true
            case .serverStartFailed, .serverRestartFailed:
                evidence.append((item.index, item.entry))
                reasons.append("the server failed to (re)start" + (item.event.error.map { ": \($0.shortText)" } ?? ""))
            case .serverRestart:
                evidence.append((item.index, item.entry))
                reasons.append("the server was restarted")
            default:
                break
            }
        }
        for item in session.requestEntries {
            let url = item.request.url
            guard url.hasPrefix("http://localhost") || url.hasPrefix("http://127.0.0.1"),
                let code = item.request.error?.code, Self.connectionErrors.contains(code)
            else { continue }
            evidence.append((item.index, item.entry))
            reasons.append("the player could not reach the proxy (NSURLErrorDomain \(code))")
        }
        evidence.sort { $0.index < $1.index }
        guard let first = evidence.first?.entry else { return [] }
        let unique = reasons.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return [
            finding(
                start: first.time, end: evidence.last?.entry.time,
                title: "Local caching proxy unreachable: \(unique.joined(separator: "; "))",
                details: ["incidents": .integer(evidence.count), "reasons": .strings(unique)],
                evidence: evidence.map { Finding.Evidence($0.entry) },
                advice: "Ping the proxy when the app returns to the foreground and restart it on failure before resuming playback; fall back to the origin URL while the proxy is down.")
        ]
    }
}
