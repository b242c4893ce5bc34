import ForensicsCore

/// Questions rules ask of a session's timeline, written once.
extension Session {
    /// Entries that are requests, with their index.
    ///
    /// Lazy: every rule walks this, and building it as an array copied every request entry of
    /// the session once per rule (tens of megabytes for a long dump) before any rule filtered it.
    /// An item reads its entry only when asked (`item.entry`): a `TimelineEntry` is a large value
    /// full of references, and most rules drop most requests after looking at the request alone.
    var requestEntries: some Sequence<TimelineItem<MediaRequest>> {
        let entries = entries
        return entries.indices.lazy.compactMap { i in entries[i].record.request.map { TimelineItem(entries, i, $0) } }
    }

    /// The request as the best source saw it, with a failure seen by any source folded in.
    func mergedRequest(_ entry: TimelineEntry) -> MediaRequest? {
        guard var r = entry.record.request else { return nil }
        for other in entry.otherViews {
            guard let o = other.request else { continue }
            if r.status == nil { r.status = o.status }
            if r.error == nil { r.error = o.error }
            if r.bytes == nil { r.bytes = o.bytes }
            if r.contentEncoding == nil { r.contentEncoding = o.contentEncoding }
            if r.contentType == nil { r.contentType = o.contentType }
            if r.segmentDuration == nil { r.segmentDuration = o.segmentDuration }
        }
        return r
    }

    /// Media requests (segments and maps) that failed: HTTP ≥ 400 or a transport error.
    var failedMediaRequests: some Sequence<TimelineItem<MediaRequest>> {
        let session = self
        return requestEntries.lazy.compactMap { item in
            // Merging other views never changes the kind: test it before paying for the merge.
            guard item.request.kind == .segment || item.request.kind == .map else { return nil }
            // Without other views the request is already the merged one.
            let entry = item.entry
            let r = entry.otherViews.isEmpty ? item.request : session.mergedRequest(entry)
            guard let r, r.failed else { return nil }
            return TimelineItem(item.entries, item.index, r)
        }
    }

    /// Error-log rows and error events that report an HTTP status, for sources without requests.
    var reportedHTTPErrors: [(index: Int, entry: TimelineEntry, status: Int, uri: String?)] {
        entries.enumerated().compactMap { i, e in
            switch e.record.payload {
            case .errorLog(let err, let uri):
                return err.httpStatus.map { (i, e, $0, uri) }
            case .error(let err):
                return err.httpStatus.map { (i, e, $0, nil) }
            default:
                return nil
            }
        }
    }

    /// The captured multivariant playlist, if any source holds its body.
    var multivariantSnapshot: PlaylistSnapshot? {
        for e in entries {
            if case .playlist(let p) = e.record.payload, p.isMultivariant { return p }
        }
        return nil
    }

    /// Which source kinds are absent, for "what limited this finding" notes.
    func missingSources(_ wanted: [InputFormat]) -> [String] {
        wanted.filter { !sources.contains($0) }.map(\.rawValue)
    }

    /// Proxy events with their index.
    var proxyEntries: some Sequence<TimelineItem<ProxyEvent>> {
        let entries = entries
        return entries.indices.lazy.compactMap { i in entries[i].record.proxyEvent.map { TimelineItem(entries, i, $0) } }
    }
}

/// One timeline entry's typed payload (a request, a proxy event) with its position; the entry
/// itself is read from the timeline when asked for.
struct TimelineItem<Value> {
    let entries: [TimelineEntry]
    let index: Int
    let value: Value

    init(_ entries: [TimelineEntry], _ index: Int, _ value: Value) {
        self.entries = entries
        self.index = index
        self.value = value
    }

    var entry: TimelineEntry { entries[index] }
}

extension TimelineItem where Value == MediaRequest {
    var request: MediaRequest { value }
}

extension TimelineItem where Value == ProxyEvent {
    var event: ProxyEvent { value }
}

/// Union length of intervals (seconds), so overlapping requests of one phase count once.
func unionLength(_ intervals: [(Double, Double)]) -> Double {
    let sorted = intervals.filter { $0.1 > $0.0 }.sorted { $0.0 < $1.0 }
    var total = 0.0
    var current: (Double, Double)?
    for iv in sorted {
        if let c = current, iv.0 <= c.1 {
            current = (c.0, max(c.1, iv.1))
        } else {
            if let c = current { total += c.1 - c.0 }
            current = iv
        }
    }
    if let c = current { total += c.1 - c.0 }
    return total
}

func percent(_ v: Double) -> String { "\(NumberFormat.trimmed(v * 100, decimals: 0)) %" }
