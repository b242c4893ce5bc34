import ForensicsCore
import Foundation
import GRDB

extension TriageIndex {
    /// Every row of every table, one line each (`table|value|value…`, NULL as `NULL`), sorted: two
    /// indexes hold the same rows exactly when these are equal (how a merge is checked against one run).
    package func rowsAsText() throws -> [String] {
        try queue.read { db in
            var lines: [String] = []
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            for table in tables {
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \"\(table)\"")
                while let row = try rows.next() {
                    let values = row.databaseValues.map { v in v.isNull ? "NULL" : "\(v)" }
                    lines.append(([table] + values).joined(separator: "|"))
                }
            }
            return lines.sorted()
        }
    }

    /// The problem groups as last stored, ranked.
    package func problems() throws -> [ProblemGroup] {
        try queue.read { db in
            var examples: [String: [ProblemGroup.Example]] = [:]
            let exampleRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT e.problem_key, b.name, e.bundle, e.session_id, e.evidence_count
                    FROM problem_examples e JOIN bundles b ON b.file = e.bundle ORDER BY e.problem_key, e.rank
                    """)
            while let row = try exampleRows.next() {
                examples[row[0], default: []].append(
                    ProblemGroup.Example(bundle: row[1], file: row[2], sessionID: row[3], evidence: row[4]))
            }
            var out: [ProblemGroup] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT problem_key, rule_id, cause, host, status, asset, variant, worst_severity, sessions, share,
                      bundles, findings, first_seen, last_seen, median_startup_affected, median_startup_unaffected,
                      median_rebuffer_affected, median_rebuffer_unaffected, pop, cache, symptoms, assets, variants,
                      played_sessions
                    FROM problems ORDER BY rank
                    """)
            while let row = try rows.next() {
                let key: String = row[0]
                var group = ProblemGroup(
                    key: ProblemKey(
                        ruleID: row[1], cause: row[2], host: row[3], status: row[4], asset: row[5], variant: row[6],
                        pop: row[18], cache: row[19]),
                    worst: Severity(rawValue: row[7]) ?? .info, sessions: row[8], share: row[9], bundles: row[10],
                    findings: row[11], firstSeen: row[12], lastSeen: row[13], medianStartupAffected: row[14],
                    medianStartupUnaffected: row[15], medianRebufferAffected: row[16],
                    medianRebufferUnaffected: row[17], examples: examples[key] ?? [])
                group.symptoms = Self.symptoms(fromText: row[20])
                group.assets = row[21]
                group.variants = (row[22] as String).split(separator: ",").compactMap { Int($0) }
                group.playedSessions = row[23]
                out.append(group)
            }
            return out
        }
    }

    /// The `sessions` columns that hold a session's KPIs, in the order `kpis(_:from:)` reads them.
    static let kpiColumnList = """
        startup_time, stall_count, stall_duration, rebuffer_ratio, variant_switch_count, downswitch_count, \
        error_count, fatal_error, time_weighted_average_bitrate, playing_time, kpi_provenance, \
        stall_duration_is_lower_bound, error_count_is_lower_bound
        """

    /// The KPIs of a row that selected `kpiColumnList` starting at column `first`.
    static func kpis(_ row: Row, from first: Int) -> KPIs {
        var k = KPIs()
        k.startupTime = row[first]
        k.stallCount = row[first + 1]
        k.stallDuration = row[first + 2]
        k.rebufferRatio = row[first + 3]
        k.variantSwitchCount = row[first + 4]
        k.downswitchCount = row[first + 5]
        k.errorCount = row[first + 6]
        k.fatalError = row[first + 7]
        k.timeWeightedAverageBitrate = row[first + 8]
        k.playingTime = row[first + 9]
        k.provenance = provenance(row[first + 10])
        k.stallDurationIsLowerBound = row[first + 11]
        k.errorCountIsLowerBound = row[first + 12]
        return k
    }

    /// The `kpi_provenance` column as `insert` writes it, `{"name":"source",…}`: names and sources
    /// are enum raw values (no escapes), so the quoted strings are read in pairs and each pair
    /// kept only when both are known values. Why not `JSONSerialization`: it was 9 % of a daily
    /// `--since-index` run (once per session of the fleet).
    static func provenance(_ text: String) -> [KPIs.Measure: KPIs.Source] {
        var out: [KPIs.Measure: KPIs.Source] = [:]
        let bytes = Array(text.utf8)
        var key: String?
        var i = 0
        while let open = bytes[i...].firstIndex(of: UInt8(ascii: "\"")),
            let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "\""))
        {
            let string = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
            i = close + 1
            guard let name = key else {
                key = string
                continue
            }
            key = nil
            if let measure = KPIs.Measure(rawValue: name), let source = KPIs.Source(rawValue: string) {
                out[measure] = source
            }
        }
        return out
    }
}
