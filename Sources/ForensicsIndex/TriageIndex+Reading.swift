import ForensicsCore
import Foundation
import GRDB

extension TriageIndex {
    /// Every bundle in name order, with its sessions, their findings (without evidence: the
    /// overview counts them, the reports under `bundles/` list them) and failed requests.
    public func bundles() throws -> [IndexedBundle] {
        try queue.read { db in
            var bundles: [IndexedBundle] = []
            var position: [String: Int] = [:]
            let bundleRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT file, name, content_hash, analyzer, error, skipped, incomplete, input_problems
                    FROM bundles ORDER BY file
                    """)
            while let row = try bundleRows.next() {
                var b = IndexedBundle(name: row[1], file: row[0], contentHash: row[2], analyzer: row[3])
                b.error = row[4]
                b.skipped = row[5]
                b.incomplete = row[6]
                b.inputProblems = row[7]
                position[b.file] = bundles.count
                bundles.append(b)
            }
            let sessionRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT bundle, ordinal, session_id, start_seconds, end_seconds, utc, \(Self.kpiColumnList),
                      sources, user_agent, worst_severity, top_rule_id, top_finding, serious_findings
                    FROM sessions ORDER BY bundle, ordinal
                    """)
            while let row = try sessionRows.next() {
                guard let b = position[row[0]] else { continue }
                let k = Self.kpis(row, from: 6)
                let sources: String = row[17]
                var s = IndexedSession(
                    id: row[2], ordinal: row[1], kpis: k, sources: sources.split(separator: ",").map(String.init))
                s.start = (row[3] as Double?).map(Timestamp.init)
                s.end = (row[4] as Double?).map(Timestamp.init)
                s.utc = row[5]
                if let agent: String = row[18] { s.client = ClientInfo(userAgent: agent) }
                s.worst = (row[19] as String?).flatMap(Severity.init(rawValue:))
                s.topRule = row[20]
                s.topFinding = row[21]
                s.seriousCount = row[22]
                bundles[b].sessions.append(s)
            }
            let findingRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT bundle, session_ordinal, ordinal, rule_id, severity, title, cause, host, status, asset,
                      variant FROM findings ORDER BY bundle, session_ordinal, ordinal
                    """)
            while let row = try findingRows.next() {
                guard let b = position[row[0]], let s = Self.session(row[1], in: bundles[b]) else { continue }
                let severity = Severity(rawValue: row[4] as String) ?? .info
                bundles[b].sessions[s].findings.append(
                    IndexedFinding(
                        ordinal: row[2], ruleID: row[3], severity: severity, title: row[5], start: nil, end: nil,
                        problem: ProblemKey(
                            ruleID: row[3], cause: row[6], host: row[7], status: row[8], asset: row[9], variant: row[10]
                        ),
                        evidence: []))
            }
            let failureRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT bundle, session_ordinal, host, status, count FROM failed_requests
                    ORDER BY bundle, session_ordinal, host, status
                    """)
            while let row = try failureRows.next() {
                guard let b = position[row[0]], let s = Self.session(row[1], in: bundles[b]) else { continue }
                bundles[b].sessions[s].failures.append(FailedRequests(host: row[2], status: row[3], count: row[4]))
            }
            return bundles
        }
    }

    /// Every row of every table, one line each (`table|value|value…`, NULL as `NULL`), sorted: two
    /// indexes hold the same rows exactly when these are equal (how a merge is checked against one run).
    public func rowsAsText() throws -> [String] {
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

    static func session(_ ordinal: Int, in bundle: IndexedBundle) -> Int? {
        // Sessions are read in ordinal order, so the ordinal is usually the position.
        if ordinal >= 0, ordinal < bundle.sessions.count, bundle.sessions[ordinal].ordinal == ordinal { return ordinal }
        return bundle.sessions.firstIndex { $0.ordinal == ordinal }
    }

    /// The problem groups as last stored, ranked.
    public func problems() throws -> [ProblemGroup] {
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
                      median_rebuffer_affected, median_rebuffer_unaffected FROM problems ORDER BY rank
                    """)
            while let row = try rows.next() {
                let key: String = row[0]
                out.append(
                    ProblemGroup(
                        key: ProblemKey(
                            ruleID: row[1], cause: row[2], host: row[3], status: row[4], asset: row[5], variant: row[6]),
                        worst: Severity(rawValue: row[7]) ?? .info, sessions: row[8], share: row[9], bundles: row[10],
                        findings: row[11], firstSeen: row[12], lastSeen: row[13], medianStartupAffected: row[14],
                        medianStartupUnaffected: row[15], medianRebufferAffected: row[16],
                        medianRebufferUnaffected: row[17], examples: examples[key] ?? []))
            }
            return out
        }
    }

    /// The `sessions` columns that hold a session's KPIs, in the order `kpis(_:from:)` reads them.
    static let kpiColumnList = """
        startup_time, stall_count, stall_duration, rebuffer_ratio, variant_switch_count, downswitch_count, \
        error_count, fatal_error, time_weighted_average_bitrate, playing_time, kpi_provenance
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
        return k
    }

    /// `{"a":"b",…}` as the index stores KPI provenance (keys and values are the tool's own words).
    static func provenance(_ text: String) -> [String: String] {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: String]
        else { return [:] }
        return object
    }
}
