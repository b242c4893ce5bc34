import ForensicsCore
import Foundation
import GRDB

/// The fleet triage index, `OUTDIR/triage.sqlite`: every analysed bundle's sessions, findings,
/// evidence and failed requests, and the problem groups derived from them. Written through GRDB.
///
/// Why SQLite: a day's triage must answer questions nobody wrote a report for ("top hosts by 404
/// sessions this week") with the `sqlite3` shell, a later run must know which bundles it has
/// already seen (incremental), and shard outputs must merge by copying rows. Rows have natural
/// keys (bundle name and positions), so the same fleet gives the same rows however it was split.
///
/// Durability: write-ahead log and `synchronous = OFF` (no fsync per bundle: 10,000 commits would
/// otherwise cost minutes; with a rollback journal each commit created, wrote and deleted a journal
/// file, 60 system calls a bundle). The log still keeps each bundle's rows all-or-nothing if the
/// process dies. An index cut by a power loss is rebuilt by running triage again without
/// `--since-index`. The `-wal` and `-shm` files exist only while the index is open.
public final class TriageIndex: Sendable {
    let queue: DatabaseQueue
    public let path: String

    /// Why the index cannot be used, in words.
    package struct IndexError: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) { self.description = description }
    }

    /// Opens the index at `path`, creating it (and its tables) if missing. An index of another
    /// schema version is refused: the caller re-runs triage into a new directory.
    public init(path: String) throws {
        self.path = path
        do {
            queue = try DatabaseQueue(path: path, configuration: Self.configuration(label: "triage-index"))
            try queue.write { db in
                if try !db.tableExists("meta") {
                    for statement in TriageIndexSchema.statements { try db.execute(sql: statement) }
                    try db.execute(
                        sql: "INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                        arguments: [String(TriageIndexSchema.version)])
                }
                let version = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'schema_version'")
                guard version == String(TriageIndexSchema.version) else {
                    throw IndexError(
                        description:
                            "\(path) is a triage index of schema \(version ?? "unknown"), this tool writes schema \(TriageIndexSchema.version): triage into a new directory"
                    )
                }
            }
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError(description: "\(path) is not a triage index this tool can use: \(Self.describe(error))")
        }
    }

    /// A second, read-only connection to an index this run holds open and has made safe (the
    /// overview's writers read it on two threads): no schema step, no write lock taken.
    package init(readingOnly path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA trusted_schema = OFF") }
        configuration.label = "triage-index-reader"
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw IndexError(description: "\(path) cannot be read: \(Self.describe(error))")
        }
    }

    /// How triage opens its SQLite files: nothing a schema carries (a function in a view or
    /// trigger) run on trust; write-ahead log, no fsync per commit (see the type's comment).
    static func configuration(label: String) -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        configuration.label = label
        return configuration
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        return "\(error)"
    }

    // MARK: Bundles

    /// A bundle the index has, with what decides whether to analyse it again.
    package struct Known: Sendable, Hashable {
        package var file: String
        package var name: String
        package var contentHash: String
        package var analyzer: String
        /// Whether the run that stored it wrote its reports (a bundle with an error has none).
        package var hasReports = true
        /// Its files' sizes, times and inodes when it was stored (empty: unknown).
        package var metadataKey = ""
    }

    /// Records that a bundle reused unchanged (same content) now has these files' metadata, so
    /// the next run's first check passes without hashing it.
    package func updateMetadataKey(_ key: String, of file: String) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE bundles SET metadata_key = ? WHERE file = ?", arguments: [key, file])
        }
    }

    /// Every bundle in the index, by report file name (the key).
    package func knownBundles() throws -> [String: Known] {
        try queue.read { db in
            var out: [String: Known] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT file, name, content_hash, analyzer, error IS NULL, metadata_key FROM bundles")
            while let row = try rows.next() {
                let known = Known(
                    file: row[0], name: row[1], contentHash: row[2], analyzer: row[3], hasReports: row[4],
                    metadataKey: row[5])
                out[known.file] = known
            }
            return out
        }
    }

    /// Stores one bundle's rows, replacing an earlier bundle of the same report file, in one transaction.
    package func store(_ bundle: IndexedBundle) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM bundles WHERE file = ?", arguments: [bundle.file])
            try db.execute(
                sql: """
                    INSERT INTO bundles (file, name, content_hash, analyzer, error, skipped, incomplete,
                      verdict, could_not_judge, input_problems, session_count, metadata_key)
                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    bundle.file, bundle.name, bundle.contentHash, bundle.analyzer, bundle.error, bundle.skipped,
                    bundle.incomplete, bundle.verdict?.rawValue,
                    bundle.couldNotJudge.isEmpty ? nil : bundle.couldNotJudge.joined(separator: "\n"),
                    bundle.inputProblems, bundle.sessions.count, bundle.metadataKey,
                ])
            for session in bundle.sessions { try Self.insert(session, of: bundle.file, db) }
        }
    }

    static func insert(_ s: IndexedSession, of bundle: String, _ db: Database) throws {
        let k = s.kpis
        let provenance =
            "{"
            + k.provenanceByName.map { "\"\($0.0)\":\"\($0.1)\"" }
            .joined(separator: ",") + "}"
        let sessionRow: [(any DatabaseValueConvertible)?] = [
            bundle, s.ordinal, s.id, time(s.start, utc: s.utc), time(s.end, utc: s.utc),
            s.start?.secondsSince1970, s.end?.secondsSince1970, s.utc, k.startupTime, k.stallCount,
            k.stallDuration, k.rebufferRatio, k.variantSwitchCount, k.downswitchCount, k.errorCount, k.fatalError,
            k.timeWeightedAverageBitrate, k.playingTime, provenance, s.sources.joined(separator: ","),
            s.client.userAgent, s.client.device, s.client.osVersion, s.client.app, s.client.appVersion,
            s.worst?.rawValue, s.topRule, s.topFinding, s.seriousCount, s.played, k.stallDurationIsLowerBound,
            k.errorCountIsLowerBound,
        ]
        try db.cachedStatement(
            sql: """
                INSERT INTO sessions (bundle, ordinal, session_id, start_time, end_time, start_seconds,
                  end_seconds, utc, startup_time, stall_count, stall_duration, rebuffer_ratio,
                  variant_switch_count, downswitch_count, error_count, fatal_error,
                  time_weighted_average_bitrate, playing_time, kpi_provenance, sources, user_agent, device,
                  os_version, app, app_version, worst_severity, top_rule_id, top_finding, serious_findings, played,
                  stall_duration_is_lower_bound, error_count_is_lower_bound)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: StatementArguments(sessionRow))
        for f in s.findings {
            let p = f.problem
            let findingRow: [(any DatabaseValueConvertible)?] = [
                bundle, s.ordinal, f.ordinal, s.id, f.ruleID, f.severity.rawValue, f.severity.rank, f.title,
                time(f.start, utc: s.utc), time(f.end, utc: s.utc), f.start?.secondsSince1970,
                f.end?.secondsSince1970, p.text, p.cause, p.host, p.status, f.asset, f.variant, f.evidence.count,
                p.pop, p.cache, p.ruleID, f.own.text,
            ]
            try db.cachedStatement(
                sql: """
                    INSERT INTO findings (bundle, session_ordinal, ordinal, session_id, rule_id, severity,
                      severity_rank, title, start_time, end_time, start_seconds, end_seconds, problem_key, cause,
                      host, status, asset, variant, evidence_count, pop, cache, problem_rule, own_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: StatementArguments(findingRow))
            for (i, e) in f.evidence.enumerated() {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO evidence (bundle, session_ordinal, finding_ordinal, ordinal, file, line, time,
                          summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    bundle, s.ordinal, f.ordinal, i, e.file, e.line, time(e.time, utc: s.utc), e.summary,
                ])
            }
        }
        for r in s.failures {
            try db.cachedStatement(
                sql: "INSERT INTO failed_requests (bundle, session_ordinal, host, status, count) VALUES (?, ?, ?, ?, ?)"
            ).execute(arguments: [bundle, s.ordinal, r.host, r.status, r.count])
        }
    }

    static func time(_ t: Timestamp?, utc: Bool) -> String? {
        t.map { utc ? $0.iso8601 : $0.iso8601(.deviceLocalZoneUnknown) }
    }

    /// Removes bundles (by report file name, with everything of theirs) no longer in the fleet.
    package func remove(_ files: [String]) throws {
        try queue.write { db in
            for file in files { try db.execute(sql: "DELETE FROM bundles WHERE file = ?", arguments: [file]) }
        }
    }

    /// Records what analysed the fleet (`meta.analyzer`, `meta.tool_version`).
    package func setMeta(_ key: String, _ value: String) throws {
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }
    }

    package func meta(_ key: String) throws -> String? {
        // Read as text whatever was stored: an adopted index keeps `overview_sha256` from the old file.
        try queue.read { db in
            try String.fetchOne(db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = ?", arguments: [key])
        }
    }

    // MARK: Merging

    /// Closes the index (its write-ahead log is folded in and removed, and the file left in
    /// rollback-journal mode, so that a later reader — a merge from read-only media — needs no
    /// `-wal`/`-shm` beside it), so that the file can be moved into place whole.
    public func close() throws {
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
    }

    /// Whether a report file name is a plain name (`TriageRunner.safeFileName`, maybe `~N`):
    /// letters, digits, `-`, `_`, `.`, `~`, not starting with a dot, at most 160 bytes.
    package static func isSafeFileName(_ file: String) -> Bool {
        guard !file.isEmpty, file.utf8.count <= 160, file.first != "." else { return false }
        return file.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                || c == 0x5F || c == 0x2E || c == 0x7E
        }
    }

    /// The same test in SQL, on a column. SQLite's `length` and `GLOB` read text only up to a
    /// NUL, so the name's bytes must number its characters too: `b2\0../x` would otherwise pass
    /// as `b2` (probe B, F3).
    static func safeFileSQL(_ column: String) -> String {
        "(typeof(\(column)) = 'text' AND length(\(column)) BETWEEN 1 AND 160 AND length(CAST(\(column) AS BLOB)) = length(\(column)) AND substr(\(column), 1, 1) <> '.' AND \(column) NOT GLOB '*[^A-Za-z0-9._~-]*')"
    }

    /// Copies every bundle row of another index (an earlier run's, or a shard's) into this one,
    /// and returns the other index's `meta`. A bundle in both is refused when `refuseClash` (shards
    /// are disjoint: the same bundle twice means two outputs of overlapping runs).
    ///
    /// The other index is untrusted input: it is attached with `trusted_schema` off and only read, its
    /// tables must be exactly the tables this tool creates (a view or virtual table in their
    /// place is refused), and only their rows are read, column by column, into this index's own
    /// fresh schema. Nothing the other file carries runs: its triggers never fire (they are not
    /// copied, and rows are only selected), its views are never read.
    package func absorb(_ other: String, refuseClash: Bool = true) throws -> [String: String] {
        var info = stat()
        guard lstat(other, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw IndexError(description: "\(other) is not a regular file (a link is not followed)")
        }
        return try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            do {
                try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [other])
            } catch {
                throw IndexError(
                    description: "\(other) is not a triage index this tool can use: \(Self.describe(error))")
            }
            defer { try? db.execute(sql: "DETACH DATABASE other") }
            // An index of another schema version says so first: its tables differ by design, and
            // "triage into a new directory" is what its user needs to hear, not which table differs.
            if let version =
                (try? String.fetchOne(
                    db, sql: "SELECT CAST(value AS TEXT) FROM other.meta WHERE key = 'schema_version'")) ?? nil,
                version != String(TriageIndexSchema.version)
            {
                throw IndexError(
                    description:
                        "\(other) is a triage index of schema \(version.prefix(20)), this tool writes schema \(TriageIndexSchema.version): triage into a new directory"
                )
            }
            let meta: [String: String]
            do {
                try Self.verifySchema(of: "other", db)
                // Read as text whatever was stored: a BLOB where text belongs must not trap decoding.
                meta = try Dictionary(
                    Row.fetchAll(db, sql: "SELECT CAST(key AS TEXT), CAST(value AS TEXT) FROM other.meta").compactMap {
                        row -> (String, String)? in
                        guard let k = row[0] as String?, let v = row[1] as String? else { return nil }
                        return (k, v)
                    },
                    uniquingKeysWith: { a, _ in a })
                // Every bundle row names its reports' file under `bundles/`: a planted `../…`
                // would make a later run delete or write files outside OUT.
                let unsafe = try String.fetchOne(
                    db,
                    sql: "SELECT CAST(file AS TEXT) FROM other.bundles WHERE NOT \(Self.safeFileSQL("file")) LIMIT 1")
                if let unsafe {
                    throw IndexError(
                        description:
                            "a bundle row names the report file '\(Redactor.visibleControls(String(unsafe.prefix(80))))', which is not a plain name"
                    )
                }
            } catch let error as IndexError {
                throw IndexError(description: "\(other) is not a triage index this tool can use: \(error.description)")
            } catch {
                throw IndexError(
                    description: "\(other) is not a triage index this tool can use: \(Self.describe(error))")
            }
            guard meta["schema_version"] == String(TriageIndexSchema.version) else {
                throw IndexError(
                    description:
                        "\(other) is a triage index of schema \(meta["schema_version"] ?? "unknown"), this tool writes schema \(TriageIndexSchema.version): triage into a new directory"
                )
            }
            try db.inTransaction {
                if refuseClash {
                    let clash = try String.fetchOne(
                        db, sql: "SELECT name FROM other.bundles WHERE file IN (SELECT file FROM main.bundles) LIMIT 1")
                    if let clash {
                        throw IndexError(description: "bundle \(clash) is in more than one of the outputs being merged")
                    }
                }
                for table in TriageIndexSchema.bundleTables {
                    let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))").map {
                        (name: ($0["name"] as String?) ?? "", type: ($0["type"] as String?) ?? "")
                    }
                    let list = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    // Each value cast to its column's declared type: what another file stored (a
                    // BLOB in a TEXT column) is copied as the type this tool reads, never as
                    // something that traps when decoded.
                    let values = columns.map { c in
                        c.type.isEmpty ? "\"\(c.name)\"" : "CAST(\"\(c.name)\" AS \(c.type))"
                    }.joined(separator: ", ")
                    try db.execute(sql: "INSERT INTO main.\(table) (\(list)) SELECT \(values) FROM other.\(table)")
                }
                return .commit
            }
            return meta
        }
    }

    /// The attached index's tables must be this tool's, as this tool creates them.
    static func verifySchema(of alias: String, _ db: Database) throws {
        let ours = try Row.fetchAll(db, sql: "SELECT name, sql FROM main.sqlite_master WHERE type = 'table'")
        var theirs: [String: (type: String, sql: String?)] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT CAST(type AS TEXT), CAST(name AS TEXT), CAST(sql AS TEXT) FROM \(alias).sqlite_master")
        {
            guard let name = row[1] as String? else { continue }
            theirs[name] = ((row[0] as String?) ?? "", row[2] as String?)
        }
        for row in ours {
            let name: String = row[0]
            let sql: String? = row[1]
            guard let found = theirs[name] else { throw IndexError(description: "it has no table \(name)") }
            guard found.type == "table", found.sql == sql else {
                throw IndexError(
                    description: "its \(name) is not the table this tool creates (a \(found.type) of another shape)")
            }
        }
    }
}
