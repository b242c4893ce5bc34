import Foundation
import ForensicsCore

/// Reads KTVHTTPCache full-path logs (record-log file or console output, library 1.x–3.x; see
/// `shared/spec/ktvhttpcache-log.md`): joins multi-line entries, types every template the
/// forensics needs, and keeps the rest as generic entries with their tag.
package struct CacheLogParser {
    package let file: String
    /// The most continuation lines kept for one entry; more are counted and dropped with a diagnostic.
    package let maxEntryLines: Int
    /// The most bytes of continuation text kept for one entry (a dump of many 8 MiB lines must
    /// not hold gigabytes); more lines are counted and dropped with a diagnostic.
    package var maxEntryBytes = 16 << 20

    /// How many entries feed the version clues at most.
    static let entriesToObserve = 2000

    /// Most records read from the file (the bundle's budget decides).
    package var maxRecords = Int.max

    /// Whether a progress chunk that continues an open run is folded from its bytes
    /// (`CacheLogChatterFold.foldChunk`) rather than made into an event first. Both give the same
    /// records; tests turn it off to show that.
    package var foldsChunksFromBytes = true

    package init(file: String, maxEntryLines: Int = 4096) {
        self.file = file
        self.maxEntryLines = maxEntryLines
    }

    package func parse(lines reader: inout LineReader) throws -> ParseResult {
        var folded = 0
        return try parse(lines: &reader, chunksFoldedFromBytes: &folded)
    }

    /// `parse(lines:)`, counting the chunks folded from their bytes (tests show the fast path ran).
    package func parse(lines reader: inout LineReader, chunksFoldedFromBytes: inout Int) throws -> ParseResult {
        var result = ParseResult(file: file, format: .cacheLog)
        var pending = CacheLogPendingEntry()
        var version = KTVHTTPCacheVersionEvidence()
        var observed = 0
        var earliest = Double.infinity
        var sawError = false
        var stalled = false
        var rendering = false
        var linker = CacheLogPathLinker()
        var fold = CacheLogChatterFold(file: file)
        var times = CacheLogLine.TimeCache()
        func flush(_ pending: inout CacheLogPendingEntry, into result: inout ParseResult) {
            guard pending.isOpen else { return }
            defer { pending.close() }
            if pending.droppedLines > 0 {
                result.diagnose(
                    Diagnostic(
                        SourceLocation(file: file, line: pending.line), .warning,
                        "entry too long: \(pending.droppedLines) continuation line\(pending.droppedLines == 1 ? "" : "s") not kept"
                    ))
            }
            // The time is compared as a number: formatting every entry's date cost 40 %.
            if let t = pending.time?.secondsSince1970, t < earliest { earliest = t }
            // A chunk that continues an open run is folded from its bytes: no event is made of it
            // unless it is still its run's latest when the run closes. Not while the version
            // clues still read entries (they read the event and the whole text).
            if foldsChunksFromBytes, fold.openRuns > 0,
                version.settled != nil || observed >= CacheLogParser.entriesToObserve,
                foldChunk(&pending, into: &result)
            {
                return
            }
            // Progress chatter is typed from the bytes; everything else becomes texts first.
            var full: String?
            let classified: CacheLogClassifier.Classified
            if let event = CacheLogChattyClassifier.classify(pending) {
                classified = .proxy(event, hadPointer: true)
                #if DEBUG || FUZZING
                let texts = pending.entry()
                let general = CacheLogClassifier.classify(texts, fullText: texts.fullText)
                guard case .proxy(let expected, true) = general, expected == event else {
                    preconditionFailure("chatty classifier disagrees at line \(pending.line): \(event) vs \(general)")
                }
                #endif
            } else {
                let texts = pending.entry()
                // Joined once: the classifier and the version clues both read the whole message.
                let joined = texts.fullText
                full = joined
                classified = CacheLogClassifier.classify(texts, fullText: joined)
            }
            // The version shows in the first entries of a log; looking further costs time for nothing.
            if version.settled == nil, observed < CacheLogParser.entriesToObserve {
                observed += 1
                let text = full ?? pending.entry().fullText
                switch classified {
                case .proxy(let e, let hadPointer): version.observe(e, hadPointer: hadPointer, fullText: text)
                case .console: version.observeURLsAndErrors(text)
                }
            }
            // The event is linked and boxed once: copying the enum that carries it (a large
            // struct of strings) three times per entry was a fifth of reading a proxy log.
            var record: Record
            switch classified {
            case .proxy(var e, _):
                if e.error != nil { sawError = true }
                linker.link(&e)
                record = Record(
                    time: pending.time, location: SourceLocation(file: file, line: pending.line), format: .cacheLog,
                    sessionID: e.playbackSessionID, payload: .proxy(e))
            case .console(let line):
                record = Record(
                    time: pending.time, location: SourceLocation(file: file, line: pending.line), format: .cacheLog,
                    sessionID: nil, payload: .console(line))
            }
            // ijkplayer's buffering start and end are the session's stalls (a repeated start while
            // stalled — the player's message and the app's load-state line — is one stall).
            if case .console(let line) = classified, let signal = ConsoleLineClassifier.playbackSignal(line) {
                let first = line.text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? line.text
                let detail = "\(line.origin): \(first)"
                switch signal {
                case .firstFrame where !rendering:
                    // The first rendered frame: startup is over (later ones follow a seek or replay).
                    rendering = true
                    record.payload = .player(PlayerEvent(kind: .initialLikelyToKeepUp, detail: detail))
                case .bufferingStart where !stalled:
                    stalled = true
                    record.payload = .player(PlayerEvent(kind: .stall, detail: detail))
                case .bufferingEnd where stalled:
                    stalled = false
                    record.payload = .player(PlayerEvent(kind: .likelyToKeepUp, detail: detail))
                default:
                    break
                }
            }
            fold.append(record, to: &result.records)
        }
        /// A progress chunk, linked and then folded from its bytes, or made into its record and
        /// appended when it opens a run; false when the entry is not a chunk read from bytes.
        func foldChunk(_ pending: inout CacheLogPendingEntry, into result: inout ParseResult) -> Bool {
            let read = pending.bytes.withUnsafeBufferPointer { all -> (CacheLogChattyClassifier.Chunk, String)? in
                guard let chunk = CacheLogChattyClassifier.chunk(pending, in: all) else { return nil }
                #if DEBUG || FUZZING
                Self.check(chunk, against: pending, bytes: all)
                #endif
                return (chunk, String(decoding: UnsafeBufferPointer(rebasing: all[chunk.pointer]), as: UTF8.self))
            }
            guard let (chunk, pointer) = read else { return false }
            let path = linker.linkChunk(pointer: pointer, sharedObject: chunk.sharedObject)
            if fold.foldChunk(chunk, path: path, entry: &pending) {
                chunksFoldedFromBytes += 1
                return true
            }
            fold.append(fold.record(ofChunk: pending, path: path), to: &result.records)
            return true
        }
        let file = file
        let maxEntryLines = maxEntryLines
        let maxEntryBytes = maxEntryBytes
        let maxRecords = maxRecords
        do {
            try reader.forEachLine { bytes, number, truncated in
                if truncated {
                    // First lines and continuation lines (a dumped header or body) alike.
                    result.diagnose(
                        Diagnostic(SourceLocation(file: file, line: number), .warning, "line too long, cut"))
                }
                if let head = CacheLogLine.head(bytes, times: &times) {
                    if result.deviceZone == nil, let zone = head.zone { result.deviceZone = zone }
                    flush(&pending, into: &result)
                    if result.reachedRecordLimit(maxRecords, line: number, pending: fold.openRuns) {
                        throw CacheLogRecordLimitReached()
                    }
                    pending.start(
                        line: number, time: head.time, prefix: head.prefix,
                        body: UnsafeBufferPointer(rebasing: bytes[head.bodyStart...]))
                    return
                }
                if !pending.isOpen {
                    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
                    // Text before the first entry: the tail of an entry cut off by the excerpt.
                    result.diagnose(
                        Diagnostic(
                            SourceLocation(file: file, line: number), .info,
                            "continuation text before the first log entry (excerpt starts mid-entry)"))
                    pending.start(
                        line: number, time: nil, prefix: nil, body: UnsafeBufferPointer(start: nil, count: 0),
                        orphan: true)
                }
                if pending.continuationCount < maxEntryLines, pending.continuationBytes + bytes.count <= maxEntryBytes {
                    pending.appendContinuation(bytes)
                } else {
                    pending.droppedLines += 1
                }
            }
        } catch is CacheLogRecordLimitReached {}
        flush(&pending, into: &result)
        fold.close(&result.records)
        if earliest.isFinite { version.observe(date: String(Timestamp(earliest).iso8601.prefix(10))) }
        version.applyDate()
        // A pass over every record copies each event: only when some entry carries an error.
        if sawError { CacheLogErrorMeanings.apply(version, to: &result.records) }
        result.producer = version.summary
        result.libraryVersion = version
        linker.finish(&result.records)
        for record in result.records {
            guard let event = record.proxyEvent, event.kind == .generic, event.tag.hasPrefix("KTVHC"),
                !CacheLogClassifier.knownUntypedTags.contains(event.tag)
            else { continue }
            result.diagnose(
                Diagnostic(record.location, .info, "unrecognised \(event.tag) entry: kept as generic text"))
        }
        return result
    }
}

#if DEBUG || FUZZING
extension CacheLogParser {
    /// Debug and fuzz builds check that a chunk read from bytes is what the classifier makes of
    /// the entry, in every field the fold compares or counts.
    static func check(
        _ chunk: CacheLogChattyClassifier.Chunk, against pending: CacheLogPendingEntry,
        bytes all: UnsafeBufferPointer<UInt8>
    ) {
        let texts = pending.entry()
        guard case .proxy(let e, true) = CacheLogClassifier.classify(texts, fullText: texts.fullText),
            CacheLogChatterFold.isChatter(e), e.kind == chunk.kind, e.isChunkEndEcho == chunk.endEcho,
            e.tag == chunk.tag, e.references.isEmpty, e.playbackSessionID == nil,
            e.pointer == String(decoding: UnsafeBufferPointer(rebasing: all[chunk.pointer]), as: UTF8.self),
            e.url == chunk.url.map({ String(decoding: UnsafeBufferPointer(rebasing: all[$0]), as: UTF8.self) }),
            e.contentLength == chunk.contentLength,
            CacheLogPathLinker.sharedTags.contains(e.tag) == chunk.sharedObject
        else {
            preconditionFailure("chunk read from bytes disagrees with the classifier at line \(pending.line): \(chunk)")
        }
    }
}
#endif

/// One log entry: its first line's prefix and body, and the continuation lines that follow it.
struct CacheLogEntry {
    var line: Int
    var time: Timestamp?
    var prefix: String?
    var body: String
    var continuation: [String] = []
    var orphan = false

    /// The whole message: body and continuation lines joined.
    var fullText: String {
        continuation.isEmpty ? body : ([body] + continuation).joined(separator: "\n")
    }
}

/// Recognises the first line of an entry.
enum CacheLogLine {
    struct Head {
        var time: Timestamp?
        var prefix: String?
        /// Where the message body starts in the line.
        var bodyStart: Int
        /// The device's zone from an NSLog prefix (`…+0800 App[…]`), seconds east of UTC.
        var zone: Int?
    }

    /// The last record-file time read and its 25 bytes: a log writes many entries a second, and
    /// the same stamp is then read once.
    struct TimeCache {
        var stamp: (UInt64, UInt64, UInt64, UInt8) = (0, 0, 0, 0)
        var time: Timestamp?
        var isEmpty = true

        mutating func time(of u: UnsafeBufferPointer<UInt8>) -> Timestamp? {
            guard u.count == 25, let base = u.baseAddress else { return TimestampParser.parseBytes(u) }
            let raw = UnsafeRawPointer(base)
            let stamp = (
                raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), u[24]
            )
            if !isEmpty, stamp == self.stamp { return time }
            self.stamp = stamp
            time = TimestampParser.parseBytes(u)
            isEmpty = false
            return time
        }
    }

    /// Looks only at bytes; a text is made only of a console line's `App[pid:tid]` prefix.
    static func head(_ u: UnsafeBufferPointer<UInt8>) -> Head? {
        var cache = TimeCache()
        return head(u, times: &cache)
    }

    /// `head(_:)`, reading a record-file time through `times`.
    static func head(_ u: UnsafeBufferPointer<UInt8>, times: inout TimeCache) -> Head? {
        // Record file: `2026-11-21 10:00:00 +0000  body`.
        if u.count >= 27, isDigits(u, 0, 4), u[4] == 45, u[7] == 45, u[10] == 32, u[13] == 58, u[16] == 58 {
            if u[19] == 32, u[20] == 43 || u[20] == 45, isDigits(u, 21, 4), u[25] == 32, u[26] == 32 {
                let time = times.time(of: UnsafeBufferPointer(rebasing: u[0..<25]))
                return Head(time: time, prefix: nil, bodyStart: 27)
            }
            // NSLog console: `2018-12-13 12:58:33.143562+0800 App[pid:tid] body`.
            if u[19] == 46, let space = u[19...].firstIndex(of: 32) {
                let time = TimestampParser.parseBytes(UnsafeBufferPointer(rebasing: u[0..<space]))
                let rest = u[(space + 1)...]
                if let close = rest.firstIndex(of: 93), close + 1 < u.count, u[close + 1] == 32,
                    rest[rest.startIndex..<close].contains(91)
                {
                    let prefix = String(
                        decoding: UnsafeBufferPointer(rebasing: u[rest.startIndex..<(close + 1)]), as: UTF8.self)
                    return Head(time: time, prefix: prefix, bodyStart: close + 2, zone: zone(u, end: space))
                }
                return Head(time: time, prefix: nil, bodyStart: rest.startIndex)
            }
        }
        // A copied line without the prefix, starting directly with a KTVHC tag or lifecycle object.
        if u.hasPrefix("KTVHC"), u.contains("  :   ") {
            return Head(time: nil, prefix: nil, bodyStart: 0)
        }
        if u.hasPrefix("<KTVHC"), u.contains(">  :   ") {
            return Head(time: nil, prefix: nil, bodyStart: 0)
        }
        return nil
    }

    /// `±HHMM` just before `end`: the NSLog time stamp's zone, seconds east of UTC.
    static func zone(_ u: UnsafeBufferPointer<UInt8>, end: Int) -> Int? {
        guard end >= 5, u[end - 5] == 43 || u[end - 5] == 45, isDigits(u, end - 4, 4) else { return nil }
        let h = Int(u[end - 4] - 48) * 10 + Int(u[end - 3] - 48)
        let m = Int(u[end - 2] - 48) * 10 + Int(u[end - 1] - 48)
        guard h <= 14, m < 60 else { return nil }
        let seconds = (h * 60 + m) * 60
        return u[end - 5] == 45 ? -seconds : seconds
    }

    static func isDigits(_ u: UnsafeBufferPointer<UInt8>, _ from: Int, _ count: Int) -> Bool {
        guard from + count <= u.count else { return false }
        for i in from..<(from + count) where u[i] < 48 || u[i] > 57 { return false }
        return true
    }
}

/// Thrown from the line loop to stop reading at the record limit.
private struct CacheLogRecordLimitReached: Error {}
