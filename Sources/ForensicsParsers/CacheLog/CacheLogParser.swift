import ForensicsCore

/// Reads KTVHTTPCache full-path logs (record-log file or console output, library 1.x–3.x; see
/// `shared/spec/ktvhttpcache-log.md`): joins multi-line entries, types every template the
/// forensics needs, and keeps the rest as generic entries with their tag.
public struct CacheLogParser {
    public let file: String
    /// The most continuation lines kept for one entry; more are counted and dropped with a diagnostic.
    public let maxEntryLines: Int

    public init(file: String, maxEntryLines: Int = 4096) {
        self.file = file
        self.maxEntryLines = maxEntryLines
    }

    public func parse(lines reader: inout LineReader) throws -> ParseResult {
        var result = ParseResult(file: file, format: .cacheLog)
        var current: CacheLogEntry?
        var version = CacheLogVersionGuess()
        func flush(_ entry: CacheLogEntry?, into result: inout ParseResult) {
            guard let entry else { return }
            let record = CacheLogClassifier.record(for: entry, file: file)
            version.observe(entry)
            result.records.append(record)
        }
        while let line = try reader.next() {
            let text = line.text
            if let head = CacheLogLine.head(text) {
                flush(current, into: &result)
                current = CacheLogEntry(line: line.number, time: head.time, prefix: head.prefix, body: head.body)
                if line.truncated {
                    result.diagnostics.append(
                        Diagnostic(SourceLocation(file: file, line: line.number), .warning, "line too long, cut"))
                }
                continue
            }
            if current == nil {
                if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                // Text before the first entry: the tail of an entry cut off by the excerpt.
                result.diagnostics.append(
                    Diagnostic(
                        SourceLocation(file: file, line: line.number), .info,
                        "continuation text before the first log entry (excerpt starts mid-entry)"))
                current = CacheLogEntry(line: line.number, time: nil, prefix: nil, body: "", orphan: true)
            }
            if var entry = current {
                current = nil
                if entry.continuation.count < maxEntryLines {
                    entry.continuation.append(text)
                } else {
                    entry.droppedLines += 1
                }
                current = entry
            }
        }
        flush(current, into: &result)
        version.apply(to: &result)
        CacheLogPathLinker.link(&result.records)
        for record in result.records {
            guard let event = record.proxyEvent, event.kind == .generic, event.tag.hasPrefix("KTVHC"),
                !CacheLogClassifier.knownUntypedTags.contains(event.tag)
            else { continue }
            result.diagnostics.append(
                Diagnostic(record.location, .info, "unrecognised \(event.tag) entry: kept as generic text"))
        }
        return result
    }
}

/// One log entry: its first line's prefix and body, and the continuation lines that follow it.
struct CacheLogEntry {
    var line: Int
    var time: Timestamp?
    var prefix: String?
    var body: String
    var continuation: [String] = []
    var droppedLines = 0
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
        var body: String
    }

    static func head(_ text: String) -> Head? {
        let u = Array(text.utf8)
        // Record file: `2026-11-21 10:00:00 +0000  body`.
        if u.count >= 27, isDigits(u, 0, 4), u[4] == 45, u[7] == 45, u[10] == 32, u[13] == 58, u[16] == 58 {
            if u[19] == 32, u[20] == 43 || u[20] == 45, isDigits(u, 21, 4), u.count >= 27, u[25] == 32, u[26] == 32 {
                let time = TimestampParser.parse(String(decoding: u[0..<25], as: UTF8.self))
                return Head(time: time, prefix: nil, body: String(decoding: u[27...], as: UTF8.self))
            }
            // NSLog console: `2018-12-13 12:58:33.143562+0800 App[pid:tid] body`.
            if u[19] == 46, let space = u[19...].firstIndex(of: 32) {
                let time = TimestampParser.parse(String(decoding: u[0..<space], as: UTF8.self))
                let rest = u[(space + 1)...]
                if let close = rest.firstIndex(of: 93), close + 1 < u.count, u[close + 1] == 32,
                    rest[rest.startIndex..<close].contains(91)
                {
                    return Head(
                        time: time, prefix: String(decoding: rest[rest.startIndex...close], as: UTF8.self),
                        body: String(decoding: u[(close + 2)...], as: UTF8.self))
                }
                return Head(time: time, prefix: nil, body: String(decoding: rest, as: UTF8.self))
            }
        }
        // A copied line without the prefix, starting directly with a KTVHC tag or lifecycle object.
        if text.hasPrefix("KTVHC"), text.fastContains("  :   ") {
            return Head(time: nil, prefix: nil, body: text)
        }
        if text.hasPrefix("<KTVHC"), text.fastContains(">  :   ") {
            return Head(time: nil, prefix: nil, body: text)
        }
        return nil
    }

    static func isDigits(_ u: [UInt8], _ from: Int, _ count: Int) -> Bool {
        guard from + count <= u.count else { return false }
        for i in from..<(from + count) where u[i] < 48 || u[i] > 57 { return false }
        return true
    }
}

/// Guesses the library's major version from what the log says (see the reference §6), so that
/// KTVHTTPCache error codes can be named: they were renumbered in 3.0.
struct CacheLogVersionGuess {
    var major: Int?
    var observed = 0
    /// The version shows in the first entries of a log; looking further costs time for nothing.
    static let entriesToObserve = 2000

    mutating func observe(_ entry: CacheLogEntry) {
        guard major == nil || major == 2, observed < Self.entriesToObserve else { return }
        observed += 1
        let text = entry.fullText
        if text.fastContains("KTVHTTPCachePlaceHolder") || text.fastContains("Accept request") || text.fastContains("KTVHCHTTPHLSResponse") {
            major = 3
        } else if text.hasPrefix("KTVHCDataSourcer ") || text.fastContains("<KTVHCDataSourcer:") {
            major = 1
        } else if text.fastContains("KTVHCHTTPURL") || text.fastContains("KTVHCDataSourceQueue") || text.fastContains("requestType=") {
            major = 1
        } else if text.fastContains("request.mp4?url=") || text.fastContains("localhost:80/") {
            major = 2
        }
    }

    func apply(to result: inout ParseResult) {
        for i in result.records.indices {
            guard case .proxy(var event) = result.records[i].payload, var error = event.error,
                error.domain == "KTVHTTPCache error", let code = error.code
            else { continue }
            if let meaning = CacheLogVersionGuess.meaning(code: code, major: major ?? 3) {
                error.description = error.description.map { $0 == "(null)" ? meaning : $0 } ?? meaning
                event.error = error
                result.records[i].payload = .proxy(event)
            }
        }
    }

    static func meaning(code: Int, major: Int) -> String? {
        if major >= 3 {
            switch code {
            case -192700: return "file exception"
            case -192701: return "not enough disk space"
            case -192702: return "response is not HTTP"
            case -192703: return "origin HTTP status error"
            case -192704: return "unacceptable Content-Type"
            case -192705: return "bad Content-Length"
            default: return nil
            }
        }
        switch code {
        case -192700: return "response unavailable (status > 400 or not HTTP)"
        case -192701: return "unsupported Content-Type"
        case -192702: return "not enough disk space"
        case -192703: return "file exception"
        default: return nil
        }
    }
}
