import ForensicsCore

/// Types the progress chatter of a 1.1.x–3.x proxy log straight from the entry's bytes:
/// `KTVHCDataNetworkSource : 0x…, Receive data : 16384, 0, 5510872`, `KTVHCDownload : 0x…,
/// Receive data - Begin` with its `Length :` and `URL :` lines, `Read data : …`, and the other
/// messages of the modules listed here that carry no error, range or header dump.
///
/// Why: a download logs these per 16 KiB chunk, so they are nearly every entry of a real log,
/// and the general classifier (`CacheLogClassifier`) spent ~18,000 instructions on each making
/// and searching strings. Here the tag, pointer and template are read from the bytes, the tag is
/// a shared constant, and only the message (and a download's URL) become texts.
///
/// It answers only what it is sure of, and nil otherwise — the general classifier then decides:
/// an entry with any non-ASCII byte (where `Character` and byte semantics could differ), a tag
/// or message outside `rules`, and every template that reads an error, a range or headers. The
/// result is the general classifier's, field for field: debug and fuzz builds check each one
/// (`CacheLogParser`), and `CacheLogChattyClassifierTests` checks the listed templates.
enum CacheLogChattyClassifier {
    /// What a template makes of the entry.
    enum Outcome {
        case kind(ProxyEvent.Kind)
        /// `Receive data : chunk, received so far, item length`: the running total.
        case networkData
        /// `Receive data - Begin|End` with `Length :` and `URL :` lines.
        case downloadData
        /// Left to the general classifier (errors, ranges, headers, URLs on other lines).
        case general
    }

    struct Rule {
        let tag: String
        /// Message prefixes (lower-case, matched ignoring ASCII case) in the general
        /// classifier's order; a message matching none is a generic entry of the tag.
        let templates: [(prefix: StaticString, outcome: Outcome)]
        /// Whether the module's object serves every request (`CacheLogPathLinker.sharedTags`),
        /// decided once here rather than looked up for every chunk.
        let sharedObject: Bool

        init(tag: String, templates: [(prefix: StaticString, outcome: Outcome)]) {
            self.tag = tag
            self.templates = templates
            sharedObject = CacheLogPathLinker.sharedTags.contains(tag)
        }
    }

    /// The templates of both response modules (plain and HLS).
    static let responseTemplates: [(prefix: StaticString, outcome: Outcome)] = [
        ("create response", .kind(.httpResponse)), ("content length", .general), ("conetnt length", .general),
        ("failed", .general), ("handle response error", .general), ("connection did closed", .kind(.connectionClosed)),
    ]

    /// The modules whose every template is known here. Order within a module matters, as it does
    /// in `CacheLogClassifier.classifyModern` (`complete` after `complete and …`).
    static let rules: [Rule] = [
        Rule(
            tag: "KTVHCDataNetworkSource",
            templates: [
                ("create network source", .general), ("callback for failed", .general),
                ("complete but did failed", .general), ("receive data :", .networkData),
                ("complete and finisehed", .kind(.networkComplete)),
            ]),
        Rule(
            tag: "KTVHCDownload",
            templates: [
                ("add request", .general), ("receive response", .general), ("invaild response", .general),
                ("invalid response", .general), ("complete", .general), ("receive data", .downloadData),
            ]),
        Rule(
            tag: "KTVHCDataReader",
            templates: [
                ("create reader", .kind(.readerCreated)), ("callback for failed", .general), ("record error", .general),
            ]),
        Rule(tag: "KTVHCDataFileSource", templates: [("create file source", .general)]),
        Rule(tag: "KTVHCHTTPResponse", templates: responseTemplates),
        Rule(tag: "KTVHCHTTPHLSResponse", templates: responseTemplates),
        Rule(
            tag: "KTVHCHTTPConnection",
            templates: [
                ("receive request", .general), ("accept request", .general), ("receive redirect request", .general),
            ]
        ),
        // Modules the general classifier types nothing of: every message is a generic entry.
        Rule(tag: "KTVHCDataUnitItem", templates: []),
        Rule(tag: "KTVHCDataUnitQueue", templates: []),
        Rule(tag: "KTVHCDataSourceQueue", templates: []),
        Rule(tag: "KTVHCDataLoader", templates: []),
        Rule(tag: "KTVHCDataHLSLoader", templates: []),
        Rule(tag: "KTVHCDataStorage", templates: []),
        Rule(tag: "KTVHCHTTPPingResponse", templates: []),
    ]

    /// Where the parts of a chatty entry lie in its bytes, read before any text is made.
    struct Scan {
        /// The entry's module, an index into `rules`.
        let ruleIndex: Int
        /// The `0x…` pointer and the message, as ranges of the entry's bytes.
        let pointer: Range<Int>
        let message: Range<Int>
        let outcome: Outcome
    }

    /// Reads the tag, pointer, message and template of a chatty entry from its bytes, or nil when
    /// the entry is not one this classifier may type.
    static func scan(_ entry: CacheLogPendingEntry, in all: UnsafeBufferPointer<UInt8>) -> Scan? {
        guard entry.isOpen, !entry.orphan, entry.isASCII else { return nil }
        let bodyRange = entry.range(ofLine: 0)
        let body = UnsafeBufferPointer(rebasing: all[bodyRange])
        guard body.hasPrefix("KTVHC") else { return nil }
        // The general classifier's separator: two spaces before the colon, else one.
        let separator: (at: Int, length: Int)
        if let at = body.firstOffset(of: "  :   ") {
            separator = (at, 6)
        } else if let at = body.firstOffset(of: " :   ") {
            separator = (at, 5)
        } else {
            return nil
        }
        var tagEnd = separator.at
        while tagEnd > 0, body[tagEnd - 1] == 0x20 { tagEnd -= 1 }
        guard let ruleIndex = ruleIndex(for: UnsafeBufferPointer(rebasing: body[0..<tagEnd])) else { return nil }
        // `0x…` up to a comma or space, then one comma and any spaces: the message.
        let rest = (bodyRange.lowerBound + separator.at + separator.length)..<bodyRange.upperBound
        guard UnsafeBufferPointer(rebasing: all[rest]).hasPrefix("0x") else { return nil }
        var pointerEnd = rest.lowerBound
        while pointerEnd < rest.upperBound, all[pointerEnd] != 0x2C, all[pointerEnd] != 0x20 { pointerEnd += 1 }
        var messageStart = pointerEnd
        if messageStart < rest.upperBound, all[messageStart] == 0x2C { messageStart += 1 }
        while messageStart < rest.upperBound, all[messageStart] == 0x20 { messageStart += 1 }
        let message = messageStart..<rest.upperBound
        var outcome = Outcome.kind(.generic)
        let text = UnsafeBufferPointer(rebasing: all[message])
        let rules = rules
        for template in rules[ruleIndex].templates where text.hasPrefixIgnoringCase(template.prefix) {
            outcome = template.outcome
            break
        }
        return Scan(ruleIndex: ruleIndex, pointer: rest.lowerBound..<pointerEnd, message: message, outcome: outcome)
    }

    /// The proxy event of a chatty entry, or nil when the general classifier must decide.
    static func classify(_ entry: CacheLogPendingEntry) -> ProxyEvent? {
        entry.bytes.withUnsafeBufferPointer { all -> ProxyEvent? in
            guard let scan = scan(entry, in: all) else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: all[scan.message]), as: UTF8.self)
            var e = ProxyEvent(kind: .generic, tag: rules[scan.ruleIndex].tag, message: text)
            e.pointer = String(decoding: UnsafeBufferPointer(rebasing: all[scan.pointer]), as: UTF8.self)
            e.references = references(in: all, entry: entry)
            switch scan.outcome {
            case .general:
                return nil
            case .kind(let kind):
                // A generic entry whose continuation holds an error dump is that error
                // (`CacheLogClassifier.attachErrorDump`): the general classifier reads it.
                if kind == .generic, hasErrorDump(in: all, entry: entry) { return nil }
                e.kind = kind
            case .networkData:
                e.kind = .networkData
                e.contentLength = CacheLogClassifier.number(
                    1, afterColonIn: UnsafeBufferPointer(rebasing: all[scan.message]))
            case .downloadData:
                e.kind = .downloadData
                e.url = field("URL : ", in: all, entry: entry).map {
                    String(decoding: UnsafeBufferPointer(rebasing: all[$0]), as: UTF8.self)
                }
                e.contentLength = field("Length : ", in: all, entry: entry).flatMap {
                    DecimalScanner.int64(UnsafeBufferPointer(rebasing: all[$0]))
                }
            }
            return e
        }
    }

    /// A progress chunk (`CacheLogChatterFold.isChatter`) read from the bytes alone: what its
    /// event's fold key and bytes would be, without making the event.
    ///
    /// Why: a run's middle entries are counted and dropped, so making each one's strings and
    /// event only to compare it with the run's key was most of reading a proxy log. It answers
    /// nil for what it does not read whole — an entry that references another object (`: 0x`),
    /// an error dump, any template but the three chunk lines — and the event is made as before.
    struct Chunk {
        let kind: ProxyEvent.Kind
        let endEcho: Bool
        let tag: String
        /// Whether the tag's object serves every request (`CacheLogPathLinker.sharedTags`).
        let sharedObject: Bool
        let pointer: Range<Int>
        let url: Range<Int>?
        let contentLength: Int64?
    }

    /// The chunk an entry is, or nil when it is not one read whole from its bytes.
    static func chunk(_ entry: CacheLogPendingEntry, in all: UnsafeBufferPointer<UInt8>) -> Chunk? {
        guard let scan = scan(entry, in: all) else { return nil }
        let message = UnsafeBufferPointer(rebasing: all[scan.message])
        let kind: ProxyEvent.Kind
        var endEcho = false
        var url: Range<Int>?
        var length: Int64?
        switch scan.outcome {
        case .networkData:
            kind = .networkData
            length = CacheLogClassifier.number(1, afterColonIn: message)
        case .downloadData:
            kind = .downloadData
            endEcho = message.hasPrefixIgnoringCase("receive data - end")
            url = field("URL : ", in: all, entry: entry)
            length = field("Length : ", in: all, entry: entry).flatMap {
                DecimalScanner.int64(UnsafeBufferPointer(rebasing: all[$0]))
            }
        case .kind(.generic):
            guard message.hasPrefixIgnoringCase("read data :"), !hasErrorDump(in: all, entry: entry) else {
                return nil
            }
            kind = .generic
        default:
            return nil
        }
        guard !mentionsPointer(in: all, entry: entry) else { return nil }
        let rules = rules
        return Chunk(
            kind: kind, endEcho: endEcho, tag: rules[scan.ruleIndex].tag,
            sharedObject: rules[scan.ruleIndex].sharedObject,
            pointer: scan.pointer, url: url, contentLength: length)
    }

    /// Whether any line of the entry holds `: 0x` (a reference, or what could be one).
    static func mentionsPointer(in all: UnsafeBufferPointer<UInt8>, entry: CacheLogPendingEntry) -> Bool {
        for i in 0..<entry.lineEnds.count
        where UnsafeBufferPointer(rebasing: all[entry.range(ofLine: i)]).firstOffset(of: ": 0x") != nil {
            return true
        }
        return false
    }

    /// Whether a continuation line starts with an NSError dump (`Error : Error Domain=…`).
    static func hasErrorDump(in all: UnsafeBufferPointer<UInt8>, entry: CacheLogPendingEntry) -> Bool {
        for i in entry.continuationLines {
            let line = UnsafeBufferPointer(rebasing: all[entry.range(ofLine: i)])
            if line.hasPrefix("Error : Error Domain=") || line.hasPrefix("Error Domain=") { return true }
        }
        return false
    }

    /// The tags of `rules` as bytes, in the same order: looking a tag up compares bytes without
    /// copying a rule (its strings and templates) for each one passed over.
    static let ruleTags: [[UInt8]] = rules.map { Array($0.tag.utf8) }

    static func ruleIndex(for tag: UnsafeBufferPointer<UInt8>) -> Int? {
        let tags = ruleTags
        for i in tags.indices where tags[i].count == tag.count {
            if tags[i].withUnsafeBufferPointer({ $0.hasSameBytes(as: tag) }) { return i }
        }
        return nil
    }

    /// Where `Label : value`'s value lies on the first continuation line that starts with the
    /// label; NSURL's `relative -- base` description cut to the relative part (as
    /// `CacheLogClassifier.field`).
    static func field(
        _ label: StaticString, in all: UnsafeBufferPointer<UInt8>, entry: CacheLogPendingEntry
    )
        -> Range<Int>?
    {
        for i in entry.continuationLines {
            let range = entry.range(ofLine: i)
            let line = UnsafeBufferPointer(rebasing: all[range])
            guard line.hasPrefix(label) else { continue }
            let start = range.lowerBound + label.utf8CodeUnitCount
            let value = UnsafeBufferPointer(rebasing: all[start..<range.upperBound])
            guard let cut = value.firstOffset(of: " -- ") else { return start..<range.upperBound }
            return start..<(start + cut)
        }
        return nil
    }

    /// The pointers after `: 0x` anywhere in the entry, except a cache unit's (as
    /// `CacheLogClassifier.references`, whose search runs on from each match's `0x`).
    static func references(in all: UnsafeBufferPointer<UInt8>, entry: CacheLogPendingEntry) -> [String] {
        var out: [String] = []
        var searchFrom = 0
        for i in 0..<entry.lineEnds.count {
            let lineRange = entry.range(ofLine: i)
            var at = lineRange.lowerBound
            while let hit = UnsafeBufferPointer(rebasing: all[at..<lineRange.upperBound]).firstOffset(of: ": 0x") {
                let match = at + hit
                let hexStart = match + 4
                var hexEnd = hexStart
                while hexEnd < lineRange.upperBound, isHexDigit(all[hexEnd]) { hexEnd += 1 }
                let before = UnsafeBufferPointer(rebasing: all[max(searchFrom, lineRange.lowerBound)..<match])
                if hexEnd > hexStart, !before.hasSuffix("KTVHCDataUnit") {
                    out.append(
                        "0x" + String(decoding: UnsafeBufferPointer(rebasing: all[hexStart..<hexEnd]), as: UTF8.self))
                }
                searchFrom = hexStart
                at = hexStart
            }
        }
        return out
    }

    static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66)
    }
}

extension UnsafeBufferPointer<UInt8> {
    fileprivate func firstOffset(of pattern: StaticString) -> Int? {
        firstOffset(of: UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount))
    }

    fileprivate func hasSuffix(_ suffix: StaticString) -> Bool {
        let n = suffix.utf8CodeUnitCount
        guard count >= n else { return false }
        return UnsafeBufferPointer(rebasing: self[(count - n)...]).hasPrefix(suffix)
    }
}
