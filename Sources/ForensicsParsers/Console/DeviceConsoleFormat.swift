import ForensicsCore
import Foundation

/// The device console as people attach it to a playback ticket: Xcode's debug console, a
/// Console.app copy, `log show` in any of its styles, an app's print of its error-log events.
/// See `ConsoleStyle` for the shapes and `ConsoleMessage` for what is read from a message.
///
/// Recognised by the shape of whole lines (a `log show` or `NSLog` head, a Console.app row, a
/// `log show` JSON event with `eventMessage`), or by an error-log event's property names printed
/// together — never by a word in prose. Asked after the KTVHTTPCache log, whose console shares the
/// `NSLog` head. A console with no line about playback is listed as not read, with that reason.
package enum DeviceConsoleFormat: FormatReader {
    package static let declaration = FormatDeclaration(
        format: .deviceConsole, displayName: "Device console (Xcode, Console.app, log show)",
        semantics: SourceSemantics(
            role: .console, clock: .deviceUTC, anchor: .event, resolution: 0.001, clockPrecedence: 2,
            viewPrecedence: 8, capabilities: []),
        summary:
            "Xcode console and NSLog, Console.app copies, `log show` (default, compact, syslog, json, ndjson), printed AVPlayerItemErrorLogEvent fields: errors with their NSUnderlyingError chain, content-key, playlist and live-edge messages, the player giving up.",
        samples: [
            FormatDeclaration.Sample(
                text: """
                    Timestamp                       Thread     Type        Activity             PID    TTL  
                    2026-11-21 10:00:02.250000+0100 0x2a1f     Error       0x0                  412    0    mediaplaybackd: (MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> item failed: Error Domain=CoreMediaErrorDomain Code=-12642 "Playlist parse error" UserInfo={NSDescription=Playlist parse error}
                    """,
                expectedSummaries: [
                    "console mediaplaybackd · MediaToolbox: <<<< FigPlayer >>>> item failed: Error Domain=CoreMediaErrorDomain Code=-12642 \"Playlist parse error\" UserInfo={NSDescription=Playlist parse error}"
                ]),
            FormatDeclaration.Sample(
                text: """
                    2026-11-21 18:00:00.123456+0800 Player[1234:56789] errorStatusCode: -12880, errorDomain: CoreMediaErrorDomain, errorComment: Can not proceed after removing variants, URI: https://cdn.example.com/live/index.m3u8
                    """,
                expectedSummaries: [
                    "error log: CoreMediaErrorDomain -12880: Can not proceed after removing variants https://cdn.example.com/live/index.m3u8"
                ]),
        ],
        sniffPriority: 2)

    /// How many lines an entry may continue over before the rest is cut (a dumped object).
    static let maxContinuationLines = 200

    package static func sniff(_ text: SniffText) -> Bool {
        // Prose that quotes a console (a README, an issue text) is not one.
        if UnclaimedContent.isMarkdown(text) { return false }
        let lines = text.lines(60)
        let content = lines.drop { ConsoleStyle.isPreamble($0) }
        guard let first = content.first else { return false }
        if first.hasPrefix("[") || first.hasPrefix("{") {
            return text.contains("\"eventMessage\"")
                && (text.contains("\"messageType\"") || text.contains("\"processImagePath\"")
                    || text.contains("\"eventType\""))
        }
        if content.prefix(3).contains(where: { ConsoleStyle.detect($0) != nil }) { return true }
        // An app's print of its error-log events.
        return content.prefix(40).contains(where: { PrintedErrorLogEvent.isPrinted($0) })
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        let prefix = try source.peek(SniffText.length)
        let isJSON =
            SniffText(prefix).map { text in
                text.lines(60).drop { ConsoleStyle.isPreamble($0) }.first.map { $0.hasPrefix("[") || $0.hasPrefix("{") }
                    ?? false
            } ?? false
        var reader = DeviceConsoleReader(context: context)
        if isJSON {
            do {
                try reader.readJSON(&source)
            } catch {
                reader.result.diagnose(Diagnostic(SourceLocation(file: context.path, line: 0), .error, "\(error)"))
            }
        } else {
            reader.result = try context.readLines(&source) { lines in
                try reader.readText(&lines)
                return reader.result
            }
        }
        return reader.finish()
    }
}

/// Reads one console file into records: the entries' heads by style, their messages through
/// `ConsoleMessage`.
struct DeviceConsoleReader {
    let context: ReadContext
    var result: ParseResult
    var style: ConsoleStyle?
    var entries = 0
    var kept = 0
    var zones: Set<Int> = []
    var undated = false
    var unzoned = false

    init(context: ReadContext) {
        self.context = context
        self.result = ParseResult(file: context.path, format: .deviceConsole)
    }

    var defaultOffset: Int { context.timezoneOffset ?? 0 }

    /// One entry: its head (nil for a plain print), its message and where it starts.
    mutating func take(_ head: ConsoleStyle.Head?, _ message: Substring, line: Int) {
        entries += 1
        var head = head ?? ConsoleStyle.Head(time: nil, zoned: false, offset: nil, message: message)
        if head.time == nil { undated = true }
        if let offset = head.offset { zones.insert(offset) }
        if head.time != nil, !head.zoned {
            unzoned = true
            head.time = localToUTC(head.time)
        }
        guard !result.reachedRecordLimit(context.maxRecords, line: line),
            let record = ConsoleMessage.record(
                head: head, message: message, location: SourceLocation(file: context.path, line: line),
                defaultOffset: defaultOffset)
        else { return }
        kept += 1
        result.records.append(record)
    }

    /// A time written without a zone, moved to UTC by a named zone (the offset stated is already in it).
    func localToUTC(_ t: Timestamp?) -> Timestamp? {
        guard let t, let zone = context.timeZone else { return t }
        let seconds = t.secondsSince1970
        let guess = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        let offset = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds - guess)))
        return t + -offset
    }

    mutating func readText(_ lines: inout LineReader) throws {
        var pending: (head: ConsoleStyle.Head?, text: String, line: Int, continued: Int)?
        var metadataMessage: (text: String, line: Int)?
        try lines.forEachLine { bytes, number, _ in
            let text = String(decoding: bytes, as: UTF8.self)
            let line = Substring(text)
            if style == nil {
                if ConsoleStyle.isPreamble(line) { return }
                if !line.allSatisfy({ $0 == " " || $0 == "\t" }) { style = ConsoleStyle.detect(line) }
                // Xcode's metadata comes after its message: what was read so far is that message.
                if style == .xcodeMetadata, let p = pending {
                    metadataMessage = (p.text, p.line)
                    pending = nil
                }
            }
            if style == .xcodeMetadata {
                // The message comes first; its metadata line closes it.
                if let head = ConsoleStyle.metadata(line) {
                    if let m = metadataMessage { take(head, Substring(m.text), line: m.line) }
                    metadataMessage = nil
                } else if var m = metadataMessage {
                    m.text += "\n" + text
                    metadataMessage = m
                } else if !line.isEmpty {
                    metadataMessage = (text, number)
                }
                return
            }
            if let style, let head = style.head(line, defaultOffset: defaultOffset) {
                if let p = pending { take(p.head, Substring(p.text), line: p.line) }
                pending = (head, String(head.message), number, 0)
                return
            }
            if style != nil, ConsoleStyle.isPreamble(line) { return }
            if style == nil {
                // A plain print: blocks of lines, a new block at a blank line or at an event.
                let blank = line.allSatisfy { $0 == " " || $0 == "\t" }
                if blank {
                    if let p = pending { take(p.head, Substring(p.text), line: p.line) }
                    pending = nil
                    return
                }
                // An event's first line starts its own entry (its line is the event's line).
                if let p = pending, text.lowercased().contains("errorstatuscode") {
                    take(p.head, Substring(p.text), line: p.line)
                    pending = nil
                }
            }
            guard var p = pending else {
                if style == nil { pending = (nil, text, number, 0) }
                return
            }
            guard p.continued < DeviceConsoleFormat.maxContinuationLines else { return }
            p.continued += 1
            p.text += "\n" + text
            pending = p
        }
        if let p = pending { take(p.head, Substring(p.text), line: p.line) }
        if let m = metadataMessage { take(nil, Substring(m.text), line: m.line) }
    }

    /// `log show --style json` (one array) or `ndjson` (an object a line, a summary last).
    mutating func readJSON(_ source: inout PeekableByteSource) throws {
        style = nil
        var bytes = try readAll(&source, limit: context.limits.maxDecompressedSize, name: context.path)
        // The preamble `log show` writes before the JSON (`Filtering the log data using …`).
        var skippedLines = 0
        if let start = bytes.firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }) {
            skippedLines = bytes[..<start].filter { $0 == 0x0A }.count
            bytes.removeFirst(start)
        }
        if bytes.first == UInt8(ascii: "[") {
            let scan = JSONDocumentScanner.scan(bytes, arrayPaths: [[]])
            if let error = scan.error {
                result.diagnose(Diagnostic(SourceLocation(file: context.path, line: 1), .error, error))
            }
            for element in scan.elements {
                takeJSON(bytes[element.range], line: element.line + skippedLines)
            }
        } else {
            var line = skippedLines
            for slice in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                line += 1
                guard slice.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { continue }
                takeJSON(slice, line: line)
            }
        }
    }

    mutating func takeJSON(_ bytes: ArraySlice<UInt8>, line: Int) {
        let location = SourceLocation(file: context.path, line: line)
        guard let value = try? JSONValue.parse(bytes), let event = value.object else {
            result.diagnose(Diagnostic(location, .warning, "not a JSON object: not read as a log event"))
            return
        }
        // The summary `log show --style ndjson` ends with (`{"count":…,"finished":1}`).
        guard let message = event["eventMessage"]?.string else { return }
        let stamp = event["timestamp"]?.string
        var head = ConsoleStyle.Head(
            time: stamp.flatMap { TimestampParser.parse($0) }, zoned: true, offset: nil,
            process: event["processImagePath"]?.string.map { String($0.split(separator: "/").last ?? "") },
            level: event["messageType"]?.string?.lowercased(), message: Substring(message))
        if let stamp, stamp.count > 11 {
            let clock = stamp.dropFirst(11)
            if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                let digits = clock[clock.index(after: sign)...].filter(\.isNumber)
                if digits.count == 4, let v = Int(digits) {
                    head.offset = (clock[sign] == "-" ? -1 : 1) * ((v / 100) * 3600 + (v % 100) * 60)
                }
            }
        }
        head.subsystem = event["subsystem"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        head.category = event["category"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        head.library = event["senderImagePath"]?.string.map { String($0.split(separator: "/").last ?? "") }
        take(head, Substring(message), line: line)
    }

    /// The result, with the clock the entries' times were in and why a console is not read.
    mutating func finish() -> ParseResult {
        let counts = "\(entries) \(entries == 1 ? "entry" : "entries"), \(kept) about playback"
        result.producer = style.map { "\($0.rawValue): \(counts)" } ?? "printed error-log events: \(counts)"
        if unzoned {
            result.clock =
                context.timezoneOffset == nil && context.timeZone == nil
                ? .deviceLocalZoneUnknown : .deviceLocalZoneStated
        } else if zones.count == 1, let zone = zones.first {
            result.deviceZone = zone
        }
        if undated, kept > 0 {
            result.diagnose(
                Diagnostic(
                    SourceLocation(file: context.path, line: 0), .info,
                    "console lines without a date (a Console.app copy, a device syslog or a plain print): kept in their order, not placed on the session's clock"
                ))
        }
        if kept == 0, result.diagnostics.allSatisfy({ $0.severity < .error }) {
            result.notRead = NotRead(
                "device console with no line about playback (\(entries) entries: no media process, no player message, no error)",
                hidesEvidence: false)
        }
        return result
    }
}
