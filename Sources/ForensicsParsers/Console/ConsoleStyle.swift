import ForensicsCore

/// The shapes a device console reaches us in, each recognised by a line's whole head — never by a
/// word in it — as Apple's tools write them:
///
/// - `log show` (default style): `2024-10-06 00:31:18.068529+0900 0x13983 Default 0x0 5224 0
///   process: (Library) [subsystem:category] message`;
/// - `log show --style compact`: `2022-11-14 13:21:14.972 Df My App[59972:780a15] (Library) message`
///   (milliseconds, no zone);
/// - `log show --style syslog`: `2023-09-27 22:55:39.622369+0200  localhost process[41737]: message`;
/// - Xcode's console and `NSLog` on stderr: `2018-06-18 16:19:54.437079+0700 MyApp[7041:1593121] message`;
/// - a Console.app copy: `default<TAB>20:13:26.706239+0100<TAB>mediaserverd<TAB>message` (no date);
/// - the device syslog of older tools: `Apr  7 15:50:08 iPhone mediaserverd(AudioToolbox)[4584] <Notice>: message`;
/// - Xcode 15's copy with metadata: the message, then `Type: Error | Timestamp: … | Process: … |
///   Library: … | Subsystem: … | Category: … | TID: …`.
///
/// A line that has no head continues the entry before it (multi-line messages). JSON and NDJSON
/// (`log show --style json|ndjson`) are read by key, in `DeviceConsoleReader.takeJSON`.
package enum ConsoleStyle: String, Sendable, CaseIterable {
    case logShow = "log show"
    case logShowCompact = "log show (compact)"
    case logShowSyslog = "log show (syslog)"
    case nsLog = "Xcode console / NSLog"
    case consoleApp = "Console.app copy"
    case deviceSyslog = "device syslog"
    case xcodeMetadata = "Xcode console with metadata"

    /// What a head says of its entry.
    package struct Head: Sendable {
        package var time: Timestamp?
        /// The zone's offset, seconds east of UTC, when the time carried one (a `log show`
        /// compact time does not: it is device local time).
        package var offset: Int?
        package var process: String?
        package var level: String?
        package var library: String?
        package var subsystem: String?
        package var category: String?
        package var message: Substring
    }

    /// The style whose head `line` is, trying the stricter shapes first.
    package static func detect(_ line: Substring) -> ConsoleStyle? {
        for style in [ConsoleStyle.logShow, .logShowCompact, .logShowSyslog, .nsLog, .consoleApp, .deviceSyslog]
        where style.head(line, defaultOffset: 0) != nil {
            return style
        }
        if metadata(line) != nil { return .xcodeMetadata }
        return nil
    }

    /// Lines `log show` writes around its entries: its filter, what it skipped, the column header
    /// and the closing counts. Skipped, never entries.
    package static func isPreamble(_ line: Substring) -> Bool {
        line.hasPrefix("Filtering the log data") || line.hasPrefix("Skipping ") || line.hasPrefix("Timestamp ")
            || line.hasPrefix("-----") || line.hasPrefix("Log      - ") || line.hasPrefix("Activity - ")
            || line.hasPrefix("=====")
    }

    /// The head of a line in this style, or nil when the line continues the previous entry.
    package func head(_ line: Substring, defaultOffset: Int) -> Head? {
        switch self {
        case .logShow: return Self.logShowHead(line)
        case .logShowCompact: return Self.compactHead(line, defaultOffset: defaultOffset)
        case .logShowSyslog: return Self.syslogHead(line)
        case .nsLog: return Self.nsLogHead(line, defaultOffset: defaultOffset)
        case .consoleApp: return Self.consoleAppHead(line, defaultOffset: defaultOffset)
        case .deviceSyslog: return Self.deviceSyslogHead(line)
        case .xcodeMetadata: return nil  // its head follows the message: see `metadata`
        }
    }

    // MARK: - Shapes

    /// `2024-10-06 00:31:18.068529+0900`: a date, a time and (when `zoned`) an offset, then a space.
    private static func timestamp(_ line: Substring, zoned: Bool?, defaultOffset: Int) -> (Timestamp, Int?, Substring)?
    {
        guard line.utf8.count >= 19, let space = line.dropFirst(11).firstIndex(where: { $0 == " " || $0 == "\t" })
        else {
            return nil
        }
        let text = line[..<space]
        guard text.utf8.count >= 16, text.utf8.count <= 40, text.dropFirst(4).first == "-",
            text.dropFirst(10).first == " "
        else { return nil }
        let clock = text.dropFirst(11)
        let hasZone = zoneOffset(clock) != nil
        if let zoned, zoned != hasZone { return nil }
        guard let time = TimestampParser.parse(String(text), defaultOffsetSeconds: defaultOffset) else { return nil }
        return (time, zoneOffset(clock), line[space...].drop { $0 == " " || $0 == "\t" })
    }

    /// `+0900`, `-07:00` or `Z` at the end of a clock time, in seconds east of UTC.
    package static func zoneOffset(_ clock: Substring) -> Int? {
        if clock.hasSuffix("Z") || clock.hasSuffix("z") { return 0 }
        guard let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        let digits = clock[clock.index(after: sign)...].filter(\.isNumber)
        guard digits.count == 4, let v = Int(digits) else { return nil }
        let seconds = (v / 100) * 3600 + (v % 100) * 60
        return clock[sign] == "-" ? -seconds : seconds
    }

    /// Whitespace-separated words: the next word and the rest after its spaces.
    private static func word(_ s: Substring) -> (Substring, Substring)? {
        let w = s.prefix { $0 != " " && $0 != "\t" }
        guard !w.isEmpty else { return nil }
        return (w, s.dropFirst(w.count).drop { $0 == " " || $0 == "\t" })
    }

    private static func isHex(_ s: Substring) -> Bool {
        s.hasPrefix("0x") && s.count > 2 && s.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    private static let levels: Set<String> = [
        "default", "info", "debug", "error", "fault", "notice", "warning", "critical", "alert", "emergency",
    ]
    private static let compactLevels: [Substring: String] = [
        "Df": "default", "E": "error", "Er": "error", "Fa": "fault", "F": "fault", "I": "info", "In": "info",
        "Db": "debug", "D": "debug", "A": "activity",
    ]

    /// `process: (Library) [subsystem:category] message` — the `(Library)` and the brackets optional.
    private static func sourceAndMessage(_ rest: Substring, into head: inout Head) {
        var m = rest
        if m.hasPrefix("("), let close = m.firstIndex(of: ")"), m.distance(from: m.startIndex, to: close) < 80 {
            head.library = String(m[m.index(after: m.startIndex)..<close])
            m = m[m.index(after: close)...].drop { $0 == " " }
        }
        if m.hasPrefix("[spid "), let close = m.firstIndex(of: "]") {
            m = m[m.index(after: close)...].drop { $0 == " " }
        }
        if m.hasPrefix("["), let close = m.firstIndex(of: "]"), m.distance(from: m.startIndex, to: close) < 120 {
            let inner = m[m.index(after: m.startIndex)..<close]
            if let colon = inner.firstIndex(of: ":"), !inner.contains(" ") {
                head.subsystem = String(inner[..<colon])
                head.category = String(inner[inner.index(after: colon)...])
                m = m[m.index(after: close)...].drop { $0 == " " }
            }
        }
        head.message = m
    }

    private static func logShowHead(_ line: Substring) -> Head? {
        guard let (time, offset, afterTime) = timestamp(line, zoned: true, defaultOffset: 0),
            let (thread, r1) = word(afterTime), isHex(thread),
            let (type, r2) = word(r1), type.first?.isUppercase == true, type.allSatisfy(\.isLetter),
            let (activity, r3) = word(r2), isHex(activity),
            let (pid, r4) = word(r3), pid.allSatisfy(\.isNumber),
            let (ttl, r5) = word(r4), ttl.allSatisfy(\.isNumber)
        else { return nil }
        var rest = r5
        if rest.hasPrefix("[spid "), let close = rest.firstIndex(of: "]") {
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        guard let colon = rest.range(of: ": ") ?? (rest.hasSuffix(":") ? rest.range(of: ":") : nil) else {
            return nil
        }
        var head = Head(
            time: time, offset: offset, process: String(rest[..<colon.lowerBound]),
            level: type.lowercased(), message: "")
        sourceAndMessage(rest[colon.upperBound...], into: &head)
        return head
    }

    /// `Name[pid:tid]` (the name may hold spaces), then the rest.
    private static func processWithIDs(_ s: Substring, hexThread: Bool) -> (String, Substring)? {
        var search = s.startIndex
        while let open = s[search...].firstIndex(of: "["), s.distance(from: s.startIndex, to: open) <= 120 {
            let after = s[s.index(after: open)...]
            if let close = after.firstIndex(of: "]") {
                let ids = after[..<close]
                let parts = ids.split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isNumber), !parts[1].isEmpty,
                    parts[1].allSatisfy({ hexThread ? $0.isHexDigit : $0.isNumber }), open > s.startIndex
                {
                    let rest = after[after.index(after: close)...]
                    guard rest.isEmpty || rest.first == " " else { return nil }
                    return (String(s[..<open]), rest.drop { $0 == " " })
                }
            }
            search = s.index(after: open)
        }
        return nil
    }

    private static func compactHead(_ line: Substring, defaultOffset: Int) -> Head? {
        guard let (time, _, rest) = timestamp(line, zoned: false, defaultOffset: defaultOffset),
            let (type, r1) = word(rest), let level = compactLevels[type],
            let (process, r2) = processWithIDs(r1, hexThread: true)
        else { return nil }
        var head = Head(time: time, offset: nil, process: process, level: level, message: "")
        sourceAndMessage(r2, into: &head)
        return head
    }

    private static func syslogHead(_ line: Substring) -> Head? {
        guard let (time, offset, rest) = timestamp(line, zoned: true, defaultOffset: 0),
            let (_, r1) = word(rest),
            let colon = r1.range(of: "]: ") ?? (r1.hasSuffix("]:") ? r1.range(of: "]:") : nil),
            let open = r1[..<colon.lowerBound].lastIndex(of: "["),
            r1[r1.index(after: open)..<colon.lowerBound].allSatisfy(\.isNumber), open > r1.startIndex,
            !r1[..<open].contains(" ")
        else { return nil }
        var head = Head(
            time: time, offset: offset, process: String(r1[..<open]), level: nil, message: "")
        sourceAndMessage(r1[colon.upperBound...].drop { $0 == " " }, into: &head)
        return head
    }

    private static func nsLogHead(_ line: Substring, defaultOffset: Int) -> Head? {
        guard let (time, offset, rest) = timestamp(line, zoned: nil, defaultOffset: defaultOffset),
            let (process, message) = processWithIDs(rest, hexThread: false)
        else { return nil }
        return Head(
            time: time, offset: offset, process: process, level: nil, message: message)
    }

    /// `type<TAB>time<TAB>process<TAB>message`; the time may carry a date, and a space before its zone.
    private static func consoleAppHead(_ line: Substring, defaultOffset: Int) -> Head? {
        let columns = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
        guard columns.count == 4, levels.contains(columns[0].lowercased()) || columns[0] == "activity",
            !columns[2].isEmpty, !columns[2].contains(" ")
        else { return nil }
        let clock = columns[1].replacingOccurrences(of: " +", with: "+").replacingOccurrences(of: " -", with: "-")
        // A bare clock time is checked on a fixed day and kept without a time: a copy has no date.
        let dated = clock.count > 20 && clock.dropFirst(4).first == "-" ? clock : "1970-01-02 " + clock
        guard clock.first?.isNumber == true, dated.dropFirst(13).first == ":",
            let time = TimestampParser.parse(dated, defaultOffsetSeconds: defaultOffset)
        else { return nil }
        let offset = zoneOffset(Substring(clock.dropFirst(dated == clock ? 11 : 0)))
        return Head(
            time: dated == clock ? time : nil, offset: offset, process: String(columns[2]),
            level: columns[0].lowercased(), message: columns[3])
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Apr  7 15:50:08 host process(Library)[pid] <Level>: message` (no year: no time is kept).
    private static func deviceSyslogHead(_ line: Substring) -> Head? {
        guard line.count > 16, months.contains(String(line.prefix(3))), line.dropFirst(3).first == " " else {
            return nil
        }
        let afterMonth = line.dropFirst(4).drop { $0 == " " }
        guard let (day, r1) = word(afterMonth), day.count <= 2, day.allSatisfy(\.isNumber),
            let (clock, r2) = word(r1), clock.count == 8, clock.dropFirst(2).first == ":",
            let (_, r3) = word(r2), let levelOpen = r3.range(of: " <"), let levelClose = r3.range(of: ">: "),
            levelOpen.upperBound < levelClose.lowerBound
        else { return nil }
        let who = r3[..<levelOpen.lowerBound]
        guard let bracket = who.lastIndex(of: "["), who.hasSuffix("]") else { return nil }
        var process = who[..<bracket]
        var library: String?
        if let paren = process.firstIndex(of: "("), process.hasSuffix(")") {
            library = String(process[process.index(after: paren)..<process.index(before: process.endIndex)])
            process = process[..<paren]
        }
        let level = r3[levelOpen.upperBound..<levelClose.lowerBound].lowercased()
        guard levels.contains(level) else { return nil }
        return Head(
            time: nil, offset: nil, process: String(process), level: level, library: library,
            message: r3[levelClose.upperBound...])
    }

    /// Xcode 15's metadata line: `Type: Error | Timestamp: 2025-08-15 19:59:42.498469+02:00 |
    /// Process: App | Library: AVFCore | Subsystem: com.apple.avfoundation | Category: … | TID: 0x…`.
    package static func metadata(_ line: Substring) -> Head? {
        guard line.hasPrefix("Type: "), line.contains(" | Timestamp: ") else { return nil }
        var head = Head(time: nil, offset: nil, message: "")
        for field in line.split(separator: "|") {
            let parts = field.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: " ")
            let value = parts[1].trimmingCharacters(in: " ")
            guard !value.isEmpty else { continue }
            switch key {
            case "Type": head.level = value.lowercased()
            case "Timestamp":
                head.time = TimestampParser.parse(value)
                head.offset = zoneOffset(Substring(value.dropFirst(11)))
            case "Process": head.process = value
            case "Library": head.library = value
            case "Subsystem": head.subsystem = value
            case "Category": head.category = value
            default: break
            }
        }
        return head.time == nil ? nil : head
    }
}
