import Foundation
import ForensicsCore

/// Reads AVPlayer access and error logs in the W3C extended log format (`extendedLogData`).
///
/// Driven by each block's own `#Fields` directive, so any column order works and several logs
/// concatenated in one file are read block by block. `date time` is the device's local time with
/// no offset: `timezoneOffset` (seconds east of UTC) states it; the repeated-seconds "fraction"
/// Apple writes is ignored (see `shared/spec/avplayer-access-log.md`).
package struct AVPlayerExtendedLogParser {
    package let file: String
    /// Seconds east of UTC, when the user stated the device's zone; nil: unknown.
    package let timezoneOffset: Int?
    /// A named zone (`Europe/Berlin`, `CET`): its offset at each row's own time, daylight saving
    /// included. Used instead of `timezoneOffset` when set.
    package var timeZone: TimeZone?

    /// Most records read from the file (the bundle's budget decides).
    package var maxRecords = Int.max

    package init(file: String, timezoneOffset: Int? = nil) {
        self.file = file
        self.timezoneOffset = timezoneOffset
    }

    /// Reads an access or error log (one parser: the `#Fields` line drives both).
    static func read(
        _ source: inout PeekableByteSource, format: InputFormat, context: ReadContext
    ) throws -> ParseResult {
        try context.readLines(&source) { lines in
            var parser = AVPlayerExtendedLogParser(file: context.path, timezoneOffset: context.timezoneOffset)
            parser.timeZone = context.timeZone
            parser.maxRecords = context.maxRecords
            return try parser.parse(lines: &lines, format: format)
        }
    }

    /// Columns only AVPlayer's access log writes (`AVPlayerItemAccessLogEvent`'s properties).
    static let accessLogOnlyFields = [
        "c-observed-bitrate", "sc-indicated-bitrate", "c-duration-watched", "c-startup-time", "c-stalls",
        "c-duration-downloaded", "c-frames-dropped", "s-playback-type", "c-overdue", "sc-wwan-count",
        "c-switch-bitrate", "c-observed-min-bitrate", "c-observed-max-bitrate", "c-observed-bitrate-sd",
        "s-ip-changes", "c-start-time", "sc-indicated-avg-bitrate", "c-avg-video-bitrate", "c-avg-audio-bitrate",
    ]

    /// Whether a W3C log is AVPlayer's, on its own evidence: the `#Software:` directive names
    /// AppleCoreMedia (the player's user agent), or the `#Fields:` line is AVPlayer's field set —
    /// `cs-guid` (the playback session) with access-log columns no server writes, or with the
    /// error log's `status` and `domain`/`comment`. Any other W3C log (CloudFront, IIS, a CDN's
    /// export) has a `#Fields:` line too, and is not ours.
    static func isAVPlayerLog(software: [UInt8]?, fields: [UInt8]?) -> Bool {
        if let software, software.withUnsafeBufferPointer({ $0.contains("AppleCoreMedia") }) { return true }
        guard let fields else { return false }
        let names = Set(fields.dropFirst(8).split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) })
        guard names.contains("cs-guid") else { return false }
        let accessColumns = accessLogOnlyFields.filter(names.contains).count
        return accessColumns >= 2
            || (names.contains("status") && (names.contains("domain") || names.contains("comment")))
    }

    /// Whether a `#Fields:` line names a column only the error log has (`status`, `comment`,
    /// `domain`), which is how the two logs are told apart.
    static func namesErrorLogFields(_ fieldsLine: [UInt8]) -> Bool {
        fieldsLine.split(separator: 0x20).contains { word in
            ["status", "comment", "domain"].contains { word.elementsEqual($0.utf8) }
        }
    }

    package func parse(lines reader: inout LineReader, format: InputFormat) throws -> ParseResult {
        var result = ParseResult(file: file, format: format)
        result.clock = timezoneOffset == nil && timeZone == nil ? .deviceLocalZoneUnknown : .deviceLocalZoneStated
        var fields: [String]?
        var software: String?
        var rowNames: [String] = []
        // The current log's `#Date` (when it was dumped) and where its block starts: an app that
        // dumps the cumulative log several times repeats its rows, and the correlator folds them.
        var dumpDate: Timestamp?
        var blockLine = 0
        // A `#Fields` line not yet followed by a row. Apple's writer emits `#Fields` only with an
        // event to write, so a `#Fields` line with no row means the rows were cut off.
        var fieldsWithoutRows: Int?
        // The cumulative error log saved again into the same file repeats every earlier row: a
        // later dump's row is a repeat while its dump has not shown it more often than an earlier
        // dump did (rows as written; one dump's equal rows are distinct events, its times having
        // a resolution of one second).
        var earlierDumps: [String: Int] = [:]
        var thisDump: [String: Int] = [:]
        var repeatedRows = 0
        var dumps = 0
        var firstRepeat: Int?
        // Rows' wall times through the zone's daylight-saving changes; each `#Fields` block (a
        // dump) starts its own run of times.
        var clock = timeZone.map(LocalClock.init)
        var nonexistent: (first: Int, count: Int)?
        func cutOff(_ line: Int, _ result: inout ParseResult) {
            result.diagnose(
                Diagnostic(
                    SourceLocation(file: file, line: line), .warning,
                    "#Fields header with no rows: AVPlayer writes it only with an event, so this log's rows were cut off"
                ))
        }
        while let line = try reader.next() {
            if result.reachedRecordLimit(maxRecords, line: line.number) { break }
            let location = SourceLocation(file: file, line: line.number)
            let text = line.text
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            if line.truncated {
                result.diagnose(Diagnostic(location, .error, "line too long, cut and skipped"))
                continue
            }
            if text.hasPrefix("#") {
                if text.hasPrefix("#Fields:") {
                    if let pending = fieldsWithoutRows { cutOff(pending, &result) }
                    fieldsWithoutRows = line.number
                    clock?.latest = nil
                    fields = text.dropFirst(8).split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    rowNames = []
                    blockLine = line.number
                    if !thisDump.isEmpty {
                        earlierDumps.merge(thisDump, uniquingKeysWith: max)
                        thisDump = [:]
                    }
                } else if text.hasPrefix("#Date:") {
                    let value = String(text.dropFirst(6)).trimmingSpaces
                    let whole = value.split(separator: ".").first.map(String.init) ?? value
                    dumpDate = localToUTC(TimestampParser.parse(whole, defaultOffsetSeconds: timezoneOffset ?? 0))
                } else if text.hasPrefix("#Software:") {
                    software = String(text.dropFirst(10)).trimmingSpaces
                    rowNames = []
                } else if text.hasPrefix("#Version:") {
                    fields = nil
                }
                continue
            }
            guard let names = fields else {
                result.diagnose(Diagnostic(location, .error, "row before any #Fields directive"))
                continue
            }
            fieldsWithoutRows = nil
            var values = Self.tokenize(text)
            let isErrorRow = names.contains("status") || names.contains("comment")
            // A bare comment (the error log's `comment` unquoted: the spec accepts both forms)
            // holds spaces: the tokens between the fields before it and the fields after it are
            // the comment (probe K: every bare row was refused).
            if values.count > names.count, let c = names.firstIndex(of: "comment") {
                let after = names.count - c - 1
                let end = values.count - after
                // Never a second row run into this one (a lost line break): a date among the
                // tokens refuses the line, as before.
                if end > c, !values[c..<end].contains(where: Self.looksLikeDate) {
                    values = Array(values[..<c]) + [values[c..<end].joined(separator: " ")] + Array(values[end...])
                }
            }
            guard values.count == names.count else {
                result.diagnose(
                    Diagnostic(location, .error, "row has \(values.count) fields, #Fields names \(names.count)"))
                continue
            }
            // `#Software` rides along as one more column; the names list is built once per block.
            if rowNames.isEmpty {
                rowNames = software == nil ? names : names + ["#software"]
            }
            var rowValues = values.map { $0 == "-" ? nil : $0 }
            if let software { rowValues.append(software) }
            let row = AVPlayerAccessLogFields(names: rowNames, values: rowValues)
            var time: Timestamp?
            if let d = row["date"], let t = row["time"] {
                // Keep whole seconds only: the fraction repeats the seconds.
                let whole = t.split(separator: ".").first.map(String.init) ?? t
                time = TimestampParser.parse("\(d) \(whole)", defaultOffsetSeconds: timezoneOffset ?? 0)
                if let wall = time, clock != nil, let reading = clock?.utc(wall) {
                    time = reading.time
                    if reading.nonexistent {
                        nonexistent = (nonexistent?.first ?? line.number, (nonexistent?.count ?? 0) + 1)
                    }
                }
                if time == nil { result.diagnose(Diagnostic(location, .warning, "unreadable date/time '\(d) \(t)'")) }
            }
            let session = row["cs-guid"]
            if isErrorRow || format == .errorLog {
                let n = thisDump[text, default: 0] + 1
                if n == 1, thisDump.isEmpty { dumps += 1 }
                thisDump[text] = n
                if n <= earlierDumps[text, default: 0] {
                    repeatedRows += 1
                    if firstRepeat == nil { firstRepeat = line.number }
                    continue
                }
                let err = ErrorInfo(
                    domain: row["domain"], code: row["status"].flatMap { Int($0) }, description: row["comment"])
                result.records.append(
                    Record(
                        time: time, location: location, format: .errorLog, sessionID: session,
                        payload: .errorLog(err, uri: row["uri"])))
            } else {
                var a = AVPlayerAccessLogEntry(fields: row)
                a.uri = row["uri"]
                a.serverAddress = row["s-ip"]
                // Every number is bounded here, once, so that nothing downstream sums or prints
                // an absurd value: out of range is reported and read as unknown.
                var fieldCheck = FieldBounds(location: location)
                a.mediaRequests = fieldCheck.count(row, "sc-count")
                a.durationWatched = fieldCheck.seconds(row, "c-duration-watched")
                a.startupTime = fieldCheck.seconds(row, "c-startup-time")
                a.stalls = fieldCheck.count(row, "c-stalls")
                a.bytesTransferred = fieldCheck.count(row, "bytes").map(Int64.init)
                a.observedBitrate = fieldCheck.bitrate(row, "c-observed-bitrate")
                a.indicatedBitrate = fieldCheck.bitrate(row, "sc-indicated-bitrate")
                a.switchBitrate = fieldCheck.bitrate(row, "c-switch-bitrate")
                a.droppedFrames = fieldCheck.count(row, "c-frames-dropped")
                a.downloadOverdue = fieldCheck.count(row, "c-overdue")
                result.diagnose(contentsOf: fieldCheck.diagnostics)
                a.playbackType = row["s-playback-type"]
                a.dump = AVPlayerAccessLogEntry.Dump(date: dumpDate, block: blockLine)
                result.records.append(
                    Record(
                        time: time, location: location, format: .accessLog, sessionID: session, payload: .accessLog(a)))
            }
        }
        if let pending = fieldsWithoutRows, !result.stoppedAtRecordLimit { cutOff(pending, &result) }
        if let nonexistent, let zone = timeZone {
            result.diagnose(LocalClock.nonexistentDiagnostic(file: file, nonexistent, zone: zone))
        }
        if let firstRepeat {
            result.diagnose(
                Diagnostic(
                    SourceLocation(file: file, line: firstRepeat), .info,
                    "the error log was saved \(dumps) times into this file; \(repeatedRows) row\(repeatedRows == 1 ? "" : "s") "
                        + "repeating an earlier dump's counted once"))
        }
        return result
    }

    /// A wall-clock time read as UTC, moved to UTC by the named zone's offset at that moment.
    func localToUTC(_ t: Timestamp?) -> Timestamp? { ReadContext.localToUTC(t, in: timeZone) }

    /// Splits a row on spaces and tabs; a double-quoted value may contain them (error log
    /// `domain` and `comment`), and `""` is an empty value. Reads bytes, not characters: the
    /// character walk was a fifth of `analyze` on a 200,000-row log.
    /// `2026/11/21` or `2026-11-21`: the first field of a row.
    static func looksLikeDate(_ token: String) -> Bool {
        let b = Array(token.utf8)
        guard b.count == 10, b[4] == b[7], b[4] == UInt8(ascii: "/") || b[4] == UInt8(ascii: "-") else { return false }
        return b.enumerated().allSatisfy { i, c in i == 4 || i == 7 || (c >= 0x30 && c <= 0x39) }
    }

    static func tokenize(_ text: String) -> [String] {
        var text = text  // withUTF8 needs a var; a native string is not copied
        return text.withUTF8 { b in
            var out: [String] = []
            var current: [UInt8] = []
            var inQuotes = false
            var wasQuoted = false
            for c in b {
                if c == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                    wasQuoted = true
                } else if (c == UInt8(ascii: " ") || c == UInt8(ascii: "\t")) && !inQuotes {
                    if !current.isEmpty || wasQuoted { out.append(String(decoding: current, as: UTF8.self)) }
                    current.removeAll(keepingCapacity: true)
                    wasQuoted = false
                } else {
                    current.append(c)
                }
            }
            if !current.isEmpty || wasQuoted { out.append(String(decoding: current, as: UTF8.self)) }
            return out
        }
    }
}

/// The plausible range of each kind of access-log number. A value outside it (negative, not
/// finite, larger than any playback could produce) is a diagnostic on its line and reads as
/// unknown: never zero, never summed.
struct FieldBounds {
    /// A year of playback: longer durations are not real.
    static let maxSeconds = 365.0 * 86_400
    /// 1 Tbit/s: no HLS variant or network comes near.
    static let maxBitrate = 1e12
    /// Counts (requests, stalls, frames, bytes) up to 2^50: far above any session, far below overflow.
    static let maxCount = 1 << 50

    let location: SourceLocation
    var diagnostics: [Diagnostic] = []

    init(location: SourceLocation) { self.location = location }

    mutating func seconds(_ row: AVPlayerAccessLogFields, _ name: String) -> Double? {
        decimal(row, name, max: Self.maxSeconds)
    }

    mutating func bitrate(_ row: AVPlayerAccessLogFields, _ name: String) -> Double? {
        decimal(row, name, max: Self.maxBitrate)
    }

    mutating func count(_ row: AVPlayerAccessLogFields, _ name: String) -> Int? {
        guard let text = row[name] else { return nil }
        if let v = Int(text), v >= 0, v <= Self.maxCount { return v }
        reject(name, text)
        return nil
    }

    mutating func decimal(_ row: AVPlayerAccessLogFields, _ name: String, max: Double) -> Double? {
        guard let text = row[name] else { return nil }
        if let v = Double(text), v.isFinite, v >= 0, v <= max { return v }
        reject(name, text)
        return nil
    }

    mutating func reject(_ name: String, _ text: String) {
        diagnostics.append(
            Diagnostic(location, .warning, "\(name) '\(text.prefix(40))' is out of range; read as unknown"))
    }
}
