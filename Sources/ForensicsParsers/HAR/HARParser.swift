import Foundation
import ForensicsCore

/// Reads HTTP Archive 1.2 captures (`.har`, gzip or not): every entry becomes a request record
/// with its headers, status and timings; playlist bodies (plain, base64 and/or gzip) are parsed
/// as playlists with the entry's URL as base.
package struct HARParser {
    /// The longest `time` read as a request's duration: a day (a capture of one session).
    static let maxEntryMilliseconds = 86_400_000.0

    package let file: String
    package let maxDocumentSize: Int
    /// Largest decoded body; all decoded bodies of the capture together.
    package let maxBodySize: Int
    package var maxBodiesSize: Int = 256 << 20
    /// Most records read from the file (the bundle's budget decides).
    package var maxRecords = Int.max

    package init(file: String, maxDocumentSize: Int = 1 << 30, maxBodySize: Int = 16 << 20) {
        self.file = file
        self.maxDocumentSize = maxDocumentSize
        self.maxBodySize = maxBodySize
    }

    package func parse(_ source: inout some ByteSource) throws -> ParseResult {
        var result = ParseResult(file: file, format: .har)
        let bytes = try readAll(&source, limit: maxDocumentSize, name: file)
        let scan = JSONDocumentScanner.scan(bytes, arrayPaths: [["log", "entries"]])
        if let error = scan.error {
            result.diagnose(Diagnostic(SourceLocation(file: file, line: 1), .error, error))
        }
        var bodyBytes = 0
        for element in scan.elements {
            if result.reachedRecordLimit(maxRecords, line: element.line) { break }
            let location = SourceLocation(file: file, line: element.line)
            guard let entry = try? JSONValue.parse(bytes[element.range]), case .object = entry else {
                result.diagnose(Diagnostic(location, .error, "HAR entry is not a valid JSON object"))
                continue
            }
            map(entry, location: location, bodyBytes: &bodyBytes, into: &result)
        }
        keepPlaybackRequests(&result)
        return result
    }

    /// Keeps only the capture's playback requests: playlists, segments, keys, and any request
    /// that carries the player's own evidence (`X-Playback-Session-Id`, an AppleCoreMedia or
    /// AVPlayer user agent). A browser capture also holds pages, scripts, images and API calls; as
    /// part of a playback session they stretched it over days. A capture with no playback request
    /// at all is not read (`notRead`).
    func keepPlaybackRequests(_ result: inout ParseResult) {
        kindByCapturedPlaylists(&result)
        // The hosts that served the stream (a playlist, segment, key or map): a response of a web
        // type from one of them is the stream's (an error page for a segment, a playlist served
        // as JSON), not a web page (probe Q).
        var mediaHosts: Set<String> = []
        for record in result.records {
            guard case .request(let m) = record.payload, m.kind != .other,
                let host = URLCanonicalizer.host(URLCanonicalizer.canonical(m.url))?.lowercased()
            else { continue }
            mediaHosts.insert(host)
        }
        var dropped = 0
        result.records.removeAll { record in
            guard case .request(let m) = record.payload, m.kind == .other else { return false }
            if record.sessionID != nil { return false }
            let agent = HARParser.header("user-agent", m.requestHeaders) ?? ""
            // The player's user agent keeps a request, unless what came back is a web page, a
            // script, a style sheet, an image, a font or an API's JSON from a host that served no
            // part of the stream (probe P: a page and its API calls under AppleCoreMedia's agent
            // joined the session, an hour before the stream, and their 500s were counted as its
            // errors).
            if agent.contains("AppleCoreMedia") || agent.contains("AVPlayer") {
                let host = URLCanonicalizer.host(URLCanonicalizer.canonical(m.url))?.lowercased()
                if !Self.isWebContent(m.contentType) || host.map(mediaHosts.contains) == true { return false }
            }
            dropped += 1
            return true
        }
        let media = result.records.contains { record in
            if case .request = record.payload { return true }
            if case .playlist = record.payload { return true }
            return false
        }
        if !media {
            result.records = []
            result.notRead = NotRead(
                "HTTP capture without media requests (\(dropped) web request\(dropped == 1 ? "" : "s"), no playlist, segment or key)",
                hidesEvidence: false)
        } else if dropped > 0 {
            result.diagnose(
                Diagnostic(
                    SourceLocation(file: file, line: 1), .info,
                    "\(dropped) request\(dropped == 1 ? "" : "s") of no playback (pages, scripts, images, API calls) left out of the sessions"
                ))
        }
    }

    /// A content type of the web, not of media: HTML, CSS, JavaScript, images, fonts, JSON.
    static func isWebContent(_ contentType: String?) -> Bool {
        guard let t = contentType?.lowercased() else { return false }
        return t.hasPrefix("text/html") || t.hasPrefix("text/css") || t.contains("javascript")
            || t.hasPrefix("image/") || t.hasPrefix("font/") || t.hasPrefix("application/json")
            || t.hasPrefix("application/xhtml")
    }

    /// A request whose URL a captured playlist lists — a segment of a media playlist, a variant,
    /// rendition or I-frame playlist of a multivariant one — is that, whatever its path looks like: many packagers serve
    /// segments from paths without an extension (`/videoplayback/itag/20/sq/5`), which the URL
    /// alone calls "other" and the capture would drop as no playback (probe K). Matched as
    /// listed, or without the query where the listed URI has none (tokens added per request).
    func kindByCapturedPlaylists(_ result: inout ParseResult) {
        // The URL as listed; and without its query only where the listed URI has none (a query
        // such as `?sq=5` may be what tells one segment from another).
        var listed: [String: MediaRequest.Kind] = [:]
        var listedPaths: [String: MediaRequest.Kind] = [:]
        func list(_ uri: String, _ kind: MediaRequest.Kind) {
            listed[uri] = kind
            let path = URLCanonicalizer.withoutQuery(uri)
            if path == uri { listedPaths[path] = kind }
        }
        for record in result.records {
            guard case .playlist(let p) = record.payload else { continue }
            let resolver = URIResolver(base: p.url)
            for v in p.variants { if let u = v.url { list(resolver.resolve(u), .mediaPlaylist) } }
            for u in p.renditionURIs { list(resolver.resolve(u), .mediaPlaylist) }
            for u in p.segmentURIs { list(resolver.resolve(u), .segment) }
        }
        guard !listed.isEmpty else { return }
        for i in result.records.indices {
            guard case .request(var m) = result.records[i].payload, m.kind == .other,
                let kind = listed[m.url] ?? listedPaths[URLCanonicalizer.withoutQuery(m.url)]
            else { continue }
            m.kind = kind
            result.records[i].payload = .request(m)
        }
    }

    func map(_ entry: JSONValue, location: SourceLocation, bodyBytes: inout Int, into result: inout ParseResult) {
        guard let url = entry["request"]?["url"]?.string else {
            result.diagnose(Diagnostic(location, .warning, "HAR entry without request.url"))
            return
        }
        let started = entry["startedDateTime"]?.string.flatMap { TimestampParser.parse($0) }
        if started == nil {
            result.diagnose(Diagnostic(location, .warning, "HAR entry without a readable startedDateTime"))
        }
        let requestHeaders = Self.headers(entry["request"]?["headers"])
        let responseHeaders = Self.headers(entry["response"]?["headers"])
        let content = entry["response"]?["content"]
        let contentType = Self.header("content-type", responseHeaders) ?? content?["mimeType"]?.string
        var body: String?
        if let text = content?["text"]?.string {
            body = decodeBody(
                text, encoding: content?["encoding"]?.string, location: location, bodyBytes: &bodyBytes, into: &result)
        }
        var request = MediaRequest(
            kind: MediaRequest.guessKind(url: url, contentType: contentType, body: body), url: url)
        request.start = started
        if let started, let total = entry["time"]?.double, total >= 0 {
            // A duration past a day, or one that ends past the year 9999, is no request's: unknown.
            let end = started + total / 1000
            if total <= Self.maxEntryMilliseconds, Timestamp.isPlausible(end.secondsSince1970) {
                request.end = end
            } else {
                let why =
                    total <= Self.maxEntryMilliseconds
                    ? "HAR entry would end after the year 9999: its duration is read as unknown"
                    : "HAR entry time \(total) ms is longer than a day, no request's duration: read as unknown"
                result.diagnose(Diagnostic(location, .warning, why))
            }
        }
        let status = entry["response"]?["status"]?.int
        // Chrome writes `_error` in the response; other exporters beside it, on the entry.
        let browserError = entry["response"]?["_error"]?.string ?? entry["_error"]?.string
        // HAR writes 0 for requests that got no response (blocked, aborted, failed).
        if let browserError, Self.isAbort(browserError), (status ?? 0) < 400 {
            // The browser gave the request up itself (a seek, a level switch), before or after
            // the headers: a cancellation, as NSURLErrorCancelled is — no failure, no download.
            // An error status it then gave up on (Chrome's "net::ERR_ABORTED 404") stays a failure.
            request.error = ErrorInfo(domain: "no response", code: -999, description: browserError)
        } else if let status, status > 0 {
            request.status = status
        } else if entry["response"] == nil {
            // Not HAR (a response is required): the outcome is unknown, said — no failure.
            result.diagnose(
                Diagnostic(location, .warning, "HAR entry without a response: its outcome is unknown, not counted"))
        } else if browserError == nil, (entry["time"]?.double ?? 0) < 0 {
            // Still in flight when the capture was saved (status 0, time -1, no error): no
            // outcome was recorded — unknown, not a failure of the server (probe L).
        } else {
            // Named for what it is: "failed with no response", not "with HAR 0".
            request.error = ErrorInfo(
                domain: "no response", code: 0, description: browserError ?? "no response")
        }
        request.requestHeaders = requestHeaders
        request.responseHeaders = responseHeaders
        request.contentType = contentType
        request.contentEncoding = Self.header("content-encoding", responseHeaders)
        request.serverAddress = entry["serverIPAddress"]?.string
        if let size = content?["size"]?.int, size >= 0 { request.bytes = Int64(size) }
        if let bodySize = entry["response"]?["bodySize"]?.int, bodySize >= 0 {
            request.bodySize = Int64(bodySize)
            // A capture that did not keep the body writes `content.size` 0 (or -1): the bytes
            // on the wire are then the response's `bodySize` (Chrome's `_transferSize` if not).
            if (request.bytes ?? 0) <= 0, bodySize > 0 { request.bytes = Int64(bodySize) }
        }
        if (request.bytes ?? 0) <= 0, let transfer = entry["response"]?["_transferSize"]?.int, transfer > 0 {
            request.bytes = Int64(transfer)
        }
        if let range = Self.header("range", requestHeaders) { request.byteRange = ByteRange(httpRangeHeader: range) }
        let session = Self.header("x-playback-session-id", requestHeaders)
        result.records.append(
            Record(time: started, location: location, format: .har, sessionID: session, payload: .request(request)))
        if let body, body.contains("#EXTM3U") || body.contains("#EXTINF") || body.contains("#EXT-X-") {
            var parsed = PlaylistParser(file: file, url: url).parse(text: body)
            // `content.size` is the decoded body's length: a body shorter than it that also ends
            // inside a line was cut short by the capture (or the response). Both, since some
            // tools write the size on the wire there.
            if let size = content?["size"]?.int, size > 0, body.utf8.count < size, body.utf8.last != 0x0A,
                !parsed.playlist.defects.contains(where: { $0.check == "playlist-truncated" })
            {
                let message =
                    "the capture holds \(body.utf8.count) of the \(size) bytes of this playlist (content.size): it was cut short, and what follows is missing"
                parsed.playlist.defects.append(
                    StreamDefect(check: "playlist-truncated", line: 0, message: message, severity: .error))
                parsed.diagnostics.append(Diagnostic(SourceLocation(file: file, line: 0), .error, message))
            }
            for d in parsed.diagnostics {
                result.diagnose(
                    Diagnostic(location, d.severity, "playlist body of \(url), line \(d.location.line): \(d.message)"))
            }
            result.playlists.append(parsed.playlist)
            let time = request.end ?? started
            result.records.append(
                Record(
                    time: time, location: location, format: .har, sessionID: session,
                    payload: .playlist(parsed.playlist.checkedSnapshot)))
        }
    }

    /// Body text: base64-decoded when the HAR says so, gunzipped when the bytes are gzip. Every
    /// decoded byte counts against the capture's `maxBodiesSize`: 40 entries each inflating to a
    /// 250 MB playlist from 1 KB of base64 must not cost 10 GB.
    func decodeBody(
        _ text: String, encoding: String?, location: SourceLocation, bodyBytes: inout Int,
        into result: inout ParseResult
    ) -> String? {
        let left = maxBodiesSize - bodyBytes
        guard left > 0, text.utf8.count <= maxBodySize else {
            result.diagnose(
                Diagnostic(
                    location, .warning,
                    left > 0
                        ? "response body larger than \(maxBodySize) bytes: not read"
                        : "response body not read: the capture's bodies already hold \(maxBodiesSize) bytes"))
            return nil
        }
        var bytes: [UInt8]
        if encoding?.lowercased() == "base64" {
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                result.diagnose(Diagnostic(location, .warning, "response body is not valid base64"))
                return nil
            }
            bytes = [UInt8](data)
        } else {
            bytes = Array(text.utf8)
        }
        if GzipByteSource.isGzip(bytes) {
            do {
                let limit = min(maxBodySize, left)
                var gz = try GzipByteSource(MemoryByteSource(bytes), name: file, limit: limit)
                bytes = try readAll(&gz, limit: limit, name: file)
            } catch {
                result.diagnose(Diagnostic(location, .warning, "response body: \(error)"))
                return nil
            }
        }
        bodyBytes = bodyBytes.addingReportingOverflow(bytes.count).partialValue
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A browser's own abort of a request: Chrome's `net::ERR_ABORTED`, Firefox's
    /// `NS_BINDING_ABORTED`.
    static func isAbort(_ error: String) -> Bool {
        error.containsIgnoringASCIICase("ERR_ABORTED") || error.containsIgnoringASCIICase("BINDING_ABORTED")
    }

    static func headers(_ v: JSONValue?) -> [String: String] {
        var out: [String: String] = [:]
        for h in v?.array ?? [] {
            guard let name = h["name"]?.string, let value = h["value"]?.string else { continue }
            if let existing = out[name] { out[name] = existing + ", " + value } else { out[name] = value }
        }
        return out
    }

    static func header(_ lowercasedName: String, _ headers: [String: String]) -> String? {
        headers.headerValue(lowercasedName)
    }
}
