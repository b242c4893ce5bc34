import Foundation

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
            c.library = c.library.map(clean)
            c.error = c.error.map(clean)
            c.subsystem = c.subsystem.map(clean)
            c.category = c.category.map(clean)
            r.payload = .console(c)
        case .playlist(var p):
            p.url = p.url.map(clean)
            p.variants = p.variants.map(clean)
            p.segmentURIs = p.segmentURIs.map(clean)
            r.payload = .playlist(p)
        case .serverRequest(let s): r.payload = .serverRequest(clean(s))
        case .unknown(let t): r.payload = .unknown(clean(t))
        }
        return r
    }

    /// A server row's texts, and its client's address: a CDN log names every viewer's IP, which
    /// is personal data; with redaction on it is replaced in the row and in the raw line.
    public func clean(_ s: ServerRequest) -> ServerRequest {
        var out = s
        var raw = s.raw
        if enabled {
            if let ip = s.clientIP, !ip.isEmpty, ip != "-" {
                raw = raw.replacingBytes(of: ip, with: Self.placeholder)
                out.clientIP = Self.placeholder
            }
            // Longest first, so a value inside another is not left half-replaced.
            for value in s.personal.sorted(by: { $0.count > $1.count }) where value.count >= 2 && value != "-" {
                raw = raw.replacingBytes(of: value, with: Self.placeholder)
                // As a query or a header writes it, too.
                if let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != value {
                    raw = raw.replacingBytes(of: encoded, with: Self.placeholder)
                }
            }
            out.personal = []
        }
        out.raw = clean(raw)
        out.path = clean(s.path)
        out.query = s.query.map(clean)
        out.host = s.host.map(clean)
        out.userAgent = s.userAgent.map(clean)
        out.detail = s.detail.map(clean)
        out.sessionHeader = s.sessionHeader.map(clean)
        out.requestID = s.requestID.map(clean)
        out.cacheResultRaw = s.cacheResultRaw.map(clean)
        out.pop = s.pop.map(clean)
        out.method = s.method.map(clean)
        var cmcd: [String: String] = [:]
        for (k, v) in s.cmcd { cmcd[clean(k)] = clean(v) }
        out.cmcd = cmcd
        return out
    }

    /// Whether `clean(_:)` may change the record: the same texts, read and not rebuilt. The
    /// pipeline cleans every record, and for almost all of them nothing changes; rebuilding one
    /// anyway copies its payload out of the box, re-assigns each text and boxes it again — on a
    /// 20 MB proxy log that was 160 of the redaction stage's 230 M instructions (Benchmarks/README).
    /// A false true only costs the rebuild; a false false would leak, so each case reads exactly
    /// the texts its `clean` writes (`RedactionTests` checks the two agree on every kind).
    public func needsCleaning(_ record: Record) -> Bool {
        var memo = CleanDetailsMemo()
        return needsCleaning(record, memo: &memo)
    }

    /// The requests' details box last found clean: a file's requests share one box per run of
    /// equal details (`MediaRequest.DetailsSharing`), and reading its headers again for every
    /// request was a tenth of reading a metric dump. Holds the box, so it is never another's.
    /// Tied to the redactor that filled it: one memo is used with one redactor only (the
    /// redaction stage's loop over a file's records).
    package struct CleanDetailsMemo {
        var box: AnyObject?
        package init() {}
    }

    /// `needsCleaning(_:)`, reading a request's shared details once for a run of requests.
    package func needsCleaning(_ record: Record, memo: inout CleanDetailsMemo) -> Bool {
        if let s = record.sessionID, mayChange(s) { return true }
        switch record.payload {
        case .request(let m): return needsCleaning(m, memo: &memo)
        case .player(let e): return needsCleaning(e)
        case .error(let e): return needsCleaning(e)
        case .summary(let s): return s.error.map(needsCleaning) ?? false
        case .accessLog(let a):
            return mayChange(a.uri) || mayChange(a.serverAddress) || mayChange(a.playbackType)
                || a.fields.values.contains(where: mayChange)
        case .errorLog(let e, let uri): return needsCleaning(e) || mayChange(uri)
        case .proxy(let p): return needsCleaning(p)
        case .console(let c):
            return mayChange(c.text) || mayChange(c.process) || mayChange(c.library) || mayChange(c.subsystem)
                || mayChange(c.category) || (c.error.map(needsCleaning) ?? false)
        case .playlist(let p):
            return mayChange(p.url) || p.variants.contains(where: { mayChange($0.url) })
                || p.segmentURIs.contains(where: mayChange)
        case .serverRequest(let s):
            return (enabled && s.clientIP.map { !$0.isEmpty && $0 != "-" && $0 != Self.placeholder } ?? false)
                || (enabled && !s.personal.isEmpty)
                || mayChange(s.raw) || mayChange(s.path) || mayChange(s.query) || mayChange(s.host)
                || mayChange(s.userAgent) || mayChange(s.detail) || mayChange(s.sessionHeader)
                || mayChange(s.requestID) || mayChange(s.cacheResultRaw) || mayChange(s.pop) || mayChange(s.method)
                || s.cmcd.contains { mayChange($0.key) || mayChange($0.value) }
        case .unknown(let t): return mayChange(t)
        }
    }

    func needsCleaning(_ e: ErrorInfo) -> Bool {
        mayChange(e.domain) || mayChange(e.description) || e.underlying.contains(where: needsCleaning)
    }

    /// A request's own texts, then its details unless `memo` already found their box clean.
    func needsCleaning(_ m: MediaRequest, memo: inout CleanDetailsMemo) -> Bool {
        if mayChange(m.url) || mayChange(m.playlistURL) || mayChange(m.mediaType) { return true }
        guard let box = m.detailsBox else { return false }
        if let known = memo.box, known === box { return false }
        if needsCleaning(details: m.details) { return true }
        memo.box = box
        return false
    }

    func needsCleaning(details d: MediaRequest.Details) -> Bool {
        mayChange(d.serverAddress) || mayChange(d.contentType) || mayChange(d.contentEncoding)
            || (d.error.map(needsCleaning) ?? false) || needsCleaning(headers: d.requestHeaders)
            || needsCleaning(headers: d.responseHeaders)
    }

    func needsCleaning(_ e: PlayerEvent) -> Bool {
        mayChange(e.variant?.url) || mayChange(e.fromVariant?.url) || mayChange(e.toVariant?.url) || mayChange(e.detail)
    }

    func needsCleaning(_ p: ProxyEvent) -> Bool {
        mayChange(p.url) || mayChange(p.requestURL) || mayChange(p.message) || mayChange(p.tag)
            || mayChange(p.pointer) || mayChange(p.contentType) || mayChange(p.playbackSessionID)
            || p.references.contains(where: mayChange) || needsCleaning(headers: p.headers)
            || (p.error.map(needsCleaning) ?? false)
    }

    /// Mirrors `clean(headers:)`: a secret header's value changes unless it is the placeholder already.
    func needsCleaning(headers: [String: String]) -> Bool {
        headers.contains { name, value in
            if mayChange(name) { return true }
            var nameBytes = name
            if enabled && nameBytes.withUTF8(Self.isSecretHeader) { return value != Self.placeholder }
            return mayChange(value)
        }
    }

    func mayChange(_ text: String?) -> Bool { text.map(mayChange) ?? false }

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
        out.underlying = e.underlying.map(clean)
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
        out.mediaType = m.mediaType.map(clean)
        out.contentType = m.contentType.map(clean)
        out.contentEncoding = m.contentEncoding.map(clean)
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
        out.pointer = p.pointer.map(clean)
        out.contentType = p.contentType.map(clean)
        out.playbackSessionID = p.playbackSessionID.map(clean)
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
    func clean(fields: AVPlayerAccessLogFields) -> AVPlayerAccessLogFields {
        fields.mapValues(clean)
    }
}
