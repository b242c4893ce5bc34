import ForensicsCore

/// A time that jumps far from both records around it in its file: a field set to 9999-12-31, a
/// clock that read 1970 for one event, a date typed by hand. One such time stretches a session
/// over years, and a startup or playing time read against it is absurd (probe N: "startup
/// 251607045599 s", an error finding). Such a record keeps everything but its time, and the
/// file says so at its line.
///
/// Why neighbours, not the file's median: a proxy log or a console is appended over weeks and
/// app launches, so a long file's first days are far from its middle and still true. A record
/// more than 30 days from the timed record before it and the one after it (those two near each
/// other or not) is a jump no log of playback makes. The first and last timed records have one
/// neighbour only and are kept: a file may start or end with another session's lines.
///
/// Times before 2000 or from 2200 on are no playback's at all, wherever they are in the file
/// (probe O: a first record dated 1970 made a startup of 1,795,255,201 s): a device clock reset
/// to its epoch, a placeholder date. Fixed bounds, not "now", so that a report never depends on
/// the day it is made.
enum TimeOutliers {
    static let maxDistance = 30 * 86_400.0
    /// 2000-01-01T00:00:00Z and 2200-01-01T00:00:00Z.
    static let earliest = 946_684_800.0
    static let latest = 7_258_118_400.0

    /// A request's own start and end, in seconds (nil for any other record).
    @inline(__always)
    static func requestTimes(_ record: Record) -> (Double?, Double?)? {
        guard case .request(let m) = record.payload else { return nil }
        return (m.start?.secondsSince1970, m.end?.secondsSince1970)
    }

    static func clear(_ result: inout ParseResult) {
        // A window of the last three timed records, in one pass (no copy of the times).
        var before: Double?
        var middle: (index: Int, seconds: Double)?
        var cleared: [Int] = []
        var firstRequest: Int?
        var requestTimes = 0
        for k in result.records.indices {
            // A request's own start and end are bounded the same way (probe Q: a response end
            // in 2200 stretched the session and made a download of 5,462,863,174 s).
            // Read first through a borrow of two numbers (a copy of every request, to mutate it,
            // was 700 instructions a record); changed only when out of bounds.
            if let (start, end) = Self.requestTimes(result.records[k]) {
                let badStart = start.map { !($0 >= earliest && $0 < latest) } ?? false
                let badEnd =
                    end.map { e in !(e >= earliest && e < latest) || (start.map { e - $0 > maxDistance } ?? false) }
                    ?? false
                if badStart || badEnd, case .request(var m) = result.records[k].payload {
                    if badStart { m.start = nil }
                    if badEnd { m.end = nil }
                    result.records[k].payload = .request(m)
                    requestTimes += 1
                    if firstRequest == nil { firstRequest = k }
                }
            }
            guard let t = result.records[k].time?.secondsSince1970 else { continue }
            guard t >= earliest, t < latest else {
                cleared.append(k)
                continue
            }
            if let b = before, let m = middle, abs(m.seconds - b) > maxDistance, abs(m.seconds - t) > maxDistance {
                cleared.append(m.index)
            }
            before = middle?.seconds
            middle = (k, t)
        }
        cleared.sort()
        if requestTimes > 0, let f = firstRequest {
            result.diagnose(
                Diagnostic(
                    result.records[f].location, .warning,
                    "\(requestTimes) request\(requestTimes == 1 ? "" : "s") with a start or end before 2000, from 2200 on, or more than 30 days after its start: read without it"
                ))
        }
        guard let first = cleared.first, let time = result.records[first].time else { return }
        let location = result.records[first].location
        for k in cleared { result.records[k].time = nil }
        let n = cleared.count
        result.diagnose(
            Diagnostic(
                location, .warning,
                "\(n) record\(n == 1 ? "" : "s") dated before 2000, from 2200 on, or more than 30 days from the records around \(n == 1 ? "it" : "them") (the first at \(time.iso8601)): read without a time"
            ))
    }
}
