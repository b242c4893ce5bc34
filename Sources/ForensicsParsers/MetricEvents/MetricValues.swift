import ForensicsCore

/// Conversions of the dump's value forms (dates, CMTime, nested objects) to the core vocabulary.
enum MetricValues {
    /// ISO 8601 string (offset optional, UTC when absent) or seconds since 1970.
    static func date(_ v: JSONNode) -> Timestamp? {
        switch v.kind {
        case .number: return v.double.flatMap { Timestamp.isPlausible($0) ? Timestamp($0) : nil }
        case .string: return v.plainStringBytes.flatMap { TimestampParser.parseBytes($0) }
        case .escapedString: return v.string.flatMap { TimestampParser.parse($0) }
        default: return nil
        }
    }

    /// Seconds, or a CMTime object; nil for invalid, indefinite or infinite times.
    static func mediaTime(_ v: JSONNode) -> Double? {
        switch v.kind {
        case .number: return v.double
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

    /// The seconds loaded ahead of `mediaTime` in `loadedTimeRanges` (`[{"start", "duration"}]`,
    /// either in seconds or as CMTime): nil without both, 0 when no range holds the play head
    /// (half a second of slack: the ranges are rounded to segment boundaries), nil too when the
    /// list has ranges but none could be read (unknown is not an empty buffer). At most a day.
    static func bufferedAhead(_ ranges: JSONNode?, mediaTime: Double?) -> Double? {
        guard let ranges, let mediaTime, mediaTime.isFinite, let elements = ranges.elements else { return nil }
        var best = 0.0
        var read = 0
        for r in elements.prefix(64) {
            guard let start = r["start"].flatMap(Self.mediaTime), let duration = r["duration"].flatMap(Self.mediaTime),
                start.isFinite, duration.isFinite, duration >= 0
            else { continue }
            read += 1
            let end = start + duration
            if start - 0.5 <= mediaTime, mediaTime <= end { best = max(best, end - mediaTime) }
        }
        guard read > 0 || elements.isEmpty else { return nil }
        return min(best, 86_400)
    }

    /// A variant's bit rates above 10 Gbit/s, not finite, or not above 0 are no bit rate a player
    /// chose (probe N: a peak of 1e300 made a time-weighted bitrate of 6.5e293 Mbit/s): unknown,
    /// and named in `impossible` for the caller's warning.
    static func variant(_ v: JSONNode, impossible: inout [String]) -> Variant? {
        guard v.isObject else { return nil }
        func rate(_ key: StaticString) -> Double? {
            guard let r = v[key]?.double else { return nil }
            guard r.isFinite, r > 0, r <= 1e10 else {
                impossible.append("\(key) \(r)")
                return nil
            }
            return r
        }
        return Variant(peakBitRate: rate("peakBitRate"), averageBitRate: rate("averageBitRate"), url: v["url"]?.string)
    }

    static func error(_ v: JSONNode) -> ErrorInfo? {
        guard v.isObject else { return nil }
        let inner = v["error"] ?? v
        guard inner["domain"] != nil || inner["code"] != nil || inner["localizedDescription"] != nil else { return nil }
        return ErrorInfo(
            domain: inner["domain"]?.string, code: inner["code"]?.int,
            description: inner["localizedDescription"]?.string,
            didRecover: v["didRecover"]?.bool)
    }

    static func byteRange(_ v: JSONNode?) -> ByteRange? {
        guard let v, let location = v["location"]?.int else { return nil }
        return ByteRange(offset: Int64(location), length: v["length"]?.int.map(Int64.init))
    }

    static func headers(_ v: JSONNode?) -> [String: String] {
        guard let v, v.isObject else { return [:] }
        var out: [String: String] = [:]
        // In written order, so a repeated header keeps its last value (or none), as a dictionary would.
        for member in v.members {
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

    /// The keys `request` asks of a request event, and of its resource request: each case is
    /// named as its key, and `rawValue` is its place in the list.
    enum EventKey: Int, CaseIterable {
        case mediaResourceRequestEvent, url, contentKeySpecifier, isMultivariantPlaylist, isMapSegment, mediaType
        case byteRange, segmentDuration, indexFileURL
    }
    static let eventKeys = JSONKeys(EventKey.allCases.map { "\($0)" })

    enum ResourceKey: Int, CaseIterable {
        case url, byteRange, serverAddress, requestStartTime, requestEndTime, responseEndTime, responseStartTime
        case wasReadFromCache, readFromCache, errorEvent, networkTransactionMetrics
    }
    static let resourceKeys = JSONKeys(ResourceKey.allCases.map { "\($0)" })

    /// A request event (playlist, segment, key or plain resource request) as a `MediaRequest`.
    static func request(
        type: MetricEventType, event e: JSONNode, date eventDate: Timestamp?, recent: inout MetricRecentValues
    ) -> MediaRequest {
        // Every key asked of the event and of its resource request, in one pass over each.
        e.members(Self.eventKeys, into: &recent.eventMembers)
        let ev = recent.eventMembers
        func event(_ k: EventKey) -> JSONNode? { ev.indices.contains(k.rawValue) ? ev[k.rawValue] : nil }
        let resource = type == .resourceRequest ? e : event(.mediaResourceRequestEvent)
        if let resource {
            resource.members(Self.resourceKeys, into: &recent.resourceMembers)
        } else {
            recent.resourceMembers.removeAll(keepingCapacity: true)
        }
        let res = recent.resourceMembers
        func resourceValue(_ k: ResourceKey) -> JSONNode? { res.indices.contains(k.rawValue) ? res[k.rawValue] : nil }
        let url =
            event(.url)?.string ?? resourceValue(.url)?.string ?? event(.contentKeySpecifier)?["identifier"]?.string
            ?? ""
        let kind: MediaRequest.Kind =
            switch type {
            case .playlistRequest:
                event(.isMultivariantPlaylist)?.bool == true ? .multivariantPlaylist : .mediaPlaylist
            case .segmentRequest: event(.isMapSegment)?.bool == true ? .map : .segment
            case .contentKeyRequest: .contentKey
            default: MediaRequest.guessKind(url: url)
            }
        var r = MediaRequest(kind: kind, url: url)
        // The rarer fields are gathered apart and stored once, through the box of the previous
        // request when equal (most of a session's requests share headers and server address).
        var d = MediaRequest.Details()
        r.mediaType = MetricRecentValues.string(event(.mediaType), &recent.mediaType)
        d.byteRange = byteRange(event(.byteRange)) ?? byteRange(resourceValue(.byteRange))
        r.segmentDuration = event(.segmentDuration)?.double
        r.playlistURL = MetricRecentValues.string(event(.indexFileURL), &recent.playlistURL)
        d.serverAddress = MetricRecentValues.string(resourceValue(.serverAddress), &recent.serverAddress)
        r.start = resourceValue(.requestStartTime).flatMap(date) ?? resourceValue(.requestEndTime).flatMap(date)
        r.end =
            resourceValue(.responseEndTime).flatMap(date) ?? resourceValue(.responseStartTime).flatMap(date)
            ?? eventDate
        if r.start == nil, r.end != nil, r.end != eventDate { r.start = eventDate }
        r.fromCache = resourceValue(.wasReadFromCache)?.bool ?? resourceValue(.readFromCache)?.bool
        if let err = resourceValue(.errorEvent), !err.isNull { d.error = error(err) }
        if let transactions = resourceValue(.networkTransactionMetrics)?["transactionMetrics"]?.elements,
            let last = transactions.last
        {
            r.status = last["response"]?["statusCode"]?.int
            let response = MetricRecentValues.responseHeaders(last["response"]?["headers"], &recent.responseHeaders)
            d.responseHeaders = response.headers
            d.contentType = response.contentType
            d.contentEncoding = response.contentEncoding
            d.requestHeaders = MetricRecentValues.headers(last["request"]?["headers"], &recent.requestHeaders)
            var total: Int64 = 0
            var any = false
            for t in transactions {
                if let c = t["countOfResponseBodyBytesReceived"]?.int {
                    // Saturating: the counts are the input's.
                    let (sum, overflow) = total.addingReportingOverflow(Int64(c))
                    total = overflow ? (c < 0 ? Int64.min : Int64.max) : sum
                    any = true
                }
            }
            if any { r.bytes = total }
        }
        if r.bytes == nil, r.status.map({ $0 < 300 }) ?? (d.error == nil), let len = d.byteRange?.length {
            r.bytes = len
        }
        recent.details.set(d, on: &r)
        return r
    }
}
