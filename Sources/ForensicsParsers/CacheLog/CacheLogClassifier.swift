import ForensicsCore

/// Turns one joined log entry into a typed `ProxyEvent` record by its tag and message template.
enum CacheLogClassifier {
    /// Module tags whose every template is known: untyped entries of these are expected chatter
    /// (progress, callbacks), not unknown formats.
    static let knownUntypedTags: Set<String> = [
        "KTVHCHTTPServer", "KTVHCHTTPConnection", "KTVHCHTTPRequest", "KTVHCHTTPResponse", "KTVHCHTTPPingResponse",
        "KTVHCHTTPHLSResponse", "KTVHCHTTPURL", "KTVHCDataStorage", "KTVHCDataRequest", "KTVHCDataResponse",
        "KTVHCDataReader", "KTVHCDataLoader", "KTVHCDataHLSLoader", "KTVHCDataUnit", "KTVHCDataUnitItem",
        "KTVHCDataUnitPool", "KTVHCDataUnitQueue", "KTVHCDataSourceManager", "KTVHCDataSourcer",
        "KTVHCDataSourceQueue", "KTVHCDataFileSource", "KTVHCDataNetworkSource", "KTVHCDownload", "KTVHCMacro",
        "KTVHCCommon",
    ]

    /// What one entry is: a proxy event (and whether its message began with the object's
    /// pointer, a version clue), or a line of another component.
    enum Classified {
        case proxy(ProxyEvent, hadPointer: Bool)
        case console(ConsoleLine)
    }

    static func classify(_ entry: CacheLogEntry, fullText full: String) -> Classified {
        let body = entry.body
        if entry.orphan {
            return .proxy(orphan(entry, fullText: full), hadPointer: false)
        }
        // Lifecycle: `<KTVHCDataReader: 0x283c94150>  :   alloc`.
        if body.hasPrefix("<KTVHC"), let sep = body.fastRange(of: ">  :   ") {
            let object = body[body.index(after: body.startIndex)..<sep.lowerBound]
            let message = String(body[sep.upperBound...])
            let parts = object.split(separator: ":", maxSplits: 1)
            let tag = parts.first.map(String.init) ?? String(object)
            var e = ProxyEvent(
                kind: message == "alloc" ? .alloc : message == "dealloc" ? .dealloc : .generic, tag: tag,
                message: message)
            e.pointer = parts.count > 1 ? parts[1].trimmingCharacters(in: " ") : nil
            return .proxy(e, hadPointer: false)
        }
        guard body.hasPrefix("KTVHC"), let sep = body.fastRange(of: "  :   ") ?? body.fastRange(of: " :   ") else {
            return .console(ConsoleLineClassifier.line(prefix: entry.prefix, fullText: full, error: errorInfo(full)))
        }
        let tag = body[..<sep.lowerBound].trimmingCharacters(in: " ")
        var message = String(body[sep.upperBound...])
        var pointer: String?
        if message.hasPrefix("0x") {
            let end = message.firstIndex(where: { $0 == "," || $0 == " " }) ?? message.endIndex
            pointer = String(message[..<end])
            var rest = message[end...]
            if rest.first == "," { rest = rest.dropFirst() }
            while rest.first == " " { rest = rest.dropFirst() }
            message = String(rest)
        }
        var e = ProxyEvent(kind: .generic, tag: tag, message: message)
        e.pointer = pointer
        e.references = references(full)
        if pointer == nil, tag != "KTVHCMacro", tag != "KTVHCCommon", let first = message.unicodeScalars.first,
            first.properties.isLowercase
        {
            // 1.0.x: lowercase templates without a pointer, values after commas.
            CacheLogLegacyClassifier.classify(&e, entry: entry, fullText: full)
            if e.kind != .generic { return .proxy(e, hadPointer: false) }
        }
        classifyModern(&e, entry: entry, fullText: full)
        attachErrorDump(&e, entry: entry, fullText: full)
        return .proxy(e, hadPointer: pointer != nil)
    }

    /// An `Error : Error Domain=…` dump among the continuation lines of an entry whose own
    /// template carries no error (a reader's `Call close`, a source's teardown): the library logged
    /// the failure there, with the origin's whole response. It is the entry's meaning, not chatter
    /// (a 2.x log lost its only origin failure so). Entries that already read an error keep theirs.
    static func attachErrorDump(_ e: inout ProxyEvent, entry: CacheLogEntry, fullText full: String) {
        guard e.kind == .generic, e.error == nil,
            entry.continuation.contains(where: {
                $0.hasPrefix("Error : Error Domain=") || $0.hasPrefix("Error Domain=")
            }),
            let error = errorInfo(full)
        else { return }
        e.kind = .errorDump
        e.error = error
        e.status = e.status ?? statusCode(full)
        e.url = e.url ?? errorURL(full)
        if e.headers.isEmpty { e.headers = responseHeaders(entry.continuation) }
        e.contentType = e.contentType ?? headerValue("Content-Type", in: entry.continuation)
        e.contentLength = e.contentLength ?? headerValue("Content-Length", in: entry.continuation).flatMap { Int64($0) }
    }

    /// Text before the first entry of an excerpt: the tail of an entry, or a pasted error dump on
    /// its own. A dump still says what failed: its error, the response's status and headers.
    static func orphan(_ entry: CacheLogEntry, fullText full: String) -> ProxyEvent {
        var e = ProxyEvent(kind: .generic, tag: "(continuation)", message: entry.continuation.first ?? "")
        guard let error = errorInfo(full) else { return e }
        e.kind = .errorDump
        e.tag = "(error dump)"
        e.error = error
        e.status = statusCode(full)
        e.url = errorURL(full)
        e.headers = responseHeaders(entry.continuation)
        e.contentType = headerValue("Content-Type", in: entry.continuation)
        e.contentLength = headerValue("Content-Length", in: entry.continuation).flatMap { Int64($0) }
        return e
    }

    /// 1.1.x–3.x templates (`%p, Capitalised …`); matched case-insensitively by prefix.
    static func classifyModern(_ e: inout ProxyEvent, entry: CacheLogEntry, fullText full: String) {
        let message = e.message
        let lower = CaseInsensitiveText(message)
        switch e.tag {
        case "KTVHCMacro", "KTVHCCommon":
            e.kind = .appMarker
        case "KTVHCHTTPServer":
            if lower.hasPrefix("start server success") {
                e.kind = .serverStart
            } else if lower.hasPrefix("start server fail") {
                e.kind = .serverStartFailed
                e.error = errorInfo(full)
            } else if lower.hasPrefix("ping result : 0") {
                e.kind = .serverPingFailed
            } else if lower.hasPrefix("ping") {
                e.kind = .serverPing
            } else if lower.hasPrefix("restart server error") || lower.hasPrefix("restart server fail") {
                e.kind = .serverRestartFailed
                e.error = errorInfo(full)
            } else if lower.hasPrefix("restart server") {
                e.kind = .serverRestart
            } else if lower.hasPrefix("stop server") || lower.hasPrefix("enter background and stop server")
                || lower.hasPrefix("server idle") || lower.hasPrefix("background task expiration")
            {
                e.kind = .serverStop
            } else if lower.hasPrefix("enter background") {
                e.kind = .appBackground
            } else if lower.hasPrefix("enter foreground") {
                e.kind = .appForeground
            } else if lower.hasPrefix("return url") || lower.hasPrefix("return original url") {
                e.kind = .proxyURL
                e.url = field("URL", in: entry.continuation)
            }
        case "KTVHCHTTPURL":
            if lower.hasPrefix("proxy url") {
                e.kind = .proxyURL
                e.url = entry.continuation.first
            }
        case "KTVHCHTTPConnection":
            if lower.hasPrefix("receive request") {
                e.kind = .connectionRequest
                e.url = field("path", in: entry.continuation)
            } else if lower.hasPrefix("accept request") || lower.hasPrefix("receive redirect request") {
                e.kind = .acceptRequest
                e.url = field("URL", in: entry.continuation)
            }
        case "KTVHCDataRequest":
            if lower.contains("create data request") {
                e.kind = .dataRequest
                e.url = field("URL", in: entry.continuation)
                e.headers = headers(entry.continuation)
                e.range = range(full)
                e.playbackSessionID = e.headers["X-Playback-Session-Id"]
            }
        case "KTVHCDataResponse":
            if lower.contains("create data response") {
                e.kind = .dataResponse
                e.url = field("URL", in: entry.continuation)
                e.contentType = field("contentType", in: entry.continuation)
                e.contentLength = field("totalLength", in: entry.continuation).flatMap { Int64($0) }
                e.headers = headers(entry.continuation)
            }
        case "KTVHCHTTPResponse", "KTVHCHTTPHLSResponse":
            if lower.hasPrefix("create response") {
                e.kind = .httpResponse
            } else if lower.hasPrefix("content length") || lower.hasPrefix("conetnt length") {
                e.kind = .responseContentLength
                e.contentLength = message.split(separator: ":").last.flatMap { Int64($0.trimmingCharacters(in: " ")) }
            } else if lower.hasPrefix("failed") || lower.hasPrefix("handle response error") {
                e.kind = .responseFailed
                e.error = errorInfo(full)
            } else if lower.hasPrefix("connection did closed") {
                e.kind = .connectionClosed
            }
        case "KTVHCDataReader":
            if lower.hasPrefix("create reader") {
                e.kind = .readerCreated
            } else if lower.hasPrefix("callback for failed") || lower.hasPrefix("record error") {
                e.kind = .readerFailed
                e.error = errorInfo(full)
            }
        case "KTVHCDataFileSource":
            if lower.hasPrefix("create file source") {
                e.kind = .cacheRead
                e.range = range(full)
            }
        case "KTVHCDataNetworkSource":
            if lower.hasPrefix("create network source") {
                e.kind = .networkSource
                e.range = range(full)
            } else if lower.hasPrefix("callback for failed") || lower.hasPrefix("complete but did failed") {
                e.kind = .networkFailed
                e.error = errorInfo(full)
                e.url = errorURL(full)
            } else if lower.hasPrefix("receive data :") {
                // `Receive data : <chunk>, <received so far>, <unit item length>`.
                e.kind = .networkData
                e.contentLength = number(1, afterColonIn: message)
            } else if lower.hasPrefix("complete and finisehed") {
                e.kind = .networkComplete
            }
        case "KTVHCDownload":
            if lower.hasPrefix("add request") {
                e.kind = .downloadRequest
                e.url = field("URL", in: entry.continuation)
                e.headers = headers(entry.continuation)
                e.range = e.headers["Range"].flatMap { ByteRange(httpRangeHeader: $0) }
            } else if lower.hasPrefix("receive response") {
                e.kind = .downloadResponse
                e.status = statusCode(full)
                e.url = responseURL(full)
                e.contentType = headerValue("Content-Type", in: entry.continuation)
            } else if lower.hasPrefix("invaild response") || lower.hasPrefix("invalid response") {
                e.kind = .downloadInvalidResponse
                e.error = errorInfo(full)
                e.status = statusCode(full)
                e.url = errorURL(full)
                e.contentType = headerValue("Content-Type", in: entry.continuation)
            } else if lower.hasPrefix("complete") {
                e.kind = .downloadComplete
                e.error = errorInfo(full)
            } else if lower.hasPrefix("receive data") {
                e.kind = .downloadData
                e.url = field("URL", in: entry.continuation)
                e.contentLength = field("Length", in: entry.continuation).flatMap { Int64($0) }
            }
        case "KTVHCDataSourceManager", "KTVHCDataSourcer":
            if lower.hasPrefix("failure,") || lower.contains("source failure") {
                e.kind = .sourceManagerFailure
                let code = message.split(separator: ",").last.flatMap { Int($0.trimmingCharacters(in: " ")) }
                e.error = ErrorInfo(domain: nil, code: code, description: nil)
            } else if lower.hasPrefix("callback for network source failed - begin") {
                e.kind = .networkFailed
                e.error = errorInfo(full)
                e.url = errorURL(full)
            }
        case "KTVHCDataUnitPool":
            if lower.hasPrefix("insert unit,") { e.kind = .unitCreated }
        case "KTVHCDataUnit":
            if lower.hasPrefix("delete unit") {
                e.kind = .unitDeleted
            } else if lower.hasPrefix("merge finished") || lower.hasPrefix("merge replace items") {
                e.kind = .unitMerged
            } else if lower.hasPrefix("merge files") && lower.contains("exception") {
                e.kind = .unitMergeFailed
            } else if lower.hasPrefix("create unit") {
                e.url = field("URL", in: entry.continuation)
            }
        default:
            break
        }
    }

    /// The `index`-th integer (0-based) of the comma-separated list after the first `:` of a
    /// `…: a, b, c` message; nil when absent, not a number, or beyond Int64. A byte scan: this
    /// runs for every `Receive data` entry, the bulk of a download's log.
    static func number(_ index: Int, afterColonIn message: String) -> Int64? {
        var message = message
        return message.withUTF8 { number(index, afterColonIn: $0) }
    }

    /// `number(_:afterColonIn:)` on a message's bytes.
    static func number(_ index: Int, afterColonIn b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let colon = b.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var i = colon + 1
        var field = 0
        while i < b.count, field < index {
            if b[i] == UInt8(ascii: ",") { field += 1 }
            i += 1
        }
        guard field == index else { return nil }
        while i < b.count, b[i] == 32 { i += 1 }
        var end = i
        while end < b.count, b[end] != UInt8(ascii: ",") { end += 1 }
        while end > i, b[end - 1] == 32 { end -= 1 }
        guard end > i else { return nil }
        return DecimalScanner.int64(UnsafeBufferPointer(rebasing: b[i..<end]))
    }

    /// The header dictionary of an `NSHTTPURLResponse` dump (`… Headers {` … `} }`), one value per key.
    static func responseHeaders(_ lines: [String]) -> [String: String] {
        var out: [String: String] = [:]
        var i = 0
        var inside = false
        while i < lines.count {
            let line = lines[i]
            if line.hasSuffix("Headers {") {
                inside = true
                i += 1
                continue
            }
            if inside {
                let t = line.trimmingCharacters(in: " \t")
                if t.hasPrefix("}") { break }
                if let eq = t.fastRange(of: " = ") {
                    let key = unquote(t[..<eq.lowerBound].trimmingCharacters(in: " "))
                    var value = t[eq.upperBound...].trimmingCharacters(in: " ;")
                    if value == "(", i + 1 < lines.count {
                        value = lines[i + 1].trimmingCharacters(in: " \t,")
                        i += 1
                    }
                    if out[key] == nil { out[key] = unquote(value) }
                }
            }
            i += 1
        }
        return out
    }

    /// `Label : value` on a continuation line.
    static func field(_ label: String, in lines: [String]) -> String? {
        let prefix = label + " : "
        for line in lines where line.hasPrefix(prefix) {
            var v = String(line.dropFirst(prefix.count))
            // NSURL's description of a relative URL: `relative -- base`.
            if let r = v.fastRange(of: " -- ") { v = String(v[..<r.lowerBound]) }
            return v
        }
        return nil
    }

    /// Header dictionaries: `\tKey = value;` (CFHTTPMessage) or `    "Key" = "value";` (Foundation).
    static func headers(_ lines: [String]) -> [String: String] {
        var out: [String: String] = [:]
        var inDict = false
        for line in lines {
            if line.hasSuffix("{") && (line.hasPrefix("Headers") || line.hasPrefix("headers") || line == "{") {
                inDict = true
                continue
            }
            if line.hasPrefix("HTTPRequest headers") { inDict = false }
            if line.hasPrefix("}") { inDict = false }
            guard inDict, let eq = line.fastRange(of: " = ") else { continue }
            let key = unquote(line[..<eq.lowerBound].trimmingCharacters(in: " \t"))
            var value = line[eq.upperBound...].trimmingCharacters(in: " \t")
            if value.hasSuffix(";") { value.removeLast() }
            if out[key] == nil { out[key] = unquote(value) }
        }
        return out
    }

    /// A header value in the NSHTTPURLResponse dump (`Content-Type = (\n\t\tvideo/mp4\n\t);`).
    static func headerValue(_ name: String, in lines: [String]) -> String? {
        for (i, line) in lines.enumerated() {
            let t = line.trimmingCharacters(in: " \t")
            guard t.hasPrefix(name + " = ") || t.hasPrefix("\"\(name)\" = ") else { continue }
            var v = t.split(separator: "=", maxSplits: 1).last.map { $0.trimmingCharacters(in: " ;") } ?? ""
            if v == "(", i + 1 < lines.count { v = lines[i + 1].trimmingCharacters(in: " \t,") }
            return unquote(v)
        }
        return nil
    }

    static func unquote(_ s: String) -> String {
        s.count >= 2 && s.hasPrefix("\"") && s.hasSuffix("\"") ? String(s.dropFirst().dropLast()) : s
    }

    /// `Range : {s, e}` (possibly `Range : Range : {…}`); 9223372036854775807 means open.
    static func range(_ text: String) -> ByteRange? {
        guard let open = text.fastRange(of: "Range : {") ?? text.fastRange(of: "range : Range : {") else { return nil }
        let rest = text[open.upperBound...]
        guard let close = rest.firstIndex(of: "}") else { return nil }
        let nums = rest[..<close].split(separator: ",").map { $0.trimmingCharacters(in: " ") }
        guard nums.count == 2, let s = Int64(nums[0]), let e = Int64(nums[1]), s >= 0 else { return nil }
        if s == Int64.max { return nil }
        if e == Int64.max || e < s { return ByteRange(offset: s, length: nil) }
        return ByteRange(offset: s, length: e - s + 1)
    }

    /// `bytes=0-1` → offset 0 length 2.

    static func statusCode(_ text: String) -> Int? {
        guard let r = text.fastRange(of: "Status Code: ") else { return nil }
        return Int(text[r.upperBound...].prefix(while: { $0.isNumber }))
    }

    static func responseURL(_ text: String) -> String? {
        guard let r = text.fastRange(of: "> { URL: ") else { return nil }
        let rest = text[r.upperBound...]
        guard let end = rest.fastRange(of: " }") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    static func errorURL(_ text: String) -> String? {
        guard
            let r = text.fastRange(of: "KTVHCErrorUserInfoKeyURL=") ?? text.fastRange(of: "NSErrorFailingURLStringKey=")
        else { return responseURL(text) }
        let rest = text[r.upperBound...]
        return String(rest.prefix(while: { $0 != "," && $0 != "}" && $0 != " " }))
    }

    /// `Error Domain=D Code=N "desc"` anywhere in the entry; nil for `Error : (null)`.
    static func errorInfo(_ text: String) -> ErrorInfo? {
        guard let r = text.fastRange(of: "Error Domain=") else { return nil }
        let rest = text[r.upperBound...]
        guard let codeRange = rest.fastRange(of: " Code=") else { return nil }
        let domain = String(rest[..<codeRange.lowerBound])
        let afterCode = rest[codeRange.upperBound...]
        let code = Int(afterCode.prefix(while: { $0 == "-" || $0.isNumber }))
        var description: String?
        if let q = afterCode.firstIndex(of: "\"") {
            let d = afterCode[afterCode.index(after: q)...]
            if let end = d.firstIndex(of: "\"") { description = String(d[..<end]) }
        }
        return ErrorInfo(domain: domain, code: code, description: description, httpStatus: statusCode(text))
    }

    /// Pointers of the objects an entry names (`<KTVHCDataRequest: 0x…>`), except cache units:
    /// one unit serves every request of its URL, so it ties no request path together.
    static func references(_ text: String) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        while let r = rest.fastRange(of: ": 0x") {
            let hex = rest[r.upperBound...].prefix(while: { $0.isHexDigit })
            if !hex.isEmpty, !rest[..<r.lowerBound].hasSuffix("KTVHCDataUnit") { out.append("0x" + hex) }
            rest = rest[r.upperBound...]
        }
        return out
    }
}
