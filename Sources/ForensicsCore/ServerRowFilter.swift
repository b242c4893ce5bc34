/// Which rows of a day of server logs can concern a bundle: a server log holds every viewer, so
/// when it is given apart from the bundle (`--cdn-logs`) it is read through this filter, and
/// only the rows that could join one of the bundle's requests are kept — the rest are counted in
/// the file's `ServerLogCoverage`, never held. Memory is then bounded by the bundle, not by the
/// size of the logs.
///
/// A row is kept when it carries one of the bundle's keys (a request id its client recorded, a
/// session id), whatever its time — the join estimates the clock offset from exactly those —
/// or when its path is one the bundle requested and it started near the bundle's time.
package struct ServerRowFilter: Sendable, Equatable {
    /// Request paths as the join compares them (`URLCanonicalizer.path`).
    package var paths: Set<String> = []
    /// Values of the clients' response headers (a CDN request id is one of them), and each
    /// value's part before `-` (a Cloudflare `CF-Ray` is `<ray>-<colo>`).
    package var responseValues: Set<String> = []
    /// Session ids, upper-cased.
    package var sessions: Set<String> = []
    /// Seconds since 1970: the bundle's requests' times.
    package var earliest = Double.infinity
    package var latest = -Double.infinity
    /// How far from the bundle's time a row with only its path in common is still kept: wide
    /// enough for any clock offset the join can estimate.
    package var slack: Double = 2 * 3600

    package init() {}

    /// Adds a client record's keys.
    package mutating func add(_ record: Record) {
        if let sid = record.sessionID, !sid.isEmpty { sessions.insert(sid.uppercased()) }
        guard case .request(let r) = record.payload else { return }
        paths.insert(URLCanonicalizer.path(r.url))
        if let t = record.time?.secondsSince1970 {
            earliest = min(earliest, t)
            latest = max(latest, t)
        }
        for (_, value) in r.responseHeaders where !value.isEmpty && value.utf8.count <= 256 {
            responseValues.insert(value)
            if let dash = value.firstIndex(of: "-") { responseValues.insert(String(value[..<dash])) }
        }
    }

    /// Whether a row could join one of the bundle's requests.
    package func keeps(_ r: ServerRequest, start: Double?) -> Bool {
        if let id = r.requestID, responseValues.contains(id) { return true }
        if let sid = r.sessionHeader, sessions.contains(sid.uppercased()) { return true }
        guard paths.contains(r.path), let start else { return false }
        return start >= earliest - slack && start <= latest + slack
    }
}

/// What a server log held, whether or not its rows were kept: how many, the time they cover,
/// and how many started in each minute (for "the logs cover …" and "no row from … to …").
/// Bounded: a log spanning more minutes than `maxMinutes` stops adding new minutes.
package struct ServerLogCoverage: Sendable, Equatable {
    package var rows = 0
    package var earliest = Double.infinity
    package var latest = -Double.infinity
    /// Rows starting in each minute since 1970.
    package var perMinute: [Int64: Int] = [:]
    package static let maxMinutes = 200_000

    package init() {}

    package mutating func add(start: Double, end: Double) {
        rows += 1
        earliest = min(earliest, start)
        latest = max(latest, end)
        guard start.isFinite, abs(start) < 1e12 else { return }
        let minute = Int64((start / 60).rounded(.down))
        if perMinute[minute] != nil || perMinute.count < Self.maxMinutes { perMinute[minute, default: 0] += 1 }
    }

    /// Counts read back from a stored file may be anything a planted store holds: sums saturate.
    package mutating func merge(_ other: ServerLogCoverage) {
        rows = Int.saturatingSum(rows, other.rows)
        earliest = min(earliest, other.earliest)
        latest = max(latest, other.latest)
        for (m, n) in other.perMinute where perMinute[m] != nil || perMinute.count < Self.maxMinutes {
            perMinute[m] = Int.saturatingSum(perMinute[m] ?? 0, n)
        }
    }

    /// Rows starting between `from` and `to`, to the minute (whole minutes at either end counted).
    package func count(startingIn from: Double, _ to: Double) -> Int {
        guard from <= to, from.isFinite, to.isFinite, abs(from) < 1e12, abs(to) < 1e12 else { return 0 }
        let a = Int64((from / 60).rounded(.down))
        let b = Int64((to / 60).rounded(.down))
        guard b - a <= 100_000 else {
            return perMinute.filter { $0.key >= a && $0.key <= b }.values.reduce(0, Int.saturatingSum)
        }
        var n = 0
        for m in a...b { n = Int.saturatingSum(n, perMinute[m] ?? 0) }
        return n
    }

    /// Stretches of `from`…`to` longer than `minimum` seconds with no row starting, to the minute.
    package func gaps(in from: Double, _ to: Double, longerThan minimum: Double) -> [(from: Double, to: Double)] {
        guard from < to, from.isFinite, to.isFinite, abs(from) < 1e12, abs(to) < 1e12 else { return [] }
        let a = Int64((from / 60).rounded(.down))
        let b = Int64((to / 60).rounded(.down))
        guard b - a <= 100_000 else { return [] }
        var out: [(from: Double, to: Double)] = []
        var previous = from
        for m in a...b where perMinute[m] != nil {
            let t = max(from, Double(m) * 60)
            if t - previous > minimum { out.append((previous, t)) }
            previous = t
            if out.count >= 3 { break }
        }
        return out
    }
}
