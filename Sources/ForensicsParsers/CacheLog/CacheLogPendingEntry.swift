import ForensicsCore

/// The entry being read, kept as bytes until it is complete: its first line's body and the
/// continuation lines after it, back to back in one buffer that the next entry re-uses.
///
/// Why bytes: most entries of a proxy log are progress chatter (`Receive data`, `Read data`) that
/// `CacheLogChattyClassifier` types straight from these bytes. Making a `String` of every line
/// first, as the parser did, was an allocation per line and then per-`Character` work on each;
/// now only the entries that take the general classifier become texts (`entry()`).
struct CacheLogPendingEntry {
    private(set) var line = 0
    private(set) var time: Timestamp?
    private(set) var prefix: String?
    /// Text before the first entry of an excerpt (the tail of an entry cut off).
    private(set) var orphan = false
    /// Whether an entry has started and not been handed out.
    private(set) var isOpen = false
    /// The body, then each kept continuation line; `lineEnds[i]` is where line i ends (0 is the body).
    private(set) var bytes: [UInt8] = []
    private(set) var lineEnds: [Int] = []
    private(set) var continuationBytes = 0
    var droppedLines = 0
    /// No byte of the entry is 0x80 or above: byte and `Character` semantics agree on it.
    private(set) var isASCII = true

    /// Once an entry this large has been held, the buffer is given back rather than kept.
    private static let retainedCapacity = 1 << 20

    var continuationCount: Int { max(lineEnds.count - 1, 0) }

    /// The bytes the entry's buffers hold on to, in use or not.
    var retainedBytes: Int { bytes.capacity + lineEnds.capacity * MemoryLayout<Int>.stride }

    /// The line numbers of the continuation lines, for `range(ofLine:)` (0 is the body).
    var continuationLines: Range<Int> { 1..<max(lineEnds.count, 1) }

    mutating func start(
        line: Int, time: Timestamp?, prefix: String?, body: UnsafeBufferPointer<UInt8>, orphan: Bool = false
    ) {
        if bytes.capacity > Self.retainedCapacity {
            bytes = []
        } else {
            bytes.removeAll(keepingCapacity: true)
        }
        lineEnds.removeAll(keepingCapacity: true)
        self.line = line
        self.time = time
        self.prefix = prefix
        self.orphan = orphan
        isOpen = true
        continuationBytes = 0
        droppedLines = 0
        isASCII = body.isASCII
        bytes.append(contentsOf: body)
        lineEnds.append(bytes.count)
    }

    mutating func appendContinuation(_ text: UnsafeBufferPointer<UInt8>) {
        continuationBytes += text.count
        if isASCII { isASCII = text.isASCII }
        bytes.append(contentsOf: text)
        lineEnds.append(bytes.count)
    }

    mutating func close() { isOpen = false }

    /// Becomes a copy of `other`, in this entry's own buffers (no allocation once they are large
    /// enough): `CacheLogChatterFold` keeps a run's latest chunk this way, unmade.
    mutating func copy(from other: CacheLogPendingEntry) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: other.bytes)
        lineEnds.removeAll(keepingCapacity: true)
        lineEnds.append(contentsOf: other.lineEnds)
        line = other.line
        time = other.time
        prefix = other.prefix
        orphan = other.orphan
        isOpen = other.isOpen
        continuationBytes = other.continuationBytes
        droppedLines = other.droppedLines
        isASCII = other.isASCII
    }

    /// Where line `i` lies in `bytes` (0 is the body); empty when there is no such line.
    func range(ofLine i: Int) -> Range<Int> {
        guard i >= 0, i < lineEnds.count else { return 0..<0 }
        let start = i == 0 ? 0 : lineEnds[i - 1]
        return start..<lineEnds[i]
    }

    /// The entry as texts, for the classifiers that read strings.
    func entry() -> CacheLogEntry {
        bytes.withUnsafeBufferPointer { b in
            func text(_ r: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self)
            }
            var e = CacheLogEntry(line: line, time: time, prefix: prefix, body: text(range(ofLine: 0)), orphan: orphan)
            e.continuation = continuationLines.map { text(range(ofLine: $0)) }
            return e
        }
    }
}
