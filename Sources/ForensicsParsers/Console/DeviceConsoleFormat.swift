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

    /// How many lines, and bytes, an entry may continue over before the rest is cut (a dumped
    /// object): memory per entry stays bounded whatever the line limit.
    static let maxContinuationLines = 200
    static let maxEntryBytes = 64 * 1024

    /// Which JSON `log show` wrote, when the first line after its preamble opens one: `--style
    /// json` is one array, `--style ndjson` an object per line.
    enum JSONShape { case array, lines }

    static func jsonShape(_ text: SniffText) -> JSONShape? {
        guard let first = text.lines(60).drop(while: { ConsoleStyle.isPreamble($0) }).first else { return nil }
        return first.hasPrefix("[") ? .array : first.hasPrefix("{") ? .lines : nil
    }

    package static func sniff(_ text: SniffText) -> Bool {
        // Prose that quotes a console (a README, an issue text) is not one.
        if UnclaimedContent.isMarkdown(text) { return false }
        if jsonShape(text) != nil {
            return text.contains("\"eventMessage\"")
                && (text.contains("\"messageType\"") || text.contains("\"processImagePath\"")
                    || text.contains("\"eventType\""))
        }
        let content = text.lines(60).drop { ConsoleStyle.isPreamble($0) }
        if content.prefix(3).contains(where: { ConsoleStyle.detect($0) != nil }) { return true }
        // An app's print of its error-log events.
        return content.prefix(40).contains(where: { PrintedErrorLogEvent.isPrinted($0) })
    }

    package static func read(_ source: inout PeekableByteSource, context: ReadContext) throws -> ParseResult {
        let shape = SniffText(try source.peek(SniffText.length)).flatMap(jsonShape)
        var reader = DeviceConsoleReader(context: context)
        switch shape {
        case .array:
            do {
                try reader.readJSONArray(&source)
            } catch {
                reader.result.diagnose(Diagnostic(SourceLocation(file: context.path, line: 0), .error, "\(error)"))
            }
        case .lines:
            reader.result = try context.readLines(&source) { lines in
                try reader.readNDJSON(&lines)
                return reader.result
            }
        case nil:
            reader.result = try context.readLines(&source) { lines in
                try reader.readText(&lines)
                return reader.result
            }
        }
        return reader.finish(json: shape)
    }
}

/// An entry being read: its head, where it starts, and its lines so far (appended in place, up
/// to the continuation limits).
struct PendingConsoleEntry {
    var head: ConsoleStyle.Head?
    var text: String
    var line: Int
    var continued = 0

    mutating func append(_ more: String) {
        guard continued < DeviceConsoleFormat.maxContinuationLines,
            text.utf8.count + more.utf8.count < DeviceConsoleFormat.maxEntryBytes
        else { return }
        continued += 1
        text += "\n"
        text += more
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
    /// Entries' wall times through the named zone's daylight-saving changes (`LocalClock`).
    var clock: LocalClock?
    var nonexistent: (first: Int, count: Int)?

    init(context: ReadContext) {
        self.context = context
        self.result = ParseResult(file: context.path, format: .deviceConsole)
        self.clock = context.timeZone.map(LocalClock.init)
    }

    /// An entry's head time written without a zone, read in order through the zone's changes.
    mutating func localHead(_ t: Timestamp?, line: Int) -> Timestamp? {
        guard let t else { return nil }
        unzoned = true
        guard let reading = clock?.utc(t) else { return t }
        if reading.nonexistent { nonexistent = (nonexistent?.first ?? line, (nonexistent?.count ?? 0) + 1) }
        return reading.time
    }

    var defaultOffset: Int { context.timezoneOffset ?? 0 }

    /// A time written without a zone: the stated offset is in it already; a named zone moves it.
    mutating func local(_ t: Timestamp?) -> Timestamp? {
        guard let t else { return nil }
        unzoned = true
        // Through the same running clock as the entries' heads (review: a printed event's own
        // date, read by a single look-up, was an hour late in the first pass of a fall-back).
        return clock?.utc(t).time ?? t
    }

    /// A printed event's own date (`date: 2026-11-22 20:03:11.208 +0000`).
    mutating func eventDate(_ text: String) -> Timestamp? {
        let t = TimestampParser.parse(text, defaultOffsetSeconds: defaultOffset)
        if let offset = ConsoleStyle.zoneOffset(text.dropFirst(11)) {
            zones.insert(offset)
            return t
        }
        return local(t)
    }

    /// One entry: its head (nil for a plain print), its message and where it starts.
    mutating func take(_ head: ConsoleStyle.Head?, _ message: Substring, line: Int) {
        entries += 1
        var head = head ?? ConsoleStyle.Head(time: nil, offset: nil, message: message)
        if let offset = head.offset {
            zones.insert(offset)
        } else {
            head.time = localHead(head.time, line: line)
        }
        guard !result.reachedRecordLimit(context.maxRecords, line: line),
            let record = ConsoleMessage.record(
                head: head, message: message, location: SourceLocation(file: context.path, line: line),
                eventDate: { eventDate($0) })
        else { return }
        kept += 1
        if record.time == nil { undated = true }
        result.records.append(record)
    }

    mutating func readText(_ lines: inout LineReader) throws {
        var pending: PendingConsoleEntry?
        try lines.forEachLine { bytes, number, _ in
            let text = String(decoding: bytes, as: UTF8.self)
            let line = Substring(text)
            let blank = line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 }
            if style == nil {
                if ConsoleStyle.isPreamble(line) { return }
                if !blank { style = ConsoleStyle.detect(line) }
            }
            if style == .xcodeMetadata {
                // The message comes first; its metadata line closes it.
                if let head = ConsoleStyle.metadata(line) {
                    if let p = pending { take(head, Substring(p.text), line: p.line) }
                    pending = nil
                } else if pending != nil {
                    pending?.append(text)
                } else if !blank {
                    pending = PendingConsoleEntry(head: nil, text: text, line: number)
                }
                return
            }
            if let style, let head = style.head(line, defaultOffset: defaultOffset) {
                if let p = pending { take(p.head, Substring(p.text), line: p.line) }
                pending = PendingConsoleEntry(head: head, text: String(head.message), line: number)
                return
            }
            if style != nil, ConsoleStyle.isPreamble(line) { return }
            if style == nil {
                // A plain print: blocks of lines, a new block at a blank line or at an event's
                // first line (its line is the event's line).
                if blank || text.containsIgnoringASCIICase("errorstatuscode") {
                    if let p = pending { take(p.head, Substring(p.text), line: p.line) }
                    pending = nil
                    if blank { return }
                }
                if pending == nil {
                    pending = PendingConsoleEntry(head: nil, text: text, line: number)
                    return
                }
            }
            pending?.append(text)
        }
        if let p = pending { take(p.head, Substring(p.text), line: p.line) }
    }

    /// `log show --style json`: one array, read whole (its preamble lines skipped).
    mutating func readJSONArray(_ source: inout PeekableByteSource) throws {
        var bytes = try readAll(&source, limit: context.limits.maxDecompressedSize, name: context.path)
        // The preamble `log show` writes before the JSON (`Filtering the log data using …`),
        // which may itself hold brackets (`CONTAINS[c]`): whole lines up to the one opening the array.
        var skippedLines = 0
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = Substring(String(decoding: bytes[start..<end], as: UTF8.self))
            let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            if trimmed.hasPrefix("[") { break }
            skippedLines += 1
            start = min(end + 1, bytes.count)
        }
        bytes.removeFirst(start)
        let scan = JSONDocumentScanner.scan(bytes, arrayPaths: [[]])
        if let error = scan.error {
            result.diagnose(Diagnostic(SourceLocation(file: context.path, line: skippedLines + 1), .error, error))
        }
        for element in scan.elements {
            takeJSON(bytes[element.range], line: element.line + skippedLines)
        }
    }

    /// `log show --style ndjson`: an object a line, streamed (a sysdiagnose's is gigabytes).
    mutating func readNDJSON(_ lines: inout LineReader) throws {
        try lines.forEachLine { bytes, number, _ in
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { return }
            if bytes.first != UInt8(ascii: "{"),
                ConsoleStyle.isPreamble(Substring(String(decoding: bytes, as: UTF8.self)))
            {
                return
            }
            takeJSON(ArraySlice(bytes), line: number)
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
        func lastComponent(_ key: String) -> String? {
            event[key]?.string.map { String($0.split(separator: "/").last ?? "") }
        }
        func nonEmpty(_ key: String) -> String? { event[key]?.string.flatMap { $0.isEmpty ? nil : $0 } }
        let head = ConsoleStyle.Head(
            time: stamp.flatMap { TimestampParser.parse($0) },
            offset: stamp.flatMap { ConsoleStyle.zoneOffset($0.dropFirst(11)) },
            process: lastComponent("processImagePath"), level: event["messageType"]?.string?.lowercased(),
            library: lastComponent("senderImagePath"), subsystem: nonEmpty("subsystem"), category: nonEmpty("category"),
            message: Substring(message))
        take(head, Substring(message), line: line)
    }

    /// The result, with the clock the entries' times were in and why a console is not read.
    mutating func finish(json: DeviceConsoleFormat.JSONShape?) -> ParseResult {
        // Errors of processes that log nothing about playback are the device's, not the
        // playback's (probe G: SpringBoard's "no network" made a session, and stretched one).
        // Each line judged once (the test lowers up to 4 KiB of its text).
        let about = result.records.map { $0.consoleLine?.isAboutPlayback ?? true }
        var playbackProcesses: Set<String> = []
        for (r, isAbout) in zip(result.records, about) where isAbout {
            if let p = r.consoleLine?.process { playbackProcesses.insert(p) }
        }
        let anyPlayback = about.contains(true)
        let before = result.records.count
        result.records = zip(result.records, about).compactMap { r, isAbout in
            guard !isAbout, let c = r.consoleLine else { return r }
            // A line without a process (an app's own print, Xcode's console) stays beside playback.
            guard let p = c.process else { return anyPlayback ? r : nil }
            return playbackProcesses.contains(p) ? r : nil
        }
        kept -= before - result.records.count
        let counts = "\(entries) \(entries == 1 ? "entry" : "entries"), \(kept) about playback"
        let label: String
        switch json {
        case .array: label = "log show (json)"
        case .lines: label = "log show (ndjson)"
        case nil: label = style?.rawValue ?? "printed error-log events"
        }
        result.producer = "\(label): \(counts)"
        if unzoned {
            result.clock =
                context.timezoneOffset == nil && context.timeZone == nil
                ? .deviceLocalZoneUnknown : .deviceLocalZoneStated
        } else if zones.count == 1, let zone = zones.first {
            result.deviceZone = zone
        }
        if let nonexistent, let zone = context.timeZone {
            result.diagnose(LocalClock.nonexistentDiagnostic(file: context.path, nonexistent, zone: zone))
        }
        if undated {
            result.diagnose(
                Diagnostic(
                    SourceLocation(file: context.path, line: 0), .info,
                    "console lines without a date (a Console.app copy, a device syslog or a plain print): kept in their order, not placed on the session's clock"
                ))
        }
        if kept == 0, result.diagnostics.allSatisfy({ $0.severity < .error }) {
            result.notRead = NotRead(
                "device console with no line about playback (\(entries) entries: no media process, no player message, no error of the media stack or about a media URL)",
                hidesEvidence: false)
        }
        return result
    }
}
