import ForensicsCore

/// The proxy's downloads from the origin in a session, with the bytes each actually received.
///
/// A download is the download module's `Add Request` (1.0.x: `add download begin`): its URL and
/// the start of its `Range`. What it received comes from whichever the log shows, largest wins:
/// the network source's running total (`Receive data : chunk, total, …`; tied to the download by
/// the data request both name, or — 1.0.x logs no pointers — to the latest download), the
/// download module's chunks for that URL (each counted at its `Begin` line only: its `End` line is
/// the same chunk), or a completion without error of a known range. A
/// download with none of these received an unknown amount and is left out, never counted as whole.
enum ProxyDownloads {
    struct Download {
        var index: Int
        var url: String
        var start: Int64
        var length: Int64?
        /// The data request pointer the download was made for (`request : <KTVHCDataRequest: 0x…>`).
        var request: String?
        var received: Int64?
        /// Timeline indices of its entries, ascending (entries are met in timeline order).
        var indices: [Int]
        /// The download ended in an error or an HTTP error response: a failed attempt, whatever
        /// it received before failing, is no re-download.
        var failed = false

        mutating func receive(atLeast bytes: Int64, at i: Int) {
            received = max(received ?? 0, bytes)
            // Ascending: only the last can be `i` again. (`contains` here made a download of
            // 100,000 chunks quadratic: 8.9 s for one 200,000-line log.)
            if indices.last != i { indices.append(i) }
        }
    }

    static func received(in session: Session) -> [Download] {
        var downloads: [Download] = []
        var requestOfSource: [String: String] = [:]
        var rangeOfSource: [String: ByteRange] = [:]
        var chunkTotals: [Int: Int64] = [:]
        for (i, entry) in session.entries.enumerated() {
            guard let e = entry.record.proxyEvent else { continue }
            switch e.kind {
            case .networkSource:
                if let p = e.pointer {
                    if let r = e.references.first { requestOfSource[p] = r }
                    if let range = e.range { rangeOfSource[p] = range }
                }
            case .downloadRequest:
                guard let url = e.url else { continue }
                let start = e.range?.offset ?? 0
                downloads.append(
                    Download(
                        index: i, url: url, start: start, length: e.range?.length, request: e.references.first,
                        received: nil, indices: [i]))
            case .networkFailed:
                if let d = download(for: e, in: downloads, requestOfSource: requestOfSource) {
                    downloads[d].failed = true
                }
            case .downloadInvalidResponse:
                if let d = downloads.indices.last { downloads[d].failed = true }
            case .downloadResponse:
                if (e.status ?? 0) >= 400, let d = downloads.indices.last { downloads[d].failed = true }
            case .networkData, .networkComplete:
                guard let d = download(for: e, in: downloads, requestOfSource: requestOfSource) else { continue }
                var bytes = e.contentLength ?? 0
                if e.kind == .networkComplete {
                    bytes = downloads[d].length ?? e.pointer.flatMap { rangeOfSource[$0]?.length } ?? 0
                }
                downloads[d].receive(atLeast: max(0, bytes), at: i)
            case .downloadData:
                // Each chunk is logged at its Begin and again at its End: count it once.
                guard !e.isChunkEndEcho, let len = e.contentLength, len > 0,
                    let d = downloads.lastIndex(where: { e.url == nil || $0.url == e.url })
                else { continue }
                let total = chunkTotals[d, default: 0].addingReportingOverflow(len)
                chunkTotals[d] = total.overflow ? Int64.max : total.partialValue
                downloads[d].receive(atLeast: chunkTotals[d] ?? 0, at: i)
            case .downloadComplete:
                guard let d = downloads.indices.last else { continue }
                if e.error != nil {
                    downloads[d].failed = true
                    continue
                }
                // Success of a known range: the whole range arrived.
                guard let length = downloads[d].length else { continue }
                downloads[d].receive(atLeast: length, at: i)
            default:
                continue
            }
        }
        return downloads
    }

    /// The download a network source's entry belongs to: the one made for the same data request,
    /// else (no pointers, as in 1.0.x) the latest.
    static func download(for e: ProxyEvent, in downloads: [Download], requestOfSource: [String: String]) -> Int? {
        if let p = e.pointer, let request = requestOfSource[p] {
            return downloads.lastIndex { $0.request == request }
        }
        return e.pointer == nil ? downloads.indices.last : nil
    }

    /// Bytes received more than once among downloads of one resource: the bytes received again,
    /// the most times one byte was received, and which downloads took part.
    static func overlap(_ list: [Download]) -> (bytes: Int64, depth: Int, involved: Set<Int>) {
        var spans: [(start: Int64, end: Int64, index: Int)] = []
        for d in list {
            guard let r = d.received, r > 0 else { continue }
            let end = d.start.addingReportingOverflow(r)
            spans.append((d.start, end.overflow ? Int64.max : end.partialValue, d.index))
        }
        // Sweep the span boundaries: depth = how many downloads received the bytes there.
        var points: [(at: Int64, delta: Int)] = []
        for s in spans {
            points.append((s.start, 1))
            points.append((s.end, -1))
        }
        points.sort { $0.at != $1.at ? $0.at < $1.at : $0.delta < $1.delta }
        var depth = 0
        var maxDepth = 0
        var again: Int64 = 0
        var previous: Int64 = 0
        for p in points {
            if depth > 1 {
                let width = p.at - previous
                let extra = width.multipliedReportingOverflow(by: Int64(depth - 1))
                let sum = again.addingReportingOverflow(extra.overflow ? Int64.max : extra.partialValue)
                again = sum.overflow ? Int64.max : sum.partialValue
            }
            depth += p.delta
            maxDepth = max(maxDepth, depth)
            previous = p.at
        }
        // A download overlaps an earlier-starting one when it starts before the furthest end so far.
        var involved: Set<Int> = []
        var furthest: (end: Int64, index: Int)?
        for s in spans.sorted(by: { $0.start != $1.start ? $0.start < $1.start : $0.index < $1.index }) {
            if let f = furthest, s.start < f.end {
                involved.insert(s.index)
                involved.insert(f.index)
            }
            if furthest.map({ s.end > $0.end }) ?? true { furthest = (s.end, s.index) }
        }
        return (again, maxDepth, involved)
    }
}
