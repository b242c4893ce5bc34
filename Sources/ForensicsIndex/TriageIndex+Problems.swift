import ForensicsCore
import Foundation
import GRDB

extension TriageIndex {
    /// How many example bundles each problem lists.
    static let examplesPerProblem = 3

    /// Groups every finding of the index by problem key and stores the groups (`problems`,
    /// `problem_examples`), replacing earlier ones; returns them ranked by harm
    /// (`ProblemGroup.byHarm`: sessions weighed by the worst severity).
    ///
    /// Memory: one small record per session (its startup and rebuffering) and one per group and
    /// affected session; findings are read with a cursor, ordered by key, one group at a time.
    @discardableResult
    package func updateProblems() throws -> [ProblemGroup] {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM problem_examples")
            try db.execute(sql: "DELETE FROM problems")
            // Every analysed session's measures, by (bundle, ordinal).
            struct Measures {
                var startup: Double?
                var rebuffer: Double?
                var played: Bool
                var utc: Bool
            }
            var measures: [SessionRef: Measures] = [:]
            let sessionRows = try Row.fetchCursor(
                db, sql: "SELECT bundle, ordinal, startup_time, rebuffer_ratio, played, utc FROM sessions")
            while let row = try sessionRows.next() {
                measures[SessionRef(bundle: row[0], ordinal: row[1])] = Measures(
                    startup: row[2], rebuffer: row[3], played: row[4], utc: row[5])
            }
            // Bundle names by report file. Looked up here, not joined in SQL: two index searches
            // per finding were half of grouping them (the foreign keys already tie every finding
            // to a session and every session to a bundle).
            var names: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT file, name FROM bundles") { names[row[0]] = row[1] as String }
            // Shares are of the sessions that played (or tried to): a bundle's playlist file or
            // server rows alone make a session no viewer watched.
            let total = measures.values.filter(\.played).count
            let allStartups = measures.values.compactMap(\.startup).sorted()
            let allRebuffers = measures.values.compactMap(\.rebuffer).sorted()

            var groups: [ProblemGroup] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT problem_key, problem_rule, cause, host, status, asset, variant, severity_rank,
                      bundle, session_ordinal, session_id, evidence_count, start_time, pop, cache, own_key
                    FROM findings ORDER BY problem_key, bundle, session_ordinal, ordinal
                    """)
            var current: (key: String, problem: ProblemKey?, worst: Int, findings: Int)?
            var affected: [SessionRef: (id: String, name: String, evidence: Int, worst: Int)] = [:]
            var symptoms: [String: Set<SessionRef>] = [:]
            var assets: Set<String> = []
            var variants: Set<Int> = []
            var first: String?
            var last: String?
            func close() {
                // Whatever happens to this group, the next one starts empty.
                defer {
                    affected = [:]
                    symptoms = [:]
                    assets = []
                    variants = []
                    first = nil
                    last = nil
                }
                guard let c = current, let problem = c.problem else { return }
                let startups = affected.keys.compactMap { measures[$0]?.startup }.sorted()
                let rebuffers = affected.keys.compactMap { measures[$0]?.rebuffer }.sorted()
                let examples = Self.examples(affected)
                let playedAffected = affected.keys.filter { measures[$0]?.played == true }.count
                var group = ProblemGroup(
                    key: problem, worst: Severity(rank: c.worst) ?? .info,
                    sessions: affected.count,
                    share: total == 0 ? 0 : Double(playedAffected) / Double(total),
                    bundles: Set(affected.keys.map(\.bundle)).count, findings: c.findings,
                    firstSeen: first, lastSeen: last,
                    medianStartupAffected: Self.median(startups),
                    medianStartupUnaffected: Self.median(Self.removing(startups, from: allStartups)),
                    medianRebufferAffected: Self.median(rebuffers),
                    medianRebufferUnaffected: Self.median(Self.removing(rebuffers, from: allRebuffers)),
                    examples: examples)
                group.playedSessions = playedAffected
                group.symptoms = symptoms.map { ProblemGroup.Symptom(key: $0.key, sessions: $0.value.count) }.sorted {
                    $0.sessions != $1.sessions ? $0.sessions > $1.sessions : $0.key < $1.key
                }
                group.assets = assets.count
                group.variants = Array(variants.sorted(by: >).prefix(8))
                group.harm = affected.values.reduce(0) { sum, v in
                    let (total, overflow) = sum.addingReportingOverflow(
                        ProblemGroup.weight(Severity(rank: v.worst) ?? .info))
                    return overflow ? .max : total
                }
                groups.append(group)
            }
            while let row = try rows.next() {
                let ref = SessionRef(bundle: row[8], ordinal: row[9])
                // A finding of no stored session or bundle (what the join left out before).
                guard let session = measures[ref], let name = names[ref.bundle] else { continue }
                let key: String = row[0]
                if current?.key != key {
                    close()
                    current = (key, nil, 0, 0)
                }
                let own: String = row[15]
                if var c = current {
                    c.worst = max(c.worst, row[7] as Int)
                    c.findings += 1
                    if own == key {
                        // The cause's own row: the problem's parts (a symptom's are its own).
                        c.problem =
                            c.problem
                            ?? ProblemKey(
                                ruleID: row[1], cause: row[2], host: row[3], status: row[4],
                                asset: row[3] == nil ? row[5] : nil, variant: row[3] == nil ? row[6] : nil,
                                pop: row[13], cache: row[14])
                    } else {
                        symptoms[own, default: []].insert(ref)
                    }
                    current = c
                }
                if let a: String = row[5] { assets.insert(a) }
                if let v: Int = row[6] { variants.insert(v) }
                let evidence: Int = row[11]
                let before = affected[ref]
                affected[ref] = (
                    row[10], name, (before?.evidence ?? 0).addingReportingOverflow(evidence).partialValue,
                    max(before?.worst ?? 0, row[7] as Int)
                )
                if let start: String = row[12], session.utc {
                    if first.map({ start < $0 }) ?? true { first = start }
                    if last.map({ start > $0 }) ?? true { last = start }
                }
            }
            close()
            groups.sort(by: ProblemGroup.byHarm)
            for (rank, g) in groups.enumerated() {
                let k = g.key
                let values: [(any DatabaseValueConvertible)?] = [
                    k.text, rank + 1, k.ruleID, k.cause, k.host, k.status, k.asset, k.variant, g.worst.rawValue,
                    g.sessions, g.share, g.bundles, g.findings, g.firstSeen, g.lastSeen, g.medianStartupAffected,
                    g.medianStartupUnaffected, g.medianRebufferAffected, g.medianRebufferUnaffected, k.pop, k.cache,
                    Self.symptomsText(g.symptoms), g.assets, g.variants.map(String.init).joined(separator: ","),
                    g.playedSessions,
                ]
                try db.execute(
                    sql: """
                        INSERT INTO problems (problem_key, rank, rule_id, cause, host, status, asset, variant,
                          worst_severity, sessions, share, bundles, findings, first_seen, last_seen,
                          median_startup_affected, median_startup_unaffected, median_rebuffer_affected,
                          median_rebuffer_unaffected, pop, cache, symptoms, assets, variants, played_sessions)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: StatementArguments(values))
                for (i, e) in g.examples.enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO problem_examples (problem_key, rank, bundle, session_id, evidence_count)
                            VALUES (?, ?, ?, ?, ?)
                            """, arguments: [k.text, i + 1, e.file, e.sessionID, e.evidence])
                }
            }
            return groups
        }
    }

    /// Symptoms as stored: a line each, `sessions<TAB>key` (keys hold no tab or line break:
    /// their parts are rule ids, hosts, statuses and redacted paths).
    static func symptomsText(_ symptoms: [ProblemGroup.Symptom]) -> String {
        symptoms.map { "\($0.sessions)\t\($0.key)" }.joined(separator: "\n")
    }

    static func symptoms(fromText text: String) -> [ProblemGroup.Symptom] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let n = Int(parts[0]) else { return nil }
            return ProblemGroup.Symptom(key: String(parts[1]), sessions: n)
        }
    }

    struct SessionRef: Hashable {
        var bundle: String
        var ordinal: Int
    }

    /// The bundles with the most evidence for the problem (one example per bundle: its best session).
    static func examples(
        _ affected: [SessionRef: (id: String, name: String, evidence: Int, worst: Int)]
    ) -> [ProblemGroup.Example] {
        var best: [String: ProblemGroup.Example] = [:]
        for (ref, v) in affected {
            let candidate = ProblemGroup.Example(
                bundle: v.name, file: ref.bundle, sessionID: v.id, evidence: v.evidence)
            if let old = best[ref.bundle],
                old.evidence > candidate.evidence
                    || (old.evidence == candidate.evidence && old.sessionID <= candidate.sessionID)
            {
                continue
            }
            best[ref.bundle] = candidate
        }
        return best.values.sorted {
            $0.evidence != $1.evidence ? $0.evidence > $1.evidence : ($0.file, $0.sessionID) < ($1.file, $1.sessionID)
        }.prefix(examplesPerProblem).map { $0 }
    }

    /// The median of sorted values, nil when empty: the nearest-rank 50th percentile (the lower
    /// middle value of an even count), the convention of the overview's KPI table, so that one
    /// page never gives two medians of the same sessions.
    static func median(_ sorted: [Double]) -> Double? {
        nearestRanks(sorted, percentiles: [50]).values.first ?? nil
    }

    /// `all` without one occurrence of each of `part`'s values (both sorted): the unaffected.
    static func removing(_ part: [Double], from all: [Double]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(max(0, all.count - part.count))
        var j = 0
        for v in all {
            if j < part.count, part[j] == v {
                j += 1
            } else {
                out.append(v)
            }
        }
        return out
    }
}
