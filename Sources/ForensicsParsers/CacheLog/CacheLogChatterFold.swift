import ForensicsCore

/// Folds the proxy's per-chunk progress entries into runs as the log is read, so that a log's
/// record count follows its requests, not its bytes.
///
/// Why: KTVHTTPCache logs every 16 KiB chunk several times over (`Receive data : …` of the network
/// source, `Receive data - Begin` of the download module, `Read data : …` of the response, reader
/// and source manager). They are nearly every line of a real log; kept one record each, a 200 MB
/// log was 1.6 million records and 1.1 GB of memory, and the record limit stopped reading at a
/// sixth of it.
///
/// A run is the chunks of one kind, module, object, URL, references and request path met with no
/// other entry in between (other runs may interleave); a chunk's `Receive data - End` line, the
/// same chunk logged again, runs apart from the `Begin` lines. It is kept as two records: its first
/// entry, which counts the entries folded into it (`foldedEntries`, `foldedThroughLine`) and
/// carries their bytes — the largest running total for `network-data`, the sum of the chunks for
/// `download-data`, which is what `ProxyDownloads` takes from each — and its last entry, as it
/// was, so that the run's time span and both ends' lines stay in the evidence.
///
/// Any other entry ends every open run first: the entries that could change what a chunk is
/// attributed to (a new download, a new network source, a failure) are never inside a run.
/// Records come out in line order. The request path must be set before folding
/// (`CacheLogPathLinker.link`), so that paths are decided by every entry as logged.
struct CacheLogChatterFold {
    /// The most runs open at once; one more ends them all (bounded memory on any log).
    static let maxOpenRuns = 256

    /// Compared field by field, cheapest and most telling first (`==` follows declaration order).
    struct Key: Equatable {
        var kind: ProxyEvent.Kind
        /// A chunk's `Receive data - End` line is a run of its own: only Begin lines count bytes.
        var endEcho: Bool
        var requestPath: Int?
        var url: String?
        var pointer: String?
        var tag: String
        var references: [String]
        var sessionID: String?
    }

    struct Run {
        /// Where the run's first record is in the output.
        var first: Int
        /// Entries folded into the first (the last one is not: it is `last`).
        var folded = 0
        var foldedThroughLine: Int?
        /// The largest `contentLength` among the first and folded entries (`network-data`).
        var largest: Int64?
        /// The saturating sum of the positive `contentLength`s of the first and folded entries
        /// (`download-data`).
        var sum: Int64?
        /// The latest entry of the run, not yet written out.
        var last: Record?
        /// The latest entry's line and bytes, kept apart: reading them back out of `last` copied
        /// its whole event out of the record's box, for every chunk line of the log.
        var lastLine = 0
        var lastLength: Int64?
    }

    /// The open runs, oldest first. Searched from the newest: a log interleaves a handful of runs
    /// at a time, and comparing a few keys costs far less than hashing one (a dictionary here
    /// was 40 % of reading a proxy log).
    private var runs: [Run] = []
    /// `keys[i]` is the key of `runs[i]`, and `hashes[i]` a hash of its most telling fields: the
    /// search compares integers, and a whole key only where they agree.
    private var keys: [Key] = []
    private var hashes: [Int] = []

    /// How many runs are open: each holds back at most one record (its last) until it closes.
    var openRuns: Int { runs.count }

    /// Whether an event is progress chatter that may be folded (`Read data : …`, any ASCII case,
    /// is the response's, reader's and sources' per-chunk line).
    static func isChatter(_ e: ProxyEvent) -> Bool {
        guard e.error == nil, e.status == nil, e.range == nil, e.headers.isEmpty else { return false }
        switch e.kind {
        case .networkData, .downloadData: return true
        case .generic: return CaseInsensitiveText(e.message).hasPrefix("read data :")
        default: return false
        }
    }

    /// Adds the next record of the log (in line order) to `records`, folding it into its run.
    mutating func append(_ record: Record, to records: inout [Record]) {
        guard case .proxy(let e) = record.payload, Self.isChatter(e) else {
            close(&records)
            records.append(record)
            return
        }
        let key = Key(
            kind: e.kind, endEcho: e.isChunkEndEcho, requestPath: e.requestPath, url: e.url, pointer: e.pointer,
            tag: e.tag, references: e.references, sessionID: record.sessionID)
        var hasher = Hasher()
        hasher.combine(key.kind)
        hasher.combine(key.endEcho)
        hasher.combine(key.requestPath)
        hasher.combine(key.url)
        hasher.combine(key.pointer)
        let hash = hasher.finalize()
        var found: Int?
        var k = hashes.count
        while k > 0 {
            k -= 1
            if hashes[k] == hash, keys[k] == key {
                found = k
                break
            }
        }
        guard let i = found else {
            if runs.count >= Self.maxOpenRuns { close(&records) }
            records.append(record)
            runs.append(Run(first: records.count - 1, largest: e.contentLength, sum: Self.positive(e.contentLength)))
            keys.append(key)
            hashes.append(hash)
            return
        }
        // In place: the run is not copied out and back.
        if runs[i].last != nil {
            runs[i].folded += 1
            runs[i].foldedThroughLine = runs[i].lastLine
            if let length = runs[i].lastLength {
                runs[i].largest = max(runs[i].largest ?? length, length)
            }
            if let chunk = Self.positive(runs[i].lastLength) {
                let total = (runs[i].sum ?? 0).addingReportingOverflow(chunk)
                runs[i].sum = total.overflow ? Int64.max : total.partialValue
            }
        }
        runs[i].last = record
        runs[i].lastLine = record.location.line
        runs[i].lastLength = e.contentLength
    }

    /// Ends every open run: writes what was folded into each first record and puts each last
    /// record back at its place in line order.
    mutating func close(_ records: inout [Record]) {
        guard !runs.isEmpty else { return }
        var lasts: [Record] = []
        for run in runs {
            if run.folded > 0, records.indices.contains(run.first), case .proxy(var e) = records[run.first].payload {
                e.foldedEntries = run.folded
                e.foldedThroughLine = run.foldedThroughLine
                switch e.kind {
                case .networkData: e.contentLength = run.largest
                case .downloadData: e.contentLength = run.sum ?? e.contentLength
                default: break
                }
                records[run.first].payload = .proxy(e)
            }
            if let last = run.last { lasts.append(last) }
        }
        runs.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        // Every record written since a last one was read is a run's first, and there are at most
        // `maxOpenRuns` of them: each last goes back a few places at most.
        lasts.sort { $0.location.line < $1.location.line }
        for last in lasts {
            var at = records.endIndex
            while at > records.startIndex, records[at - 1].location.line > last.location.line { at -= 1 }
            records.insert(last, at: at)
        }
    }

    static func positive(_ length: Int64?) -> Int64? {
        guard let length, length > 0 else { return nil }
        return length
    }
}
