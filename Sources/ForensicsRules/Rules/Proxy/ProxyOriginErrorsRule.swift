import ForensicsCore

/// `proxy-origin-errors`: the proxy's network source got HTTP errors from the origin.
public struct ProxyOriginErrorsRule: Rule {
    public let options: NoOptions
    public init(options: NoOptions) { self.options = options }

    public static let description = RuleDescription(
        identifier: "proxy-origin-errors", name: "Proxy Origin Errors",
        summary: "The caching proxy's requests to the origin failed (HTTP errors, rejected responses, transport errors), grouped by status and URL.",
        rationale: """
            Behind a local proxy the player only sees that its request to localhost failed; the \
            proxy log holds the real cause: the origin's status code or the proxy's reason for \
            rejecting the response.
            """,
        kind: .proxy, defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "origin 404 rejected by the proxy",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Invaild response ◀
                        Error : Error Domain=KTVHTTPCache error Code=-192703 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://media.example.com/vod/gone.mp4, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x2837c4a20> { URL: https://media.example.com/vod/gone.mp4 } { Status Code: 404, Headers {
                        } }}
                        """)
                ]),
            RuleExample(
                "origin timeout",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Callback for failed ◀
                        Error : Error Domain=NSURLErrorDomain Code=-1001 "The request timed out." UserInfo={NSErrorFailingURLStringKey=https://media.example.com/vod/slow.mp4}
                        """)
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "origin 206",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Receive response
                        request : <KTVHCDataRequest: 0x280d2c780>
                        HTTPResponse : <NSHTTPURLResponse: 0x2837c4a20> { URL: https://media.example.com/vod/clip-042.mp4 } { Status Code: 206, Headers {
                        } }
                        """)
                ]),
            RuleExample(
                "near miss: a cancelled download (-999) is not an origin error",
                files: [
                    .init("KTVHTTPCache.log", """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : Error Domain=NSURLErrorDomain Code=-999 "cancelled" UserInfo={}
                        """)
                ]),
        ])

    public func findings(in session: Session) -> [Finding] {
        var groups: [String: [(TimelineEntry, ProxyEvent)]] = [:]
        for item in session.proxyEntries {
            let e = item.event
            guard e.isOriginFailure else { continue }
            let status = e.status ?? e.error?.httpStatus
            let label = status.map { "HTTP \($0)" } ?? e.error.map { "\($0.domain ?? "error") \($0.code.map(String.init) ?? "")" } ?? "error"
            let url = e.url ?? "unknown URL"
            groups["\(label)|\(url)", default: []].append((item.entry, e))
        }
        return groups.sorted(by: { $0.key < $1.key }).map { key, list in
            let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
            let detail = list.first?.1.error?.description.map { " (\($0))" } ?? ""
            return finding(
                start: list.first?.0.time, end: list.last?.0.time,
                title: "Origin request failed \(list.count)× with \(parts.first ?? "")\(detail) for \(parts.count > 1 ? parts[1] : "")",
                details: ["status": .string(parts.first ?? ""), "url": .string(parts.count > 1 ? parts[1] : ""), "count": .integer(list.count)],
                evidence: list.prefix(20).map { Finding.Evidence($0.0) },
                advice: "Check the origin for this URL; KTVHTTPCache rejects statuses above 400, unexpected Content-Types and mismatched lengths (see the error's meaning).")
        }
    }
}
