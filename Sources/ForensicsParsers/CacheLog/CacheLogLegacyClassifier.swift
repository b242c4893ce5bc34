import ForensicsCore

/// KTVHTTPCache 1.0.x templates: lowercase messages without the object's pointer, values after
/// commas, multi-line values one per line (`did setup\n<URL>\nrange, <min>, <max>\n<headers>`).
/// Read from the library's format strings at tags 1.0.0–1.0.4.
enum CacheLogLegacyClassifier {
    static func classify(_ e: inout ProxyEvent, entry: CacheLogEntry, fullText full: String) {
        let m = e.message
        let lines = entry.continuation
        /// The values after the first comma: `complete by error, <URL>, <code>` → [URL, code].
        var values: [String] {
            guard let comma = m.firstIndex(of: ",") else { return [] }
            return m[m.index(after: comma)...].split(separator: ",").map { $0.trimmingCharacters(in: " ") }
        }
        func code(_ s: String?) -> Int? { s.flatMap { Int($0) } }
        switch e.tag {
        case "KTVHCHTTPServer":
            if m.hasPrefix("start server success") {
                e.kind = .serverStart
            } else if m.hasPrefix("start server failure") {
                e.kind = .serverStartFailed
                e.error = CacheLogClassifier.errorInfo(full)
            } else if m.hasPrefix("restart server success") {
                e.kind = .serverRestart
            } else if m.hasPrefix("restart server failure") {
                e.kind = .serverRestartFailed
                e.error = CacheLogClassifier.errorInfo(full)
            } else if m.hasPrefix("ping result, 0") || m.hasPrefix("ping failured") {
                e.kind = .serverPingFailed
            } else if m.hasPrefix("ping result") {
                e.kind = .serverPing
            } else if m.hasPrefix("stop server") {
                e.kind = .serverStop
            }
        case "KTVHCHTTPConnection":
            // `receive request, <method>, <path>`
            if m.hasPrefix("receive request") {
                e.kind = .connectionRequest
                e.url = values.dropFirst().first
            }
        case "KTVHCHTTPURL":
            if m.hasPrefix("proxy url") {
                e.kind = .proxyURL
                e.url = values.first
            }
        case "KTVHCDataRequest":
            // `did setup\n<URL>\nrange, <min>, <max>\n<headers>`; max -1 means open.
            if m.hasPrefix("did setup") {
                e.kind = .dataRequest
                e.url = lines.first
                e.headers = CacheLogClassifier.headers(lines)
                e.playbackSessionID = e.headers["X-Playback-Session-Id"]
                if let r = lines.first(where: { $0.hasPrefix("range, ") }) {
                    let n = r.split(separator: ",").dropFirst().compactMap { Int64($0.trimmingCharacters(in: " ")) }
                    e.range = span(n.first, n.dropFirst().first)
                }
            }
        case "KTVHCHTTPResponse":
            if m.hasPrefix("failure,") {
                e.kind = .responseFailed
                e.error = ErrorInfo(domain: nil, code: code(values.first), description: nil)
                e.url = values.dropFirst().first
            } else if m.hasPrefix("conetnt length") {
                e.kind = .responseContentLength
                e.contentLength = values.first.flatMap { Int64($0) }
            } else if m.hasPrefix("connection did close") {
                e.kind = .connectionClosed
            }
        case "KTVHCDataReader":
            if m.hasPrefix("call prepare") {
                e.kind = .readerCreated
                e.url = lines.first
            } else if m.hasPrefix("record error") {
                e.kind = .readerFailed
                e.error = CacheLogClassifier.errorInfo(full)
            } else if m.hasPrefix("callback for failure begin") {
                e.kind = .readerFailed
                e.url = values.first
                e.error = ErrorInfo(domain: nil, code: code(values.dropFirst().first), description: nil)
            }
        case "KTVHCDataFileSource":
            // `did setup, <offset>, <length>, <startOffset>, <needReadLength>`
            if m.hasPrefix("did setup") {
                e.kind = .cacheRead
                let n = values.compactMap { Int64($0) }
                e.range = span(n.first, n.count > 1 ? n[1] : nil, isLength: true)
            }
        case "KTVHCDataNetworkSource":
            if m.hasPrefix("did setup") {
                // `did setup\n<URL>\n<headers>\n<content types>\noffset, <o>, length, <l>`; length -1 = open.
                e.kind = .networkSource
                e.url = lines.first
                if let r = lines.last(where: { $0.hasPrefix("offset, ") }) {
                    let parts = r.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
                    let offset = parts.count > 1 ? Int64(parts[1]) : nil
                    let length = parts.count > 3 ? Int64(parts[3]) : nil
                    e.range = span(offset, length, isLength: true)
                }
            } else if m.hasPrefix("response error") {
                // `response error\n<URL>\n<reason>\n<response URL>\n<headers>`
                e.kind = .downloadInvalidResponse
                e.url = lines.first
                let reason = lines.count > 1 ? lines[1] : nil
                e.error = ErrorInfo(domain: nil, code: nil, description: reason)
                e.contentType = CacheLogClassifier.headerValue("Content-Type", in: lines)
            } else if m.hasPrefix("complete by error") {
                e.kind = .networkFailed
                e.url = values.first
                e.error = ErrorInfo(domain: nil, code: code(values.dropFirst().first), description: nil)
            } else if m.hasPrefix("complete by donwload finished") {
                e.kind = .networkComplete
                e.url = values.first
            } else if m.hasPrefix("receive data,") {
                // `receive data, <chunk>, <received so far>, <unit item length>`
                e.kind = .networkData
                e.contentLength = values.dropFirst().first.flatMap { Int64($0) }
            }
        case "KTVHCDownload":
            if m.hasPrefix("add download begin") {
                e.kind = .downloadRequest
                e.url = lines.first
                e.headers = CacheLogClassifier.headers(lines)
                e.range = e.headers["Range"].flatMap { ByteRange(httpRangeHeader: $0) }
            } else if m.hasPrefix("receive response") {
                e.kind = .downloadResponse
                e.url = lines.first
                e.contentType = CacheLogClassifier.headerValue("Content-Type", in: lines)
            } else if m.hasPrefix("complete,") {
                // `complete, <error code or 0>, <URL>`
                e.kind = .downloadComplete
                e.url = values.dropFirst().first
                if let c = code(values.first), c != 0 {
                    e.error = ErrorInfo(domain: "NSURLErrorDomain", code: c, description: nil)
                }
            } else if m.hasPrefix("receive data begin") {
                e.kind = .downloadData
                e.contentLength = values.first.flatMap { Int64($0) }
                e.url = values.dropFirst().first
            }
        case "KTVHCDataSourcer":
            if m.hasPrefix("failure,") || m.hasPrefix("network source failure") {
                e.kind = .sourceManagerFailure
                e.error = ErrorInfo(domain: nil, code: code(values.last), description: nil)
            }
        case "KTVHCDataUnitPool":
            if m.hasPrefix("new unit") {
                e.kind = .unitCreated
                e.url = values.first
            } else if m.hasPrefix("delete unit") {
                e.kind = .unitDeleted
                e.url = values.first
            }
        case "KTVHCDataUnit":
            if m.hasPrefix("delete unit") {
                e.kind = .unitDeleted
                e.url = values.first
            } else if m.hasPrefix("merge files finish") {
                e.kind = .unitMerged
            } else if m.hasPrefix("merge files seek exception") {
                e.kind = .unitMergeFailed
            }
        default:
            break
        }
    }

    /// A byte span from a start and an end (or a length); -1 or a missing end means open.
    static func span(_ start: Int64?, _ second: Int64?, isLength: Bool = false) -> ByteRange? {
        guard let start, start >= 0, start < Int64.max else { return nil }
        guard let second, second >= 0, second < Int64.max else { return ByteRange(offset: start, length: nil) }
        if isLength { return ByteRange(offset: start, length: second) }
        guard second >= start else { return ByteRange(offset: start, length: nil) }
        return ByteRange(offset: start, length: second - start + 1)
    }
}
