/// What the local caching proxy did in a session, counted once per fact however many of its
/// modules logged it. Shared by the KPIs (`failures`) and the proxy rules, so they agree.
extension Session {
    /// One failed request of the proxy to the origin. KTVHTTPCache reports one failure up to six
    /// times (the download's response check, the network source's callback, the source manager's
    /// `failure, <code>` and its callback, the reader, the HTTP response): they are one incident.
    public struct ProxyOriginFailure: Sendable {
        /// Timeline indices of every entry that reports it, in timeline order.
        public var indices: [Int]
        public var time: Timestamp?
        /// The origin URL, from any entry of the incident or from its request path.
        public var url: String?
        public var status: Int?
        public var error: ErrorInfo?
        public var contentType: String?

        /// `HTTP 404`, the error's domain and code, or `error`.
        public var statusText: String {
            if let status { return "HTTP \(status)" }
            if let error {
                // A code-only report (`failure, -192701`) of the library's own errors names the library.
                let library = error.code.map(ProxyEvent.libraryErrorCodes.contains) ?? false
                let domain = error.domain ?? (library ? "KTVHTTPCache error" : "error")
                return "\(domain) \(error.code.map(String.init) ?? "")".trimmingCharacters(in: " ")
            }
            return "error"
        }
    }

    /// The proxy's failed origin requests, one per incident, in timeline order.
    ///
    /// Entries of one request path (rebuilt from object pointers) are one incident. Entries the
    /// log could not place on a path (an excerpt without the connection's lines, a 1.0.x log
    /// without pointers) join the incident just before them when they follow it within two
    /// seconds and name no other URL or error code.
    public var proxyOriginFailures: [ProxyOriginFailure] {
        var out: [ProxyOriginFailure] = []
        var paths: [Int?] = []
        var byPath: [Int: Int] = [:]
        for (i, e) in entries.enumerated() {
            guard let p = e.record.proxyEvent,
                p.isOriginFailure || p.kind == .sourceManagerFailure || p.isLibraryErrorOfReader
            else { continue }
            let url = p.url ?? p.requestURL
            let status = p.status ?? p.error?.httpStatus
            var target = p.requestPath.flatMap { byPath[$0] }
            if target == nil, let last = out.indices.last, p.requestPath == nil || paths[last] == nil,
                out[last].accepts(url: url, code: p.error?.code, status: status, time: e.time)
            {
                target = last
            }
            // One failed request is told once by each component that saw it (the download's
            // invalid response, the network source's callback, the source manager's failure): the
            // same report again is a second request, however close, even on one path (probe N:
            // KTVHTTPCache's shared download object carried three 503s, counted as one).
            if let t = target, p.isOriginFailure,
                out[t].indices.contains(where: {
                    let q = entries[$0].record.proxyEvent
                    return q?.kind == p.kind && q?.tag == p.tag
                })
            {
                target = nil
                if let path = p.requestPath { byPath[path] = nil }
            }
            let t: Int
            if let target {
                t = target
            } else {
                out.append(
                    ProxyOriginFailure(indices: [], time: nil, url: nil, status: nil, error: nil, contentType: nil))
                paths.append(nil)
                t = out.count - 1
            }
            if let path = p.requestPath, paths[t] == nil || byPath[path] == nil {
                paths[t] = path
                byPath[path] = t
            }
            out[t].indices.append(i)
            if out[t].time == nil { out[t].time = e.time }
            if out[t].url == nil { out[t].url = url }
            if out[t].status == nil { out[t].status = status }
            if out[t].contentType == nil { out[t].contentType = p.contentType }
            // The most telling error: a code with its meaning, then a code, then a description.
            if let err = p.error, Self.rank(err) > (out[t].error.map(Self.rank) ?? -1) {
                out[t].error = err
            }
        }
        return out
    }

    static func rank(_ e: ErrorInfo) -> Int {
        let described = e.description.map { !$0.isEmpty && $0 != "(null)" } ?? false
        return (e.code != nil && e.code != -999 ? 2 : 0) + (described ? 1 : 0)
    }
}

extension Session.ProxyOriginFailure {
    /// Whether a path-less report can be the same failure: close in time, same URL and code when both are named.
    func accepts(url: String?, code: Int?, status: Int?, time: Timestamp?) -> Bool {
        if let a = self.url, let b = url, URLCanonicalizer.withoutQuery(a) != URLCanonicalizer.withoutQuery(b) {
            return false
        }
        if let a = self.status, let b = status, a != b { return false }
        if let a = error?.code, let b = code, a != b { return false }
        if let a = self.time, let b = time, abs(b - a) > 2 { return false }
        return true
    }
}

extension ProxyEvent {
    /// KTVHTTPCache's own error codes (-192700 …, meaning by version).
    public static let libraryErrorCodes = -192799 ... -192700

    /// A reader's failure carrying one of the library's own response errors (1.0.x logs only this:
    /// `record error : Error Domain=KTVHCErrorDomainResponseUnavailable Code=-192700`).
    public var isLibraryErrorOfReader: Bool {
        guard kind == .readerFailed, let code = error?.code else { return false }
        return Self.libraryErrorCodes.contains(code)
    }
}
