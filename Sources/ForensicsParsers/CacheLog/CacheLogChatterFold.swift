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
    /// The largest entry a run keeps unmade as its latest (`foldChunk`): larger ones are made
    /// into events. A slot takes the entry's buffers when they hold at most 8 × this (32 KiB,
    /// line ends included) and copies the entry into its own otherwise (at most 4 KiB of bytes
    /// and 32 KiB of line ends), so a slot holds at most 64 KiB and the raw entries 16 MiB,
    /// whatever the log.
    static let maxRawEntryBytes = 4096

    /// The file the records are read from (a run's latest chunk is made into a record at close).
    let file: String

    init(file: String) { self.file = file }

    /// Compared field by field, cheapest and most telling first, texts byte for byte: a URL or a
    /// pointer is its bytes (`café` precomposed and decomposed are two URLs to a server), and the
    /// run hash (`hash`) reads bytes too — `String ==`'s canonical equivalence folded runs the
    /// byte path (`foldChunk`) keeps apart (probe I).
    struct Key: Equatable {
        static func == (a: Key, b: Key) -> Bool {
            a.kind == b.kind && a.endEcho == b.endEcho && a.requestPath == b.requestPath && same(a.url, b.url)
                && same(a.pointer, b.pointer) && CacheLogChatterFold.sameBytes(a.tag, b.tag)
                && a.references.count == b.references.count
                && zip(a.references, b.references).allSatisfy { CacheLogChatterFold.sameBytes($0, $1) }
                && same(a.sessionID, b.sessionID)
        }

        private static func same(_ a: String?, _ b: String?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): CacheLogChatterFold.sameBytes(a, b)
            default: false
            }
        }

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
        /// The latest entry of the run, not yet written out: a record, or (`lastIsRaw`) the
        /// entry's bytes in `rawLasts`, made into a record only if it is still the latest when
        /// the run closes.
        var last: Record?
        var lastIsRaw = false
        var hasLast: Bool { lastIsRaw || last != nil }
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
    /// `rawLasts[i]` holds `runs[i]`'s latest entry when `runs[i].lastIsRaw`; the slots keep
    /// their buffers from run to run.
    private var rawLasts: [CacheLogPendingEntry] = []

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
        var url = key.url
        var pointer = key.pointer
        let hash = url.withOptionalUTF8 { url in
            pointer.withOptionalUTF8 { pointer in
                Self.hash(kind: key.kind, endEcho: key.endEcho, path: key.requestPath, url: url, pointer: pointer)
            }
        }
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
        foldLast(of: i)
        runs[i].last = record
        runs[i].lastIsRaw = false
        runs[i].lastLine = record.location.line
        runs[i].lastLength = e.contentLength
    }

    /// Folds a progress chunk read from its bytes (`CacheLogChattyClassifier.chunk`, already
    /// linked to `path`) into the open run it continues, keeping the entry unmade as the run's
    /// latest; false when no open run has its key (the caller then makes its event and
    /// `append`s it). The run is matched on the fields `Key` compares, as `append` would match
    /// the chunk's event: the same kind, tag, pointer, URL and path, no reference, no session.
    ///
    /// A folded entry is taken, not copied: `entry` is left holding the buffers of the entry it
    /// replaces (to be re-used for the next one), unless its buffers are too large to keep.
    mutating func foldChunk(
        _ chunk: CacheLogChattyClassifier.Chunk, path: Int?, entry: inout CacheLogPendingEntry
    ) -> Bool {
        guard entry.bytes.count <= Self.maxRawEntryBytes else { return false }
        guard let i = entry.bytes.withUnsafeBufferPointer({ run(continuedBy: chunk, path: path, bytes: $0) }) else {
            return false
        }
        foldLast(of: i)
        while rawLasts.count <= i { rawLasts.append(CacheLogPendingEntry()) }
        runs[i].last = nil
        runs[i].lastIsRaw = true
        runs[i].lastLine = entry.line
        runs[i].lastLength = chunk.contentLength
        if entry.retainedBytes <= Self.maxRawEntryBytes * 8 {
            swap(&rawLasts[i], &entry)
        } else {
            rawLasts[i].copy(from: entry)
        }
        return true
    }

    /// The open run whose key a chunk's fields match, newest first.
    private func run(
        continuedBy chunk: CacheLogChattyClassifier.Chunk, path: Int?, bytes all: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        let pointer = UnsafeBufferPointer(rebasing: all[chunk.pointer])
        let url = chunk.url.map { UnsafeBufferPointer(rebasing: all[$0]) }
        let hash = Self.hash(kind: chunk.kind, endEcho: chunk.endEcho, path: path, url: url, pointer: pointer)
        var k = keys.count
        while k > 0 {
            k -= 1
            if hashes[k] == hash, keys[k].kind == chunk.kind, keys[k].endEcho == chunk.endEcho,
                keys[k].requestPath == path,
                keys[k].sessionID == nil, keys[k].references.isEmpty, Self.sameBytes(keys[k].tag, chunk.tag),
                Self.same(keys[k].pointer, pointer), Self.same(keys[k].url, url)
            {
                return k
            }
        }
        return nil
    }

    /// Counts run `i`'s latest entry into its first: a newer one takes its place.
    private mutating func foldLast(of i: Int) {
        // In place: the run is not copied out and back.
        guard runs[i].hasLast else { return }
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

    /// A hash of a key's most telling fields, the same whether they come from an event
    /// (`append`) or from an entry's bytes (`foldChunk`): FNV-1a over the URL's and pointer's
    /// bytes, mixed with the kind, echo flag and path. Equal hashes are confirmed field by field,
    /// so a collision costs a comparison, never a wrong fold.
    static func hash(
        kind: ProxyEvent.Kind, endEcho: Bool, path: Int?, url: UnsafeBufferPointer<UInt8>?,
        pointer: UnsafeBufferPointer<UInt8>?
    ) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ word: UInt64) {
            h = (h ^ word) &* 0x0000_0100_0000_01b3
            h ^= h >> 29
        }
        // Eight bytes at a time, then the tail; the length keeps `ab`+`c` apart from `a`+`bc`.
        func mix(_ bytes: UnsafeBufferPointer<UInt8>?) {
            guard let bytes else { return mix(UInt64.max) }
            mix(UInt64(bytes.count))
            guard let base = bytes.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            var at = 0
            while at + 8 <= bytes.count {
                mix(raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                at += 8
            }
            var tail: UInt64 = 0
            while at < bytes.count {
                tail = tail << 8 | UInt64(bytes[at])
                at += 1
            }
            mix(tail)
        }
        // Only chatter is folded: these are the kinds a key can have.
        let kindCode: UInt64 =
            switch kind {
            case .networkData: 1
            case .downloadData: 2
            case .generic: 3
            default: 4
            }
        mix(kindCode << 1 | (endEcho ? 1 : 0))
        mix(UInt64(bitPattern: Int64(path ?? -1)))
        mix(url)
        mix(pointer)
        return Int(truncatingIfNeeded: h)
    }

    /// Whether two texts have the same bytes (not `String ==`'s canonical equivalence), by one
    /// `memcmp`: the generic element-by-element comparison was a sixth of reading a proxy log.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.hasSameBytes(as: y) } }
    }

    /// Whether a key's text has exactly these bytes (both absent counts as the same).
    private static func same(_ text: String?, _ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        switch (text, bytes) {
        case (nil, nil): return true
        case (var text?, let bytes?): return text.withUTF8 { $0.hasSameBytes(as: bytes) }
        default: return false
        }
    }

    /// The record of a chunk entry linked to `path`, made as the parser makes it.
    func record(ofChunk entry: CacheLogPendingEntry, path: Int?) -> Record {
        let location = SourceLocation(file: file, line: entry.line)
        if var e = CacheLogChattyClassifier.classify(entry) {
            if let path { e.requestPath = path }
            return Record(time: entry.time, location: location, format: .cacheLog, sessionID: nil, payload: .proxy(e))
        }
        // Not reached: a chunk is an entry the chatty classifier types. Should it change, the
        // general classifier still keeps the entry.
        let texts = entry.entry()
        switch CacheLogClassifier.classify(texts, fullText: texts.fullText) {
        case .proxy(var e, _):
            if let path { e.requestPath = path }
            return Record(
                time: entry.time, location: location, format: .cacheLog, sessionID: e.playbackSessionID,
                payload: .proxy(e))
        case .console(let line):
            return Record(
                time: entry.time, location: location, format: .cacheLog, sessionID: nil, payload: .console(line))
        }
    }

    /// Ends every open run: writes what was folded into each first record and puts each last
    /// record back at its place in line order.
    mutating func close(_ records: inout [Record]) {
        guard !runs.isEmpty else { return }
        var lasts: [Record] = []
        for (index, run) in runs.enumerated() {
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
            if let last = run.last {
                lasts.append(last)
            } else if run.lastIsRaw, rawLasts.indices.contains(index) {
                lasts.append(record(ofChunk: rawLasts[index], path: keys[index].requestPath))
            }
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

extension Optional where Wrapped == String {
    /// The string's UTF-8 bytes, or nil for no string.
    fileprivate mutating func withOptionalUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard var text = self else { return body(nil) }
        return text.withUTF8 { body($0) }
    }
}
