import ForensicsCore
import Foundation
import GRDB

/// What the triage overview (`index.md`, `triage.json`, `--json-lines`) reads, straight from the
/// index: counts and groupings by SQL, long lists through cursors. Why: the overview of 10,000
/// bundles must not hold 10,000 sessions in memory (peak RSS flat in the fleet's size).
extension TriageIndex {
    /// A bundle as the overview lists it.
    package struct BundleLine: Sendable, Hashable {
        package var file: String
        package var name: String
        package var error: String?
        package var skipped: Bool
        package var incomplete: String?
        package var verdict: String?
        /// Why part of the bundle could not be judged, one reason a line.
        package var couldNotJudge: String?
        package var inputProblems: Int
        package var sessions: Int
    }

    /// A session as the ranking lists it.
    package struct RankedSession: Sendable, Hashable {
        package var bundle: String
        package var file: String
        package var sessionID: String
        package var worst: Severity?
        package var topRule: String?
        package var topFinding: String?
        package var kpis: KPIs
        /// The bundle's verdict (`could-not-judge`…), so a session without findings in a bundle
        /// that could not be judged is not listed as if all was well.
        package var bundleVerdict: String?
    }

    package struct Counts: Sendable, Hashable {
        /// Bundles, stray files not counted.
        package var bundles = 0
        package var sessions = 0
        /// Sessions that show a playback or an attempt at one (what shares are of).
        package var played = 0
        package var unreadable = 0
        package var skipped = 0
        package var incomplete = 0
        /// Bundles with no finding at warning level whose evidence could not all be judged.
        package var couldNotJudge = 0
        /// Bundles read whose files hold nothing playback-related (server logs alone, say):
        /// neither unreadable nor judged.
        package var nothingRead = 0
        /// Bundles any part of which was not judged: could-not-judge reasons (caveats of a bundle
        /// with problems included), unreadable, or read in part — what `--fail-on` will not pass.
        package var notFullyJudged = 0
        package var problems = 0
        /// The worst severity of any session's finding.
        package var worst: Severity?
    }

    package func counts() throws -> Counts {
        try queue.read { db in
            var c = Counts()
            c.bundles = try Int.fetchOne(db, sql: "SELECT count(*) FROM bundles WHERE NOT skipped") ?? 0
            c.skipped = try Int.fetchOne(db, sql: "SELECT count(*) FROM bundles WHERE skipped") ?? 0
            c.unreadable =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM bundles WHERE \(BundleFilter.unreadable.sql)") ?? 0
            c.incomplete =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM bundles WHERE \(BundleFilter.incomplete.sql)") ?? 0
            c.couldNotJudge =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM bundles WHERE \(BundleFilter.couldNotJudge.sql)") ?? 0
            c.nothingRead =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM bundles WHERE \(BundleFilter.nothingRead.sql)") ?? 0
            c.notFullyJudged =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM bundles WHERE \(BundleFilter.notFullyJudged.sql)") ?? 0
            c.sessions = try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") ?? 0
            c.played = try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions WHERE played") ?? 0
            c.problems = try Int.fetchOne(db, sql: "SELECT count(*) FROM problems") ?? 0
            c.worst = try Int.fetchOne(db, sql: "SELECT max(severity_rank) FROM findings").flatMap(Severity.init(rank:))
            return c
        }
    }

    /// Which bundles `forEachBundle` lists.
    package enum BundleFilter: Sendable {
        case all, skipped, unreadable, incomplete, couldNotJudge, nothingRead, notFullyJudged

        var sql: String {
            switch self {
            case .all: "1"
            case .skipped: "skipped"
            case .unreadable: "error IS NOT NULL AND NOT skipped"
            case .incomplete: "incomplete IS NOT NULL"
            case .couldNotJudge: "verdict = 'could-not-judge'"
            case .nothingRead: "verdict = 'nothing-read' AND error IS NULL AND NOT skipped"
            case .notFullyJudged:
                "(could_not_judge IS NOT NULL OR (error IS NOT NULL AND NOT skipped) OR incomplete IS NOT NULL)"
            }
        }
    }

    /// Bundles in report-file order.
    package func forEachBundle(_ filter: BundleFilter = .all, _ body: (BundleLine) throws -> Void) throws {
        try queue.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT file, name, error, skipped, incomplete, verdict, could_not_judge, input_problems,
                      session_count FROM bundles
                    WHERE \(filter.sql) ORDER BY file
                    """)
            while let row = try rows.next() {
                try body(
                    BundleLine(
                        file: row[0], name: row[1], error: row[2], skipped: row[3], incomplete: row[4],
                        verdict: row[5], couldNotJudge: row[6], inputProblems: row[7], sessions: row[8]))
            }
        }
    }

    /// Sessions worst first: worst severity, then findings at warning or above, then stall time,
    /// then bundle name and session id.
    /// `limit`: the worst that many only (the HTML page's list: the rest is never read).
    package func forEachRankedSession(limit: Int? = nil, _ body: (RankedSession) throws -> Void) throws {
        try queue.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT b.name, s.bundle, s.session_id, s.worst_severity, s.top_rule_id, s.top_finding,
                      \(Self.kpiColumnList), b.verdict
                    FROM sessions s JOIN bundles b ON b.file = s.bundle
                    ORDER BY CASE s.worst_severity WHEN 'critical' THEN 3 WHEN 'error' THEN 2 WHEN 'warning' THEN 1
                      WHEN 'info' THEN 0 ELSE -1 END DESC, s.serious_findings DESC, coalesce(s.stall_duration, 0) DESC,
                      b.name, s.session_id, s.bundle, s.ordinal
                    LIMIT ?
                    """, arguments: [limit ?? -1])
            while let row = try rows.next() {
                let k = Self.kpis(row, from: 6)
                try body(
                    RankedSession(
                        bundle: row[0], file: row[1], sessionID: row[2],
                        worst: (row[3] as String?).flatMap(Severity.init(rawValue:)), topRule: row[4],
                        topFinding: row[5], kpis: k, bundleVerdict: row[row.count - 1]))
            }
        }
    }

    /// Findings per rule and severity, by rule id.
    package func ruleCounts() throws -> [(rule: String, counts: [Severity: Int])] {
        try queue.read { db in
            var out: [(rule: String, counts: [Severity: Int])] = []
            let rows = try Row.fetchCursor(
                db, sql: "SELECT rule_id, severity, count(*) FROM findings GROUP BY rule_id, severity ORDER BY rule_id")
            while let row = try rows.next() {
                let rule: String = row[0]
                guard let severity = Severity(rawValue: row[1]) else { continue }
                if out.last?.rule != rule { out.append((rule, [:])) }
                out[out.count - 1].counts[severity] = row[2]
            }
            return out
        }
    }

    /// Failed requests by host and status, most first: requests and sessions.
    package func failuresByHost() throws -> [(host: String, status: String, count: Int, sessions: Int)] {
        try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT host, status, total(count), count(*) FROM failed_requests GROUP BY host, status
                    ORDER BY total(count) DESC, host, status
                    """
            ).map { row in
                let total: Double = row[2]
                return (row[0], row[1], Int(min(total, Double(Int.max / 2))), row[3])
            }
        }
    }

    /// The KPI columns the overview summarises (named as `triage.json`'s `kpi_distributions`).
    package static let kpiColumns = [
        "startup_time", "stall_count", "stall_duration", "rebuffer_ratio", "variant_switch_count", "error_count",
        "time_weighted_average_bitrate",
    ]

    /// Every KPI column's count and nearest-rank percentiles (p in 0…100), as `distribution`
    /// gives them one by one, from one pass over the sessions.
    ///
    /// Why: seven sorted passes (a count and an ordered scan per KPI) were 6 % of a daily run
    /// that found nothing changed; one scan and seven in-memory sorts cost a tenth of that. The
    /// price is a `Double` per measured value while the overview is written (8 bytes a session
    /// and KPI), beside the per-session record that grouping problems already keeps.
    package func distributions(percentiles: [Double]) throws -> [String: (count: Int, values: [Double?])] {
        var columns = [[Double]](repeating: [], count: Self.kpiColumns.count)
        try queue.read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT " + Self.kpiColumns.joined(separator: ", ") + " FROM sessions")
            while let row = try rows.next() {
                for i in columns.indices {
                    if let value = Double.fromDatabaseValue(row[i] as DatabaseValue) { columns[i].append(value) }
                }
            }
        }
        var out: [String: (count: Int, values: [Double?])] = [:]
        for (i, name) in Self.kpiColumns.enumerated() {
            columns[i].sort()
            out[name] = Self.nearestRanks(columns[i], percentiles: percentiles)
        }
        return out
    }

    /// For the KPIs a source can give only as a lower bound (a console's errors, a stall whose end
    /// was not logged), how many sessions' values are lower bounds, by KPI column: the overview
    /// says so beside their distributions, as a session's report says "at least".
    package func lowerBounds() throws -> [String: Int] {
        try queue.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT count(*) FILTER (WHERE stall_duration_is_lower_bound AND stall_duration IS NOT NULL),
                      count(*) FILTER (WHERE error_count_is_lower_bound AND error_count IS NOT NULL)
                    FROM sessions
                    """)
            return ["stall_duration": row?[0] ?? 0, "error_count": row?[1] ?? 0]
        }
    }

    /// Nearest-rank percentiles of sorted values.
    static func nearestRanks(_ sorted: [Double], percentiles: [Double]) -> (count: Int, values: [Double?]) {
        let n = sorted.count
        guard n > 0 else { return (0, percentiles.map { _ in nil }) }
        return (
            n,
            percentiles.map { p in
                let rank = min(max(Int((p / 100 * Double(n)).rounded(.up)), 1), n)
                return sorted[rank - 1]
            }
        )
    }

    /// How many sessions measured a KPI, and its nearest-rank percentiles (p in 0…100).
    ///
    /// One sorted pass per KPI, reading the ranks as they go by: a query per percentile (an
    /// `OFFSET`, each sorting the whole column again) was over a third of writing the overview.
    package func distribution(_ column: String, percentiles: [Double]) throws -> (count: Int, values: [Double?]) {
        guard Self.kpiColumns.contains(column) else { return (0, percentiles.map { _ in nil }) }
        return try queue.read { db in
            let n = try Int.fetchOne(db, sql: "SELECT count(\(column)) FROM sessions") ?? 0
            guard n > 0 else { return (0, percentiles.map { _ in nil }) }
            let ranks = percentiles.map { p in min(max(Int((p / 100 * Double(n)).rounded(.up)), 1), n) }
            var values = [Double?](repeating: nil, count: ranks.count)
            let last = ranks.max() ?? 0
            var rank = 0
            let cursor = try Double.fetchCursor(
                db, sql: "SELECT \(column) FROM sessions WHERE \(column) IS NOT NULL ORDER BY \(column)")
            while rank < last, let value = try cursor.next() {
                rank += 1
                for (i, r) in ranks.enumerated() where r == rank { values[i] = value }
            }
            return (n, values)
        }
    }
}
