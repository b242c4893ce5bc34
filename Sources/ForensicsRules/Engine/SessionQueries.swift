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

    /// Every error a source states, with its index: an error event, an error-log row (also one
    /// folded into the request it failed), a console line's error. Requests' own failures are
    /// `requestEntries`.
    var errorEntries: some Sequence<TimelineItem<StatedError>> {
        let entries = entries
        return entries.indices.lazy.flatMap { i in entries[i].statedErrors.map { TimelineItem(entries, i, $0) } }
    }

    /// Proxy events with their index.
    var proxyEntries: some Sequence<TimelineItem<ProxyEvent>> {
        let entries = entries
        return entries.indices.lazy.compactMap { i in entries[i].record.proxyEvent.map { TimelineItem(entries, i, $0) }
        }
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

    /// The entry as evidence, with its timeline position.
    var evidence: Finding.Evidence {
        let e = entry
        return Finding.Evidence(location: e.location, time: e.time, summary: e.record.summary, timelineIndex: index)
    }
}

extension TimelineItem where Value == MediaRequest {
    var request: MediaRequest { value }
}

extension TimelineItem where Value == ProxyEvent {
    var event: ProxyEvent { value }
}

extension TimelineItem where Value == StatedError {
    var error: ErrorInfo { value.error }
    /// The URI an error-log row names.
    var uri: String? { value.uri }
}

/// An error as one view of an entry states it, with the record that states it.
struct StatedError {
    var error: ErrorInfo
    var uri: String?
    var view: Record
}

extension TimelineEntry {
    /// The errors the entry's views state: its own record's, then those of error-log rows folded
    /// into it.
    var statedErrors: [StatedError] {
        var out = Self.stated(record, own: true).map { [$0] } ?? []
        for v in otherViews {
            // An error-log row's repeat (another dump of the cumulative log) states no new error.
            if case .errorLog = record.payload, case .errorLog = v.payload { continue }
            if let e = Self.stated(v, own: false) { out.append(e) }
        }
        return out
    }

    /// The error one view states: any error-log row; an error event or a console line only as
    /// the entry's own record (folded views of those are other sources' copies).
    private static func stated(_ r: Record, own: Bool) -> StatedError? {
        switch r.payload {
        case .errorLog(let e, let uri): return StatedError(error: e, uri: uri, view: r)
        case .error(let e) where own: return StatedError(error: e, uri: nil, view: r)
        case .console(let c) where own: return c.error.map { StatedError(error: $0, uri: nil, view: r) }
        default: return nil
        }
    }
}

func percent(_ v: Double) -> String { "\(NumberFormat.trimmed(v * 100, decimals: 0)) %" }
