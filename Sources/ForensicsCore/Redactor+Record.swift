/// Cleaning as a pipeline stage: every text a record carries — URLs, headers, messages, error
/// descriptions, console lines, the file name in its location — is cleaned once, right after
/// parsing (`clean(_:)`: control and bidi characters made visible always, secrets redacted unless
/// redaction is off), so that everything downstream (correlation, rules, every report, `parse`, `timeline`,
/// triage, JSON) only ever holds the redacted form and is safe by construction.
///
/// Why before correlation: the same secret redacts to the same text in every source, so a
/// request seen by the proxy and by the player still matches; and no writer can forget a field.
extension Redactor {
    /// The record's texts; its location's file name is the caller's (one name serves a file's
    /// records, see `Ingestor`).
    public func clean(_ record: Record) -> Record {
        var r = record
        r.sessionID = r.sessionID.map(clean)
        switch r.payload {
        case .request(let m): r.payload = .request(clean(m))
        case .player(let e): r.payload = .player(clean(e))
        case .error(let e): r.payload = .error(clean(e))
        case .summary(var s):
            s.error = s.error.map(clean)
            r.payload = .summary(s)
        case .accessLog(var a):
            a.uri = a.uri.map(clean)
            a.serverAddress = a.serverAddress.map(clean)
            a.playbackType = a.playbackType.map(clean)
            a.fields = clean(fields: a.fields)
            r.payload = .accessLog(a)
        case .errorLog(let e, let uri): r.payload = .errorLog(clean(e), uri: uri.map(clean))
        case .proxy(let p): r.payload = .proxy(clean(p))
        case .console(var c):
            c.text = clean(c.text)
            c.process = c.process.map(clean)
            c.error = c.error.map(clean)
            r.payload = .console(c)
        case .playlist(var p):
            p.url = p.url.map(clean)
            p.variants = p.variants.map(clean)
            p.segmentURIs = p.segmentURIs.map(clean)
            r.payload = .playlist(p)
        case .unknown(let t): r.payload = .unknown(clean(t))
        }
        return r
    }

    public func clean(_ d: Diagnostic) -> Diagnostic {
        var out = d
        out.location.file = clean(d.location.file)
        out.message = clean(d.message)
        return out
    }

    public func clean(_ e: ErrorInfo) -> ErrorInfo {
        var out = e
        out.domain = e.domain.map(clean)
        out.description = e.description.map(clean)
        return out
    }

    public func clean(_ v: Variant) -> Variant {
        var out = v
        out.url = v.url.map(clean)
        return out
    }

    func clean(_ m: MediaRequest) -> MediaRequest {
        var out = m
        out.url = clean(m.url)
        out.playlistURL = m.playlistURL.map(clean)
        out.serverAddress = m.serverAddress.map(clean)
        out.error = m.error.map(clean)
        out.requestHeaders = clean(headers: m.requestHeaders)
        out.responseHeaders = clean(headers: m.responseHeaders)
        return out
    }

    func clean(_ e: PlayerEvent) -> PlayerEvent {
        var out = e
        out.variant = e.variant.map(clean)
        out.fromVariant = e.fromVariant.map(clean)
        out.toVariant = e.toVariant.map(clean)
        out.detail = e.detail.map(clean)
        return out
    }

    func clean(_ p: ProxyEvent) -> ProxyEvent {
        var out = p
        out.url = p.url.map(clean)
        out.requestURL = p.requestURL.map(clean)
        out.message = clean(p.message)
        out.tag = clean(p.tag)
        out.references = p.references.map(clean)
        out.headers = clean(headers: p.headers)
        out.error = p.error.map(clean)
        return out
    }

    /// Header values by name: a secret header's value goes whole, whatever it looks like; any
    /// other value is redacted as text (a `Location` may carry a signed URL).
    public func clean(headers: [String: String]) -> [String: String] {
        guard !headers.isEmpty else { return headers }
        // Most headers need no change: the dictionary is rebuilt only from the first one that does.
        var out: [String: String]?
        for (index, (name, value)) in zip(headers.indices, headers) {
            var nameBytes = name
            let newName = clean(name)
            let newValue = enabled && nameBytes.withUTF8(Self.isSecretHeader) ? Self.placeholder : clean(value)
            if out == nil {
                guard newName != name || newValue != value else { continue }
                var copy: [String: String] = [:]
                copy.reserveCapacity(headers.count)
                for (n, v) in headers[..<index] { copy[n] = v }
                out = copy
            }
            out?[newName] = newValue
        }
        return out ?? headers
    }

    /// Access-log columns: every value cleaned as text.
    func clean(fields: AccessLogFields) -> AccessLogFields {
        fields.mapValues(clean)
    }
}
