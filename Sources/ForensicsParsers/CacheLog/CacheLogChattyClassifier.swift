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

    /// The proxy event of a chatty entry, or nil when the general classifier must decide.
    static func classify(_ entry: CacheLogPendingEntry) -> ProxyEvent? {
        guard entry.isOpen, !entry.orphan, entry.isASCII else { return nil }
        return entry.bytes.withUnsafeBufferPointer { all -> ProxyEvent? in
            let body = UnsafeBufferPointer(rebasing: all[entry.range(ofLine: 0)])
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
            guard let rule = rule(for: UnsafeBufferPointer(rebasing: body[0..<tagEnd])) else { return nil }
            // `0x…` up to a comma or space, then one comma and any spaces: the message.
            let afterSeparator = separator.at + separator.length
            let rest = UnsafeBufferPointer(rebasing: body[afterSeparator...])
            guard rest.hasPrefix("0x") else { return nil }
            var pointerEnd = 0
            while pointerEnd < rest.count, rest[pointerEnd] != 0x2C, rest[pointerEnd] != 0x20 { pointerEnd += 1 }
            var messageStart = pointerEnd
            if messageStart < rest.count, rest[messageStart] == 0x2C { messageStart += 1 }
            while messageStart < rest.count, rest[messageStart] == 0x20 { messageStart += 1 }
            let message = UnsafeBufferPointer(rebasing: rest[messageStart...])
            var outcome = Outcome.kind(.generic)
            for template in rule.templates where message.hasPrefixIgnoringCase(template.prefix) {
                outcome = template.outcome
                break
            }
            let text = String(decoding: message, as: UTF8.self)
            var e = ProxyEvent(kind: .generic, tag: rule.tag, message: text)
            e.pointer = String(decoding: UnsafeBufferPointer(rebasing: rest[0..<pointerEnd]), as: UTF8.self)
            e.references = references(in: all, entry: entry)
            switch outcome {
            case .general:
                return nil
            case .kind(let kind):
                // A generic entry whose continuation holds an error dump is that error
                // (`CacheLogClassifier.attachErrorDump`): the general classifier reads it.
                if kind == .generic, hasErrorDump(in: all, entry: entry) { return nil }
                e.kind = kind
            case .networkData:
                e.kind = .networkData
                e.contentLength = CacheLogClassifier.number(1, afterColonIn: text)
            case .downloadData:
                e.kind = .downloadData
                e.url = field("URL : ", in: all, entry: entry)
                e.contentLength = field("Length : ", in: all, entry: entry).flatMap { Int64($0) }
            }
            return e
        }
    }

    /// Whether a continuation line starts with an NSError dump (`Error : Error Domain=…`).
    static func hasErrorDump(in all: UnsafeBufferPointer<UInt8>, entry: CacheLogPendingEntry) -> Bool {
        for i in entry.continuationLines {
            let line = UnsafeBufferPointer(rebasing: all[entry.range(ofLine: i)])
            if line.hasPrefix("Error : Error Domain=") || line.hasPrefix("Error Domain=") { return true }
        }
        return false
    }

    static func rule(for tag: UnsafeBufferPointer<UInt8>) -> Rule? {
        for rule in rules {
            var name = rule.tag
            if name.withUTF8({ $0.hasSameBytes(as: tag) }) { return rule }
        }
        return nil
    }

    /// `Label : value` on the first continuation line that starts with it; NSURL's `relative --
    /// base` description cut to the relative part (as `CacheLogClassifier.field`).
    static func field(_ label: StaticString, in all: UnsafeBufferPointer<UInt8>, entry: CacheLogPendingEntry) -> String?
    {
        for i in entry.continuationLines {
            let line = UnsafeBufferPointer(rebasing: all[entry.range(ofLine: i)])
            guard line.hasPrefix(label) else { continue }
            var value = UnsafeBufferPointer(rebasing: line[label.utf8CodeUnitCount...])
            if let cut = value.firstOffset(of: " -- ") { value = UnsafeBufferPointer(rebasing: value[0..<cut]) }
            return String(decoding: value, as: UTF8.self)
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
