import ForensicsCore
import Foundation

/// Turns one server log's lines into `ServerRequest` records by its declaration's field map.
struct ServerRowReader {
    let declaration: ServerLogDeclaration
    let file: String
    var result: ParseResult
    /// The current `#Fields:` columns, each with the declared field it fills and that field's
    /// place in the declaration (nil: not used).
    var columns: [(field: ServerLogDeclaration.Field, order: Int)?] = []
    var columnCount = 0
    /// Rows with fewer columns than `#Fields:` names, and with more: diagnosed once each, counted.
    var shortRows = 0
    var longRows = 0
    var cmcdNonConformant = 0
    let fieldsByName: [String: (field: ServerLogDeclaration.Field, order: Int)]
    /// Whether the declaration has a field for the request's range.
    let logsRange: Bool
    /// Rows not passing it are counted in `coverage`, not kept.
    var filter: ServerRowFilter? {
        didSet { prefilter = filter.flatMap { ServerRowPrefilter(columns: columns, filter: $0) } }
    }
    var coverage = ServerLogCoverage()
    /// Rows go here instead of the result, when set.
    var sink: (any ServerRowSink)?
    /// The `#Fields:` line rows are read under.
    var header: String?
    /// With a filter, on delimited rows: the look that sets other viewers' rows aside unread.
    var prefilter: ServerRowPrefilter?

    init(declaration: ServerLogDeclaration, file: String) {
        self.declaration = declaration
        self.file = file
        self.result = ParseResult(file: file, format: declaration.format)
        var byName: [String: (field: ServerLogDeclaration.Field, order: Int)] = [:]
        for (order, (name, field)) in declaration.fields.enumerated() where byName[name.lowercased()] == nil {
            byName[name.lowercased()] = (field, order)
        }
        self.fieldsByName = byName
        if case .delimited(_, let names) = declaration.layout {
            columns = names.map { byName[$0.lowercased()] }
            columnCount = names.count
        }
        self.logsRange = declaration.fields.contains {
            switch $0.field {
            case .rangeStart, .rangeHeader: true
            default: false
            }
        }
    }

    /// The names of a `#Fields:` line.
    static func fieldNames(_ line: ArraySlice<UInt8>) -> [Substring] {
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return [] }
        return text[text.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    /// A value by name; `a.b` reads key `b` of the object at key `a`.
    static func value(_ object: JSONValue, _ name: String) -> JSONValue? {
        if let direct = object[name] { return direct }
        var current = object
        for part in name.split(separator: ".") {
            guard let next = current[String(part)] else { return nil }
            current = next
        }
        return current
    }

    mutating func read(_ line: LineReader.Line) {
        let location = SourceLocation(file: file, line: line.number)
        if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        var values: [(ServerLogDeclaration.Field, String)] = []
        switch declaration.layout {
        case .w3c(let separator), .delimited(let separator, _):
            if case .w3c = declaration.layout, line.bytes.first == UInt8(ascii: "#") {
                if line.bytes.starts(with: "#Fields:".utf8) {
                    let names = Self.fieldNames(line.bytes)
                    columns = []
                    for name in names { columns.append(fieldsByName[name.lowercased()]) }
                    columnCount = names.count
                    header = String(decoding: line.bytes, as: UTF8.self)
                    if let filter { prefilter = ServerRowPrefilter(columns: columns, filter: filter) }
                }
                return
            }
            guard columnCount > 0 else {
                result.diagnose(Diagnostic(location, .warning, "row before any #Fields: line: not read"))
                return
            }
            var bytes = line.bytes
            if bytes.last == 0x0D { bytes = bytes.dropLast() }
            let splitter: UInt8 = bytes.contains(separator) ? separator : 0x20
            if let prefilter, let filter, let t = prefilter.setAside(bytes, separator: splitter, filter: filter) {
                coverage.add(start: t, end: t)
                return
            }
            let cells = bytes.split(separator: splitter, omittingEmptySubsequences: false)
            if cells.count < columnCount {
                shortRows += 1
                if shortRows == 1 {
                    result.diagnose(
                        Diagnostic(
                            location, .warning,
                            "row has \(cells.count) of the \(columnCount) fields #Fields: names (truncated?): the missing ones are unknown"
                        ))
                }
            } else if cells.count > columnCount, cells[columnCount...].contains(where: { !$0.isEmpty }) {
                // (A trailing separator leaves one empty cell: nothing is lost.)
                longRows += 1
                if longRows == 1 {
                    result.diagnose(
                        Diagnostic(
                            location, .warning,
                            "row has \(cells.count) fields, #Fields: names \(columnCount): the extra ones are not read")
                    )
                }
            }
            var ordered: [(order: Int, field: ServerLogDeclaration.Field, text: String)] = []
            for (i, cell) in cells.prefix(columnCount).enumerated() {
                guard let column = columns[i] else { continue }
                let text = cell.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
                if text.isEmpty || text == "-" { continue }
                ordered.append((column.order, column.field, text))
            }
            // Applied in declaration order, so the vendor's preferred field wins where two fill one part.
            ordered.sort { $0.order < $1.order }
            values = ordered.map { ($0.field, $0.text) }
        case .template(let template):
            guard let matched = template.match(line.bytes) else {
                result.diagnose(Diagnostic(location, .warning, "line does not have the log format's shape: not read"))
                return
            }
            var named: [String: String] = [:]
            for (name, value) in matched where named[name] == nil {
                named[name] = String(decoding: LogFormatTemplate.unescaped(value), as: UTF8.self)
            }
            for (name, field) in declaration.fields {
                if let v = named[name], !v.isEmpty, v != "-" { values.append((field, v)) }
            }
        case .combined:
            guard let named = Self.combinedFields(line.bytes) else {
                result.diagnose(Diagnostic(location, .warning, "not a combined-format line: not read"))
                return
            }
            for (name, field) in declaration.fields {
                if let v = named[name], !v.isEmpty, v != "-" { values.append((field, v)) }
            }
        case .jsonLines:
            guard let object = try? JSONValue.parse(line.bytes), case .object = object else {
                result.diagnose(Diagnostic(location, .warning, "not a JSON object: line not read"))
                return
            }
            for (name, field) in declaration.fields {
                guard let v = Self.value(object, name) else { continue }
                switch v {
                case .string(let s): if !s.isEmpty && s != "-" { values.append((field, s)) }
                case .number(let n): values.append((field, Self.numberText(n)))
                case .bool(let b): values.append((field, b ? "true" : "false"))
                case .object(let o) where field.isPersonal:
                    // Each value on its own, as it stands in the raw line.
                    for m in o.members { if let s = m.value.string, !s.isEmpty { values.append((field, s)) } }
                case .object(let o):
                    // Request headers as an object: `name: value` lines.
                    let text = o.members.compactMap { m in m.value.string.map { "\(m.key): \($0)" } }
                        .joined(separator: "\n")
                    values.append((field, text))
                case .null, .array: continue
                }
            }
        }
        var raw = (line.bytes.last == 0x0D ? line.bytes.dropLast() : line.bytes).withUnsafeBufferPointer {
            String(decoding: $0, as: UTF8.self)
        }
        // A JSON writer may escape what redaction looks for (`\u0026token=`, `\/`): the quoted
        // line shows those characters as themselves, so that the values the row names and the
        // secrets in it are found where they stand.
        if case .jsonLines = declaration.layout { raw = Self.unescapedForSearch(raw) }
        guard let record = build(values, raw: raw, location: location) else { return }
        if let sink {
            if case .serverRequest(let r) = record.payload, let start = r.start?.secondsSince1970 {
                coverage.add(start: start, end: r.end?.secondsSince1970 ?? start)
            }
            sink.take(record, header: header)
            return
        }
        if let filter {
            guard case .serverRequest(let r) = record.payload, let start = r.start?.secondsSince1970 else { return }
            coverage.add(start: start, end: r.end?.secondsSince1970 ?? start)
            if !filter.keeps(r, start: start) { return }
        }
        result.records.append(record)
    }

    /// The fields of a combined-format line by nginx's variable names, or nil when the line is
    /// not one: an address, two words, a bracketed time, a quoted request, a status, a size and
    /// (combined) two quoted strings.
    static func combinedFields(_ bytes: ArraySlice<UInt8>) -> [String: String]? {
        var rest = bytes
        if rest.last == 0x0D { rest = rest.dropLast() }
        func word() -> String? {
            guard let space = rest.firstIndex(of: 0x20) else { return nil }
            let w = String(decoding: rest[..<space], as: UTF8.self)
            rest = rest[(space + 1)...]
            return w
        }
        func delimited(_ open: UInt8, _ close: UInt8) -> String? {
            guard rest.first == open else { return nil }
            var i = rest.index(after: rest.startIndex)
            var value: [UInt8] = []
            while i < rest.endIndex, rest[i] != close {
                // nginx escapes `"` and `\` in quoted fields as `\x22`, Apache as `\"`.
                if rest[i] == 0x5C, rest.index(after: i) < rest.endIndex, rest[rest.index(after: i)] == close {
                    i = rest.index(after: i)
                }
                value.append(rest[i])
                i = rest.index(after: i)
            }
            guard i < rest.endIndex else { return nil }
            let next = rest.index(after: i)
            rest = next < rest.endIndex && rest[next] == 0x20 ? rest[rest.index(after: next)...] : rest[next...]
            return String(decoding: value, as: UTF8.self)
        }
        guard let address = word(), !address.isEmpty, let _ = word(), let user = word(),
            let time = delimited(0x5B, 0x5D), let request = delimited(0x22, 0x22), let status = word()
        else { return nil }
        let bytesSent = rest.contains(0x20) ? word() : String(decoding: rest, as: UTF8.self)
        guard status.count == 3, status.allSatisfy(\.isNumber), commonLogTime(time) != nil else { return nil }
        var out = [
            "remote_addr": address, "remote_user": user, "time_local": time, "request": request, "status": status,
            "body_bytes_sent": bytesSent ?? "",
        ]
        if let referer = delimited(0x22, 0x22) { out["http_referer"] = referer }
        if let agent = delimited(0x22, 0x22) { out["http_user_agent"] = agent }
        return out
    }

    /// `21/Nov/2026:10:00:00 +0100` as a UTC instant; nil for anything else.
    static func commonLogTime(_ text: String) -> Timestamp? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let dateTime = parts[0].split(separator: ":", maxSplits: 1)
        let dmy = dateTime.first?.split(separator: "/") ?? []
        guard dateTime.count == 2, dmy.count == 3, let day = Int(dmy[0]),
            let month = months.firstIndex(of: String(dmy[1])),
            let year = Int(dmy[2]), (1...31).contains(day), (1...9999).contains(year)
        else { return nil }
        let zone = parts[1]
        guard zone.count == 5, let sign = zone.first, sign == "+" || sign == "-", let hhmm = Int(zone.dropFirst()),
            hhmm / 100 <= 14, hhmm % 100 < 60
        else { return nil }
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let iso =
            "\(pad(year, 4))-\(pad(month + 1, 2))-\(pad(day, 2))T\(dateTime[1])\(sign)\(zone.dropFirst().prefix(2)):\(zone.suffix(2))"
        return TimestampParser.parse(iso)
    }

    /// An HTTP date (`Tue, 24 Nov 2026 10:00:04 GMT`, what Fastly's `time.start` prints).
    static func httpDate(_ text: String) -> Timestamp? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", parts[0].hasSuffix(",") else { return nil }
        return commonLogTime("\(parts[1])/\(parts[2])/\(parts[3]):\(parts[4]) +0000")
    }

    /// `\/` and `\uXXXX` (a character other than a quote, a backslash or a control character)
    /// written as the characters they stand for; everything else as it is.
    static func unescapedForSearch(_ line: String) -> String {
        guard line.utf8.contains(UInt8(ascii: "\\")) else { return line }
        var out = String.UnicodeScalarView()
        var scalars = Array(line.unicodeScalars)[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            guard c == "\\", let next = scalars.first else {
                out.append(c)
                continue
            }
            if next == "/" {
                out.append("/")
                scalars = scalars.dropFirst()
            } else if next == "u", scalars.count >= 5,
                let v = UInt32(String(String.UnicodeScalarView(scalars.dropFirst().prefix(4))), radix: 16),
                let u = Unicode.Scalar(v), v >= 0x20, u != "\"", u != "\\", !(0xD800...0xDFFF).contains(v)
            {
                out.append(u)
                scalars = scalars.dropFirst(5)
            } else {
                out.append(c)
                out.append(next)
                scalars = scalars.dropFirst()
            }
        }
        return String(out)
    }

    static func numberText(_ n: Double) -> String {
        // Whole numbers below 10^18 print as integers; anything else as Swift writes a Double.
        if n.rounded() == n, abs(n) < 1e18 { return String(Int64(n)) }
        return String(n)
    }

    /// The row from its values, or nil (diagnosed) when it has no time or no path.
    mutating func build(
        _ values: [(ServerLogDeclaration.Field, String)], raw: String, location: SourceLocation
    ) -> Record? {
        var date: String?
        var time: String?
        var anchor: Timestamp?
        var start: Timestamp?
        var end: Timestamp?
        var duration: Double?
        var parts: Double?
        var path: String?
        var rangeStart: Int64?
        var rangeEnd: Int64?
        var cmcd = CMCDPayload()
        var r = ServerRequest(path: "", raw: raw)
        r.resolution = declaration.resolution
        r.rangeLogged = logsRange
        r.requestIDHeader = declaration.requestIDHeader
        var cacheSet = false
        var edgeResult: String?
        // Values present but unreadable (a status of 99999, a time of 1e300): the row is kept
        // without them, and says so.
        var unreadable: [String] = []
        func unread(_ list: inout [String], _ what: String, _ text: String) {
            guard !text.isEmpty, text != "-", text != "null", list.count < 4 else { return }
            list.append("\(what) '\(text.prefix(40))'")
        }
        for (field, text) in values {
            switch field {
            case .date: if date == nil { date = text }
            case .time: if time == nil { time = text }
            case .timestamp:
                if anchor == nil {
                    anchor = Self.timestamp(text)
                    if anchor == nil { unread(&unreadable, "time", text) }
                }
            case .start:
                if start == nil {
                    start = Self.timestamp(text)
                    if start == nil { unread(&unreadable, "start time", text) }
                }
            case .end:
                if end == nil {
                    end = Self.timestamp(text)
                    if end == nil { unread(&unreadable, "end time", text) }
                }
            case .duration(let unit):
                if duration == nil {
                    duration = Self.duration(text, unit)
                    if duration == nil { unread(&unreadable, "duration", text) }
                }
            case .durationPart(let unit):
                if let d = Self.duration(text, unit) { parts = (parts ?? 0) + d }
            case .firstByte(let unit): if r.firstByte == nil { r.firstByte = Self.duration(text, unit) }
            case .originFirstByte(let unit):
                if r.originFirstByte == nil { r.originFirstByte = Self.duration(text, unit) }
            case .method: if r.method == nil { r.method = text }
            case .host: if r.host == nil { r.host = text }
            case .path: if path == nil { path = text }
            case .query:
                // Apache's and Fastly's `%q` keep the `?`.
                if r.query == nil, text != "?" { r.query = text.hasPrefix("?") ? String(text.dropFirst()) : text }
            case .requestLine:
                let parts = text.split(separator: " ")
                if parts.count >= 2 {
                    if r.method == nil { r.method = String(parts[0]) }
                    if path == nil {
                        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                        path = target.first.map(String.init)
                        if target.count == 2, r.query == nil { r.query = String(target[1]) }
                    }
                }
            case .commonLogTime: if anchor == nil { anchor = Self.commonLogTime(text) }
            case .pathAndQuery:
                if path == nil {
                    let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                    path = parts.first.map(String.init)
                    if parts.count == 2, r.query == nil { r.query = String(parts[1]) }
                }
            case .url:
                if path == nil, let scheme = text.range(of: "://") {
                    let rest = text[scheme.upperBound...]
                    let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
                    if r.host == nil { r.host = String(rest[..<hostEnd]) }
                    let tail = rest[hostEnd...].prefix { $0 != "#" }
                    let split = tail.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
                    path = split.first.map { $0.isEmpty ? "/" : String($0) } ?? "/"
                    if split.count == 2, r.query == nil { r.query = String(split[1]) }
                }
            case .status:
                if r.status == nil {
                    r.status = Self.status(text)
                    if r.status == nil, text != "000" { unread(&unreadable, "status", text) }
                }
                if text == "000" { r.clientClosed = true }
            case .originStatus: if r.originStatus == nil { r.originStatus = Self.status(text) }
            case .bytes: if r.bytes == nil { r.bytes = Int64(text).flatMap { $0 >= 0 ? $0 : nil } }
            case .clientIP: if r.clientIP == nil { r.clientIP = text }
            case .userAgent: if r.userAgent == nil { r.userAgent = text }
            case .encodedUserAgent: if r.userAgent == nil { r.userAgent = text.percentDecoded ?? text }
            case .pop:
                // A chain of caches (Media CDN's `cacheId`) names the one nearest the viewer last.
                if r.pop == nil {
                    r.pop = text.split(separator: ",").last.map { $0.trimmingCharacters(in: " ") } ?? text
                }
            case .requestID: if r.requestID == nil { r.requestID = text }
            case .cacheResult:
                if !cacheSet {
                    cacheSet = true
                    r.cacheResultRaw = text
                    r.cacheResult = Self.cacheResult(text)
                }
            case .edgeResult: if edgeResult == nil { edgeResult = text }
            case .detail: if r.detail == nil { r.detail = text }
            case .rangeStart: if rangeStart == nil { rangeStart = Int64(text).flatMap { $0 >= 0 ? $0 : nil } }
            case .rangeEnd: if rangeEnd == nil { rangeEnd = Int64(text).flatMap { $0 >= 0 ? $0 : nil } }
            case .rangeHeader:
                // `bytes=0-99`, or the bare `0-99` some vendors log.
                if r.byteRange == nil {
                    r.byteRange = ByteRange(httpRangeHeader: text.hasPrefix("bytes=") ? text : "bytes=" + text)
                }
            case .sessionHeader: if r.sessionHeader == nil { r.sessionHeader = text }
            case .cmcd: cmcd.merge(CMCDPayload(Substring(text)))
            case .cmcdKey(let key): cmcd.set(key, text)
            case .encodedHeaders: Self.readHeaders(text.percentDecoded ?? text, into: &r, cmcd: &cmcd)
            case .requestHeaders: Self.readHeaders(text, into: &r, cmcd: &cmcd)
            case .tier: r.tier = ServerRequest.Tier(rawValue: text.lowercased()) ?? .unknown
            case .personal: r.personal.append(text)
            }
        }
        if let edgeResult {
            if !cacheSet {
                r.cacheResultRaw = edgeResult
                r.cacheResult = Self.cacheResult(edgeResult)
            } else if edgeResult.lowercased() == "error", [.hit, .miss, .refresh].contains(r.cacheResult) {
                // The response began from the cache or the origin and the request still ended in
                // an error: the client went away first (AWS: "the client disconnected before
                // finishing the download").
                r.clientClosed = true
            }
        }
        if let q = r.query, let fromQuery = CMCDPayload.fromQuery(Substring(q)) { cmcd.merge(fromQuery) }
        r.cmcd = cmcd.values
        cmcdNonConformant += cmcd.nonConformant
        if r.sessionHeader == nil, let sid = cmcd.values["sid"], !sid.isEmpty { r.sessionHeader = sid }
        if r.byteRange == nil, let s = rangeStart {
            // `bytes=0-<Int64.max>` is as open as `bytes=0-`: its length does not fit.
            let length = rangeEnd.flatMap { e -> Int64? in
                guard e >= s else { return nil }
                let (n, overflow) = (e - s).addingReportingOverflow(1)
                return overflow ? nil : n
            }
            r.byteRange = ByteRange(offset: s, length: length)
        }
        if anchor == nil, let date, let time { anchor = TimestampParser.parse("\(date) \(time)") }
        if duration == nil, let parts, parts <= 7 * 86400 { duration = parts }
        r.lastByte = duration
        switch declaration.anchor {
        case .requestEnd:
            end = end ?? anchor
            if start == nil, let end { start = duration.map { end + -$0 } }
        case .unknown:
            // Start or end, not known: cover both readings.
            if let anchor, start == nil, end == nil {
                start = anchor + -(duration ?? 0)
                end = anchor + (duration ?? 0)
                r.anchorKnown = false
            }
        default:
            start = start ?? anchor
            if end == nil, let start { end = duration.map { start + $0 } }
        }
        if let s0 = start, let e0 = end, e0 < s0 {
            unreadable.append("an end \(NumberFormat.trimmed(s0 - e0, decimals: 3)) s before its start")
            end = s0
        }
        if !unreadable.isEmpty {
            result.diagnose(
                Diagnostic(
                    location, .warning,
                    "server row with values that do not read: \(unreadable.joined(separator: ", ")) (kept without them)"
                ))
        }
        if start == nil, end == nil {
            result.diagnose(Diagnostic(location, .warning, "server row without a readable time: not read"))
            return nil
        }
        if start == nil || end == nil {
            r.anchorKnown = false
            start = start ?? end
            end = end ?? start
        }
        r.start = start
        r.end = end
        guard let rawPath = path, !rawPath.isEmpty else {
            result.diagnose(Diagnostic(location, .warning, "server row without a path: not read"))
            return nil
        }
        r.path = rawPath.percentDecoded ?? rawPath
        return Record(
            time: start, location: location, format: declaration.format, sessionID: nil, payload: .serverRequest(r))
    }

    mutating func finish() {
        if filter != nil || sink != nil { result.serverCoverage = coverage }
        if shortRows > 1 || longRows > 1 {
            result.diagnose(
                Diagnostic(
                    SourceLocation(file: file, line: 0), .info,
                    "\(shortRows) rows shorter and \(longRows) rows longer than their #Fields: line"))
        }
        if cmcdNonConformant > 0 {
            result.diagnose(
                Diagnostic(
                    SourceLocation(file: file, line: 0), .info,
                    "\(cmcdNonConformant) CMCD pairs not conformant to CTA-5004 (duplicate keys, unbalanced quotes, empty keys): read leniently"
                ))
        }
    }

    /// RFC 3339 / W3C date-time text, or a number of seconds, milliseconds, microseconds or
    /// nanoseconds since 1970, told apart by magnitude. Nil outside years 0001–9999.
    static func timestamp(_ text: String) -> Timestamp? {
        if let t = TimestampParser.parse(text) { return t }
        guard let n = Double(text), n.isFinite, n > 0 else { return commonLogTime(text) ?? httpDate(text) }
        let seconds: Double =
            switch n {
            case 1e17...: n / 1e9
            case 1e14...: n / 1e6
            case 1e11...: n / 1e3
            default: n
            }
        return Timestamp.isPlausible(seconds) ? Timestamp(seconds) : nil
    }

    /// A duration in seconds; nil when negative, not finite or over a week.
    static func duration(_ text: String, _ unit: ServerLogDeclaration.Unit) -> Double? {
        let trimmed = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let n = Double(trimmed), n.isFinite else { return nil }
        let s = n * unit.seconds
        return s >= 0 && s <= 7 * 86400 ? s : nil
    }

    /// An HTTP status, 100–999; nil for CloudFront's `000` and anything else.
    static func status(_ text: String) -> Int? {
        guard let n = Int(text), (100...999).contains(n) else { return nil }
        return n
    }

    /// Normalises a vendor's cache result (`Hit`, `RefreshHit`, `TCP_MISS`, `expired`, `1`…).
    static func cacheResult(_ raw: String) -> ServerRequest.CacheResult {
        // The words the vendors write most, as they write them (no lower-casing, no search).
        switch raw {
        case "Hit", "hit", "HIT", "1", "true": return .hit
        case "Miss", "miss", "MISS", "0", "false": return .miss
        case "RefreshHit", "expired", "revalidated", "updating": return .refresh
        case "Error": return .error
        default: break
        }
        // A chain (Media CDN: `fetch, miss, hit`) is read at its rightmost, the cache nearest the viewer.
        let last = raw.split(separator: ",").last.map { $0.trimmingCharacters(in: " ") } ?? raw
        let s = last.lowercased()
        if s == "1" || s == "true" { return .hit }
        if s == "0" || s == "false" { return .miss }
        if s.contains("refresh") || s.contains("revalidated") || s.contains("expired") || s.contains("updating") {
            return .refresh
        }
        if s.contains("stale") { return .stale }
        if s.contains("error") { return .error }
        if s.contains("hit") { return .hit }
        if s.contains("miss") { return .miss }
        if s.contains("bypass") || s.contains("pass") || s.contains("dynamic") || s.contains("redirect") {
            return .bypass
        }
        return .unknown
    }

    /// `name: value` lines (or a vendor's header blob): the session header and `CMCD-*` headers.
    static func readHeaders(_ text: String, into r: inout ServerRequest, cmcd: inout CMCDPayload) {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: " ").lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " ")
            if name == "x-playback-session-id", r.sessionHeader == nil, !value.isEmpty {
                r.sessionHeader = value
            } else if name.hasPrefix("cmcd-") {
                cmcd.merge(CMCDPayload(Substring(value)))
            }
        }
    }
}
