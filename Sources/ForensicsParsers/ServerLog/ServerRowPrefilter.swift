import ForensicsCore

/// The cheap look at a delimited server row (W3C, CloudFront real-time) before it is read
/// whole: with a `ServerRowFilter`, most rows of a day's logs are other viewers', and all such a
/// row gives is its time for the coverage. A row is read whole only when its path or request id
/// cell is one of the bundle's, or its bytes hold one of the bundle's session ids (a session id
/// can sit in a query's CMCD, a header column, its own column).
struct ServerRowPrefilter {
    var path: Int?
    var requestID: Int?
    var date: Int?
    var time: Int?
    var timestamp: Int?
    /// The last cell the look needs.
    var last = -1
    /// The filter's session ids as bytes, upper- and lower-case.
    var sessionBytes: [[UInt8]] = []

    /// Nil when the columns give no path or no time to look at: every row is then read whole.
    init?(columns: [(field: ServerLogDeclaration.Field, order: Int)?], filter: ServerRowFilter) {
        for (i, column) in columns.enumerated() {
            guard let field = column?.field else { continue }
            switch field {
            case .path where path == nil, .pathAndQuery where path == nil: path = i
            case .requestID where requestID == nil: requestID = i
            case .date where date == nil: date = i
            case .time where time == nil: time = i
            case .timestamp where timestamp == nil: timestamp = i
            default: continue
            }
        }
        guard let p = path, timestamp != nil || (date != nil && time != nil) else { return nil }
        last = max(p, requestID ?? -1, date ?? -1, time ?? -1, timestamp ?? -1)
        // Lower-cased: the look compares without ASCII case, as the filter does.
        for sid in filter.sessions where !sid.isEmpty { sessionBytes.append(Array(sid.lowercased().utf8)) }
    }

    /// The row's time (seconds since 1970) when it can be set aside unread; nil when it must be
    /// read whole.
    func setAside(_ bytes: ArraySlice<UInt8>, separator: UInt8, filter: ServerRowFilter) -> Double? {
        var cells = [Range<Int>?](repeating: nil, count: last + 1)
        var start = bytes.startIndex
        var index = 0
        var i = bytes.startIndex
        while index <= last {
            if i == bytes.endIndex || bytes[i] == separator {
                cells[index] = start..<i
                index += 1
                if i == bytes.endIndex { break }
                start = i + 1
            }
            i += 1
        }
        guard let p = path, let pathCell = cells[p] else { return nil }
        let pathBytes = bytes[pathCell]
        let pathText: String
        if pathBytes.contains(UInt8(ascii: "%")) || pathBytes.contains(UInt8(ascii: "?")) {
            let raw = String(decoding: pathBytes, as: UTF8.self)
            let stem =
                raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? raw
            pathText = stem.percentDecoded ?? stem
        } else {
            pathText = String(decoding: pathBytes, as: UTF8.self)
        }
        if filter.paths.contains(pathText) { return nil }
        if let r = requestID, let cell = cells[r], !cell.isEmpty,
            filter.responseValues.contains(String(decoding: bytes[cell], as: UTF8.self))
        {
            return nil
        }
        for sid in sessionBytes where Self.contains(bytes, sid) { return nil }
        if let t = timestamp, let cell = cells[t] {
            return ServerRowReader.timestamp(String(decoding: bytes[cell], as: UTF8.self))?.secondsSince1970
        }
        guard let d = date, let dateCell = cells[d], let t = time, let timeCell = cells[t] else { return nil }
        return Self.seconds(date: bytes[dateCell], time: bytes[timeCell])
    }

    /// `YYYY-MM-DD` and `HH:MM:SS` (UTC) as seconds since 1970, read digit by digit.
    static func seconds(date: ArraySlice<UInt8>, time: ArraySlice<UInt8>) -> Double? {
        func number(_ s: ArraySlice<UInt8>) -> Int64? {
            guard !s.isEmpty, s.count <= 4 else { return nil }
            var n: Int64 = 0
            for c in s {
                guard c >= 0x30, c <= 0x39 else { return nil }
                n = n * 10 + Int64(c - 0x30)
            }
            return n
        }
        let d = date.split(separator: UInt8(ascii: "-"))
        let t = time.split(separator: UInt8(ascii: ":"))
        guard d.count == 3, t.count == 3, let y = number(d[0]), let m = number(d[1]), let day = number(d[2]),
            let hh = number(t[0]), let mm = number(t[1]), hh < 24, mm < 60,
            let days = CivilDate.days(year: y, month: m, day: day)
        else { return nil }
        let secondBytes = t[2].prefix { $0 != UInt8(ascii: ".") }
        guard let ss = number(secondBytes), ss < 61 else { return nil }
        return Double(days * 86400 + hh * 3600 + mm * 60 + ss)
    }

    /// Whether `needle` (lower-case) occurs in `haystack`, ASCII letters compared without case.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        @inline(__always) func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        var i = haystack.startIndex
        let end = haystack.endIndex - needle.count
        while i <= end {
            if lower(haystack[i]) == first,
                haystack[i..<(i + needle.count)].elementsEqual(needle, by: { lower($0) == $1 })
            {
                return true
            }
            i += 1
        }
        return false
    }
}
