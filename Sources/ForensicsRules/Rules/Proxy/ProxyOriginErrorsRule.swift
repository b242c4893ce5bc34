import ForensicsCore

/// `proxy-origin-errors`: the proxy's network source got HTTP errors from the origin.
package struct ProxyOriginErrorsRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "proxy-origin-errors", name: "Proxy Origin Errors",
        summary:
            "The caching proxy's requests to the origin failed (HTTP errors, rejected responses, transport errors), grouped by status and URL.",
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
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Invaild response ◀
                        Error : Error Domain=KTVHTTPCache error Code=-192703 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://media.example.com/vod/gone.mp4, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x2837c4a20> { URL: https://media.example.com/vod/gone.mp4 } { Status Code: 404, Headers {
                        } }}
                        """)
                ]),
            RuleExample(
                "one origin 404 reported by the download, the network source and the source manager is one failure",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Receive request
                        method : GET
                        path : /https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fvod%2Fgone%2Emp4/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.mp4
                        URL : /https%3A%2F%2Fmedia%2Eexample%2Ecom%2Fvod%2Fgone%2Emp4/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.mp4 -- http://localhost:52814/
                        2026-11-21 10:00:01 +0000  KTVHCHTTPConnection     :   0x2837f0a80, Accept request
                        URL : https://media.example.com/vod/gone.mp4
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Invaild response ◀
                        Error : Error Domain=KTVHTTPCache error Code=-192703 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://media.example.com/vod/gone.mp4, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x2837c4a20> { URL: https://media.example.com/vod/gone.mp4 } { Status Code: 404, Headers {
                        } }}
                        2026-11-21 10:00:01 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Callback for failed
                        Error : Error Domain=KTVHTTPCache error Code=-192703 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://media.example.com/vod/gone.mp4}
                        2026-11-21 10:00:01 +0000  KTVHCDataSourceManager  :   failure, -192703
                        2026-11-21 10:00:01 +0000  KTVHCDataSourceManager  :   0x2836a1b80, Callback for network source failed - Begin
                        Error : Error Domain=KTVHTTPCache error Code=-192703 "(null)" UserInfo={}
                        """)
                ]),
            RuleExample(
                "a 1.0.x origin failure: only the sourcer's code",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2018-01-10 09:00:00 +0000  KTVHCDataSourcer        :   network source failure, -192700 ◀
                        """)
                ]),
            RuleExample(
                "a pasted error dump without a timestamp still names the failure",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        Error : Error Domain=KTVHTTPCache error Code=-192701 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://media.example.com/vod/clip.mp4, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x2837c4a20> { URL: https://media.example.com/vod/clip.mp4 } { Status Code: 206, Headers { ◀
                            "Content-Type" =     (
                                "multipart/form-data"
                            );
                        } }}
                        """)
                ]),
            RuleExample(
                "a 2.x error dump after a reader's teardown entry (the origin answered 200 with a form Content-Type)",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2021-11-24 10:00:00 +0000  KTVHCDataReader         :   0x2813b0a00, Create reader
                        2021-11-24 10:00:01 +0000  KTVHCDataReader         :   0x2813b0a00, Call close ◀
                        Error : Error Domain=KTVHTTPCache error Code=-192701 "(null)" UserInfo={KTVHCErrorUserInfoKeyURL=https://media.example.com/vod/clip.mp4, KTVHCErrorUserInfoKeyResponse=<NSHTTPURLResponse: 0x281fdb340> { URL: https://media.example.com/vod/clip.mp4 } { Status Code: 200, Headers {
                            "Content-Type" =     (
                                "application/x-www-form-urlencoded"
                            );
                        } }}
                        """)
                ]),
            RuleExample(
                "origin timeout",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Callback for failed ◀
                        Error : Error Domain=NSURLErrorDomain Code=-1001 "The request timed out." UserInfo={NSErrorFailingURLStringKey=https://media.example.com/vod/slow.mp4}
                        """)
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "origin 206",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Receive response
                        request : <KTVHCDataRequest: 0x280d2c780>
                        HTTPResponse : <NSHTTPURLResponse: 0x2837c4a20> { URL: https://media.example.com/vod/clip-042.mp4 } { Status Code: 206, Headers {
                        } }
                        """)
                ]),
            RuleExample(
                "near miss: a cancelled download (-999) is not an origin error",
                files: [
                    .init(
                        "KTVHTTPCache.log",
                        """
                        2026-11-21 10:00:01 +0000  KTVHCDownload           :   0x2804f1e30, Complete
                        Error : Error Domain=NSURLErrorDomain Code=-999 "cancelled" UserInfo={}
                        """)
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        // One incident per failed origin request (`Session.proxyOriginFailures`), grouped by what
        // failed and where.
        var groups: [(key: String, failures: [Session.ProxyOriginFailure])] = []
        for f in session.proxyOriginFailures {
            let key = f.statusText + "|" + (f.url.map(URLCanonicalizer.withoutQuery) ?? "")
            if let i = groups.firstIndex(where: { $0.key == key }) {
                groups[i].failures.append(f)
            } else {
                groups.append((key, [f]))
            }
        }
        return groups.map { group in
            let list = group.failures
            let first = list.first
            let label = first?.statusText ?? "error"
            let meaning = list.lazy.compactMap { $0.error?.description }.first(where: { $0 != "(null)" })
            let url = first?.url
            let timed = list.contains { $0.time != nil }
            let times = list.compactMap(\.time)
            let evidence = list.flatMap(\.indices).sorted().prefix(20).map { Finding.Evidence(session, $0) }
            var title = "Origin request failed"
            if list.count > 1 { title += " \(list.count)×" }
            title += " with \(label)" + (meaning.map { " (\($0))" } ?? "")
            title += url.map { " for \($0)" } ?? " (the log does not name the URL)"
            if !timed { title += " — time unknown: the log has no timestamp for it" }
            var details: [String: DetailValue] = [
                "status": .string(label), "count": .integer(list.count), "time_known": .bool(timed),
            ]
            if let url { details["url"] = .string(url) }
            if let meaning { details["meaning"] = .string(meaning) }
            if let type = first?.contentType { details["content_type"] = .string(type) }
            return finding(
                start: times.first, end: times.last, title: title, details: details, evidence: Array(evidence),
                subject: Finding.Subject(status: label, url: url),
                advice:
                    "Check the origin for this URL; KTVHTTPCache rejects error statuses, unexpected Content-Types and mismatched lengths (see the error's meaning)."
            )
        }
    }
}
