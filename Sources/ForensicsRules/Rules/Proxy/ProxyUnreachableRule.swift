import ForensicsCore

/// `proxy-unreachable`: the local proxy failed to start, was restarted mid-session, or the
/// player's requests to it could not connect.
package struct ProxyUnreachableRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
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
                    .init(
                        "KTVHTTPCache.log",
                        """
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
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, ping server
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, restart server error Error Domain=NSPOSIXErrorDomain Code=48 "Address already in use" ◀
                        """)
                ]),
            RuleExample(
                "2.x: stopped in the background, restarted in the foreground, the player's error log shows -1004 on proxy URLs",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2019-05-02 10:59:00.120311+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2019-05-02 11:10:00.004512+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, enter background and stop server
                        2019-05-02 11:20:00.000932+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, enter foreground
                        2019-05-02 11:20:00.001044+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, restart server
                        2019-05-02 11:20:00.002291+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        """),
                    .init(
                        "error.log",
                        """
                        #Version: 1.0
                        #Software: AppleCoreMedia/1.0.0.16E227 (iPhone; U; CPU OS 12_2 like Mac OS X; en_us)
                        #Date: 2019/05/02 11:19:58.058
                        #Fields: date time uri cs-guid s-ip status domain comment cs-iftype
                        2019/05/02 11:19:58.058 http://localhost:80/request.m3u8?url=https%3A%2F%2Fcdn.example.com%2Flive%2Fmaster.m3u8 9A1E44C2-7D3B-4C55-8E21-0F6A2B9C1D88 127.0.0.1 -1004 "NSURLErrorDomain" "Could not connect to the server." en0 ◀
                        """),
                ]),
            RuleExample(
                "the proxy received every request and dropped the connection (-1005)",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Receive request
                        method : GET
                        path : /https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fvod%2Fclip%2Emp4/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.mp4
                        URL : /https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fvod%2Fclip%2Emp4/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.mp4 -- http://localhost:52814/
                        """),
                    .init(
                        "clip.timeline",
                        """
                        1.000 segment http://localhost:52814/https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fvod%2Fclip%2Emp4/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.mp4 - 0.500 error=-1005 ◀
                        """),
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
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                        URL : https://media.example.com/vod/clip-042.mp4
                        """)
                ]),
            RuleExample(
                "near miss: 2.x stopped in the background and restarted in the foreground, the player's requests then served",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2019-05-02 10:59:00.120311+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2019-05-02 11:10:00.004512+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, enter background and stop server
                        2019-05-02 11:20:00.000932+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, enter foreground
                        2019-05-02 11:20:00.001044+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, restart server
                        2019-05-02 11:20:00.002291+0200 Player[412:9003] KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2019-05-02 09:20:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Receive request
                        method : GET
                        path : /request.mp4?url=https%3A%2F%2Fmedia.example.com%2Fvod%2Fclip.mp4
                        URL : /request.mp4?url=https%3A%2F%2Fmedia.example.com%2Fvod%2Fclip.mp4 -- http://localhost:80/
                        """)
                ]),
            RuleExample(
                "near miss: a foreground ping that succeeds (no restart)",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, Start server success
                        2026-11-21 10:20:00 +0000  KTVHCHTTPServer         :   0x2811c4f60, ping server
                        2026-11-21 10:20:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                        URL : https://media.example.com/vod/clip-042.mp4
                        """)
                ]),
        ])

    /// What a player's error on a proxy URL says happened.
    static func reason(forCode code: Int) -> (text: String, dropped: Bool)? {
        switch code {
        case -1004: ("the player could not connect to the proxy (NSURLErrorDomain -1004)", false)
        case -1005: ("the proxy dropped the player's connection (NSURLErrorDomain -1005)", true)
        case -1001: ("the proxy did not answer the player in time (NSURLErrorDomain -1001)", true)
        case -1003, -1009: ("the player could not reach the proxy (NSURLErrorDomain \(code))", false)
        default: nil
        }
    }

    static func isProxyURL(_ url: String) -> Bool {
        url.hasPrefix("http://localhost") || url.hasPrefix("http://127.0.0.1") || url.hasPrefix("http://[::1]")
    }

    package func findings(in session: Session) -> [Finding] {
        // By timeline index: proxy events and the player's failures are gathered in two passes,
        // and the finding's interval and evidence must follow the timeline, not the passes.
        var evidence: [Int] = []
        var reasons: [String] = []
        var context: [Int] = []
        var starts = 0
        var pinged = false
        var stopped = false
        var requestsArrived = false
        // The proxy itself was down or restarted (as opposed to dropping connections it had).
        var serverIncident = false
        for item in session.proxyEntries {
            switch item.value.kind {
            case .serverStart:
                starts += 1
                if starts > 1, !stopped {
                    evidence.append(item.index)
                    reasons.append(
                        pinged
                            ? "the server was restarted after a foreground ping found it dead"
                            : "the server was started again mid-session")
                    serverIncident = true
                } else if stopped {
                    context.append(item.index)
                }
                stopped = false
                pinged = false
            case .serverPing:
                pinged = true
            case .serverPingFailed:
                evidence.append(item.index)
                reasons.append("the server's health ping failed")
                serverIncident = true
            case .serverStartFailed, .serverRestartFailed:
                evidence.append(item.index)
                reasons.append("the server failed to (re)start" + (item.value.error.map { ": \($0.shortText)" } ?? ""))
                serverIncident = true
            case .serverRestart:
                if stopped {
                    // 2.x: stopped in the background, restarted in the foreground — by design, an
                    // incident only when the player's requests failed meanwhile.
                    context.append(item.index)
                } else {
                    evidence.append(item.index)
                    reasons.append("the server was restarted")
                    serverIncident = true
                }
            case .serverStop:
                stopped = true
                context.append(item.index)
            case .appForeground, .appBackground:
                context.append(item.index)
            case .connectionRequest, .acceptRequest:
                requestsArrived = true
            default:
                break
            }
        }
        var playerFailures = 0
        var dropped = 0
        for f in session.analysis.failures {
            guard let url = f.url, Self.isProxyURL(url), let code = f.error?.code,
                let reason = Self.reason(forCode: code)
            else { continue }
            evidence.append(f.index)
            playerFailures += 1
            if reason.dropped { dropped += 1 }
            reasons.append(
                reason.text
                    + (reason.dropped && requestsArrived ? " although the proxy log shows the requests arriving" : ""))
        }
        guard !evidence.isEmpty else { return [] }
        if playerFailures > 0 {
            evidence.append(contentsOf: context)
            if context.contains(where: { session.entries[$0].record.proxyEvent?.kind == .serverStop }) {
                reasons.append("the server had been stopped in the background and restarted in the foreground")
            }
        }
        let indices = Array(Set(evidence)).sorted()
        guard let first = indices.first, let last = indices.last else { return [] }
        let unique = reasons.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let onlyDropped = playerFailures > 0 && dropped == playerFailures && !serverIncident
        let headline =
            onlyDropped ? "Local caching proxy dropped the player's connections" : "Local caching proxy unreachable"
        return [
            finding(
                start: session.entries[first].time, end: session.entries[last].time,
                title: "\(headline): \(unique.joined(separator: "; "))",
                details: [
                    "incidents": .integer(indices.count), "player_failures": .integer(playerFailures),
                    "reasons": .strings(unique),
                ],
                evidence: indices.prefix(30).map { Finding.Evidence(session, $0) },
                advice: onlyDropped
                    ? "The proxy accepted the requests and then closed them: look at the proxy log around these times for a response failure or an origin error, and keep the proxy running while the app is in the background during playback."
                    : "Ping the proxy when the app returns to the foreground and restart it on failure before resuming playback; fall back to the origin URL while the proxy is down."
            )
        ]
    }
}
