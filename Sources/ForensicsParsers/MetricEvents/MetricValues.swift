import ForensicsCore

/// Conversions of the dump's value forms (dates, CMTime, nested objects) to the core vocabulary.
enum MetricValues {
    /// ISO 8601 string (offset optional, UTC when absent) or seconds since 1970.
    static func date(_ v: JSONValue) -> Timestamp? {
        switch v {
        case .number(let d): return Timestamp.isPlausible(d) ? Timestamp(d) : nil
        case .string(let s): return TimestampParser.parse(s)
        default: return nil
        }
    }

    /// Seconds, or a CMTime object; nil for invalid, indefinite or infinite times.
    static func mediaTime(_ v: JSONValue) -> Double? {
        switch v {
        case .number(let d): return d.isFinite ? d : nil
        case .object:
            guard let value = v["value"]?.double, let scale = v["timescale"]?.double, scale > 0 else { return nil }
            if let flags = v["flags"]?.int {
                // kCMTimeFlags_Valid = 1; PositiveInfinity = 4, NegativeInfinity = 8, Indefinite = 16.
                if flags & 1 == 0 || flags & (4 | 8 | 16) != 0 { return nil }
            }
            return value / scale
        default: return nil
        }
    }

    static func variant(_ v: JSONValue) -> Variant? {
        guard case .object = v else { return nil }
        return Variant(
            peakBitRate: v["peakBitRate"]?.double, averageBitRate: v["averageBitRate"]?.double, url: v["url"]?.string)
    }

    static func error(_ v: JSONValue) -> ErrorInfo? {
        guard case .object = v else { return nil }
        let inner = v["error"] ?? v
        guard inner["domain"] != nil || inner["code"] != nil || inner["localizedDescription"] != nil else { return nil }
        return ErrorInfo(
            domain: inner["domain"]?.string, code: inner["code"]?.int,
            description: inner["localizedDescription"]?.string,
            didRecover: v["didRecover"]?.bool)
    }

    static func byteRange(_ v: JSONValue?) -> ByteRange? {
        guard let v, let location = v["location"]?.int else { return nil }
        return ByteRange(offset: Int64(location), length: v["length"]?.int.map(Int64.init))
    }

    static func headers(_ v: JSONValue?) -> [String: String] {
        guard let o = v?.object else { return [:] }
        var out: [String: String] = [:]
        // In written order, so a repeated header keeps its last value (or none), as a dictionary would.
        for member in o.members {
            let (k, value) = (member.key, member.value)
            if let s = value.string {
                out[k] = s
            } else if let d = value.double {
                out[k] = NumberFormat.trimmed(d, decimals: 3)
            } else {
                out[k] = nil
            }
        }
        return out
    }

    /// A request event (playlist, segment, key or plain resource request) as a `MediaRequest`.
    static func request(type: String, event e: JSONValue, date eventDate: Timestamp?) -> MediaRequest {
        let resource = type == "MediaResourceRequestEvent" ? e : (e["mediaResourceRequestEvent"] ?? .null)
        let url = e["url"]?.string ?? resource["url"]?.string ?? e["contentKeySpecifier"]?["identifier"]?.string ?? ""
        let kind: MediaRequest.Kind =
            switch type {
            case "HLSPlaylistRequestEvent":
                e["isMultivariantPlaylist"]?.bool == true ? .multivariantPlaylist : .mediaPlaylist
            case "HLSMediaSegmentRequestEvent": e["isMapSegment"]?.bool == true ? .map : .segment
            case "ContentKeyRequestEvent": .contentKey
            default: MediaRequest.guessKind(url: url)
            }
        var r = MediaRequest(kind: kind, url: url)
        r.mediaType = e["mediaType"]?.string
        r.byteRange = byteRange(e["byteRange"]) ?? byteRange(resource["byteRange"])
        r.segmentDuration = e["segmentDuration"]?.double
        r.playlistURL = e["indexFileURL"]?.string
        r.serverAddress = resource["serverAddress"]?.string
        r.start = resource["requestStartTime"].flatMap(date) ?? resource["requestEndTime"].flatMap(date)
        r.end = resource["responseEndTime"].flatMap(date) ?? resource["responseStartTime"].flatMap(date) ?? eventDate
        if r.start == nil, r.end != nil, r.end != eventDate { r.start = eventDate }
        r.fromCache = resource["wasReadFromCache"]?.bool ?? resource["readFromCache"]?.bool
        if let err = resource["errorEvent"], !err.isNull { r.error = error(err) }
        if let transactions = resource["networkTransactionMetrics"]?["transactionMetrics"]?.array,
            let last = transactions.last
        {
            r.status = last["response"]?["statusCode"]?.int
            r.responseHeaders = headers(last["response"]?["headers"])
            r.requestHeaders = headers(last["request"]?["headers"])
            var total: Int64 = 0
            var any = false
            for t in transactions {
                if let c = t["countOfResponseBodyBytesReceived"]?.int {
                    total &+= Int64(c)
                    any = true
                }
            }
            if any { r.bytes = total }
        }
        if r.bytes == nil, r.status.map({ $0 < 300 }) ?? (r.error == nil), let len = r.byteRange?.length {
            r.bytes = len
        }
        r.contentEncoding = r.responseHeaders.headerValue("content-encoding")
        r.contentType = r.responseHeaders.headerValue("content-type")
        return r
    }
}
