import ForensicsCore
import Foundation

/// Turns a log's wall-clock times, written in a named zone (`--timezone Europe/Berlin`), into
/// UTC row by row, through the zone's daylight-saving changes.
///
/// Why a running clock and not one look-up per time: when the clocks go back, an hour of wall
/// times happens twice (02:00–03:00 in Berlin on the last Sunday of October). A look-up alone
/// must pick one offset for both, and places every row of the first pass an hour late. A log is
/// written in order, so the earlier reading is taken unless it lies well before the rows already
/// read (then the log is in the second pass). When the clocks go forward, an hour of wall times
/// never happens: such a time is read with the offset before the change and counted, so the
/// reader can say the zone may be wrong.
package struct LocalClock {
    let zone: TimeZone
    /// The latest time read so far, in UTC.
    var latest: Timestamp?
    /// How far a row may go back (10 minutes) before its ambiguous time is read as the second
    /// pass (rows a little out of order stay in the first).
    static let slack = 600.0

    package init(zone: TimeZone) {
        self.zone = zone
    }

    func offset(at seconds: Double) -> Double {
        Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
    }

    /// The offset of the last day read with no change within a day of it: most rows of a log
    /// fall on such days, and then need no look-up (review: seven zone look-ups a row).
    var quietDay: (day: Int64, offset: Double)?

    /// `wall` (a wall-clock time read as if UTC) in UTC, and whether the zone has no such time.
    package mutating func utc(_ wall: Timestamp) -> (time: Timestamp, nonexistent: Bool) {
        let seconds = wall.secondsSince1970
        let day = Int64((seconds / 86_400).rounded(.down))
        if let quiet = quietDay, quiet.day == day {
            let time = Timestamp(seconds - quiet.offset)
            if latest.map({ time > $0 }) ?? true { latest = time }
            return (time, false)
        }
        // The offsets in force a day either side cover both sides of any change on this day.
        let before = offset(at: seconds - 86_400)
        let after = offset(at: seconds + 86_400)
        // No change from a day before to a day after this day's start and end: every wall time
        // of the day reads with one offset.
        let dayStart = Double(day) * 86_400
        if before == after, offset(at: dayStart - 2 * 86_400) == before, offset(at: dayStart + 3 * 86_400) == before,
            zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: dayStart - 2 * 86_400))
                .map({ $0.timeIntervalSince1970 > dayStart + 3 * 86_400 }) ?? true
        {
            quietDay = (day, before)
            let time = Timestamp(seconds - before)
            if latest.map({ time > $0 }) ?? true { latest = time }
            return (time, false)
        }
        let guess = offset(at: seconds - offset(at: seconds))
        var readings: [Double] = []
        for o in [before, after, guess] where offset(at: seconds - o) == o {
            let instant = seconds - o
            if !readings.contains(instant) { readings.append(instant) }
        }
        readings.sort()
        let chosen: Double
        let nonexistent = readings.isEmpty
        if let first = readings.first {
            // The second pass once a row was read after the change (offset as the later reading's),
            // or when a time goes back further than the slack (the clocks were just turned back).
            if readings.count > 1, let latest,
                (latest.secondsSince1970 > first && offset(at: latest.secondsSince1970) == offset(at: readings[1]))
                    || first < latest.secondsSince1970 - Self.slack
            {
                chosen = readings[1]
            } else {
                chosen = first
            }
        } else {
            chosen = seconds - before
        }
        let time = Timestamp(chosen)
        if latest.map({ time > $0 }) ?? true { latest = time }
        return (time, nonexistent)
    }

    /// The warning for times the zone skips (`first` line, `count` rows): the zone stated may
    /// not be the device's.
    package static func nonexistentDiagnostic(
        file: String, _ found: (first: Int, count: Int), zone: TimeZone
    )
        -> Diagnostic
    {
        Diagnostic(
            SourceLocation(file: file, line: found.first), .warning,
            "\(found.count) time\(found.count == 1 ? "" : "s") that \(zone.identifier) skips (its clocks went forward): read with the offset before the change; the zone given with --timezone may not be the device's"
        )
    }
}
