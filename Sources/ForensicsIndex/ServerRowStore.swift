import ForensicsCore
import Foundation
import GRDB

/// A day of server logs read once into SQLite (`OUTDIR/cdn-rows.sqlite`), so that triage looks
/// each bundle's rows up by its keys instead of reading gigabytes again per bundle
/// (`shared/spec/cdn-logs.md`, "Size"). Keyed as the join looks: path and time, request id,
/// session id. A row is stored as its line, already redacted, with the `#Fields:` line it was
/// read under, and is read again by its format's reader when a bundle needs it; each file's
/// coverage (rows, time, rows per minute) is stored beside, for the join's caveats.
///
/// A file is stored once, known by its name, size and modification time; a later run with the
/// same logs reads nothing again.
package final class ServerRowStore: Sendable {
    let queue: DatabaseQueue
    package let path: String
    static let version = "1"

    package struct StoredFile: Sendable, Equatable {
        package var id: Int64
        package var name: String
        package var size: Int64
        package var modified: Double
        package var format: String?
        package var coverage: ServerLogCoverage
        package var diagnostics: [String]
    }

    package struct StoredRow: Sendable {
        package var line: Int
        package var header: String?
        package var raw: String
    }

    /// A row to store: where it is, the keys it is found by, its line.
    package struct NewRow: Sendable {
        package var line: Int
        package var start: Double
        package var path: String
        package var requestID: String?
        package var session: String?
        package var header: String?
        package var raw: String

        package init(
            line: Int, start: Double, path: String, requestID: String?, session: String?, header: String?,
            raw: String
        ) {
            self.line = line
            self.start = start
            self.path = path
            self.requestID = requestID
            self.session = session
            self.header = header
            self.raw = raw
        }
    }

    /// The store's tables, as this tool creates them.
    static let schema = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE files (id INTEGER PRIMARY KEY, name TEXT NOT NULL, container TEXT NOT NULL,
            size INTEGER NOT NULL,
            modified REAL NOT NULL, format TEXT, settings TEXT NOT NULL, rows INTEGER NOT NULL,
            earliest REAL, latest REAL, diagnostics TEXT NOT NULL, complete INTEGER NOT NULL);
        CREATE TABLE minutes (file INTEGER NOT NULL, minute INTEGER NOT NULL, rows INTEGER NOT NULL);
        CREATE TABLE headers (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
        CREATE TABLE rows (file INTEGER NOT NULL, line INTEGER NOT NULL, start REAL NOT NULL,
            path TEXT NOT NULL, request_id TEXT, session TEXT, header INTEGER, raw TEXT NOT NULL);
        """
    /// The lookup indexes `finishStoring` adds.
    static let indexes = [
        "CREATE INDEX IF NOT EXISTS rows_path ON rows (path, start)",
        "CREATE INDEX IF NOT EXISTS rows_request ON rows (request_id) WHERE request_id IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS rows_session ON rows (session) WHERE session IS NOT NULL",
    ]

    /// Opens the store at `path`, or makes it. A store found there is a cache, and OUT is
    /// untrusted like any input: one whose schema is not exactly this tool's (a trigger, a view,
    /// another table or index, a table of another shape) or whose values are not of their
    /// columns' types is removed and made again — its files are then read again from the logs
    /// given. So is one with a write-ahead log or journal beside it (a run cut short, or a planted
    /// log SQLite would replay).
    package init(path: String) throws {
        self.path = path
        var queue: DatabaseQueue
        do {
            // A write-ahead log or journal beside it is a run cut short (its last writes are in
            // the log) or a planted one: either way the main file alone cannot be trusted, and
            // the cache is made again.
            if ["-wal", "-journal"].contains(where: { access(path + $0, F_OK) == 0 }) {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            }
            queue = try DatabaseQueue(path: path, configuration: TriageIndex.configuration(label: "server-rows"))
            if try !queue.read({ db in try Self.isOwn(db) }) {
                try queue.close()
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
                queue = try DatabaseQueue(path: path, configuration: TriageIndex.configuration(label: "server-rows"))
            }
            try queue.write { db in
                if try !db.tableExists("meta") {
                    try db.execute(sql: Self.schema)
                    try db.execute(sql: "INSERT INTO meta VALUES ('schema_version', ?)", arguments: [Self.version])
                }
                let version = try String.fetchOne(
                    db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = 'schema_version'")
                guard version == Self.version else {
                    throw TriageIndex.IndexError(
                        description:
                            "\(path) is a server row store of schema \(version ?? "unknown"), not \(Self.version)")
                }
            }
        } catch let error as TriageIndex.IndexError {
            throw error
        } catch {
            throw TriageIndex.IndexError(
                description: "\(path) is not a server row store this tool can use: \(TriageIndex.describe(error))")
        }
        self.queue = queue
    }

    /// Whether an opened file is empty or exactly a store this tool writes: the same schema
    /// objects (read as text, never run), and every value of its column's type.
    static func isOwn(_ db: Database) throws -> Bool {
        let found = try Row.fetchAll(
            db, sql: "SELECT CAST(type AS TEXT), CAST(name AS TEXT), CAST(sql AS TEXT) FROM sqlite_master"
        ).map { row in ((row[0] as String?) ?? "", (row[1] as String?) ?? "", row[2] as String?) }
        if found.isEmpty { return true }
        let own = try TriageIndex.ownSchema([schema] + indexes)
        for (type, name, sql) in found {
            guard let expected = own[type + " " + name], expected == sql else { return false }
        }
        for key in own.keys where key.hasPrefix("table ") {
            guard found.contains(where: { "table " + $0.1 == key }) else { return false }
        }
        // Every value of its column's declared type (a NULL only where the schema allows one), in
        // the small tables; `rows` (a day of logs) is read value by value where it is used.
        for table in ["meta", "files", "minutes", "headers"] {
            if try TriageIndex.hasWrongType(table, TriageIndex.typeTests(table, db).wrong, db) { return false }
        }
        return true
    }

    /// Whether a given file (a log, or an archive of them) is stored, complete, as it is now
    /// and under these reading settings.
    package func hasContainer(_ container: String, size: Int64, modified: Double, settings: String) throws -> Bool {
        try queue.read { db in
            // Every file of it stored whole (a run cut short leaves one incomplete), as it is now.
            let complete = try Int.fetchOne(
                db,
                sql:
                    "SELECT count(*) FROM files WHERE container = ? AND size = ? AND modified = ? AND settings = ? AND complete = 1",
                arguments: [container, size, modified, settings])
            let incomplete = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM files WHERE container = ? AND complete = 0", arguments: [container])
            return (complete ?? 0) > 0 && (incomplete ?? 0) == 0
        }
    }

    /// Drops what is stored of a given file (before storing it again).
    package func removeContainer(_ container: String) throws {
        try queue.write { db in
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM files WHERE container = ?", arguments: [container]) {
                try db.execute(sql: "DELETE FROM rows WHERE file = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM minutes WHERE file = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM files WHERE id = ?", arguments: [id])
            }
        }
    }

    /// Starts storing a file (a log, or a member of an archive given) of a given file.
    package func beginFile(
        name: String, container: String, size: Int64, modified: Double, settings: String
    ) throws -> Int64 {
        try queue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO files (name, container, size, modified, settings, rows, diagnostics, complete) VALUES (?, ?, ?, ?, ?, 0, '', 0)",
                arguments: [name, container, size, modified, settings])
            return db.lastInsertedRowID
        }
    }

    /// Names a stored file as reports show it.
    package func rename(_ id: Int64, to name: String) throws {
        try queue.write { db in try db.execute(sql: "UPDATE files SET name = ? WHERE id = ?", arguments: [name, id]) }
    }

    /// Adds rows of a file being stored (in batches, each one transaction).
    package func add(_ rows: [NewRow], file: Int64) throws {
        guard !rows.isEmpty else { return }
        try queue.write { db in
            let insert = try db.cachedStatement(
                sql:
                    "INSERT INTO rows (file, line, start, path, request_id, session, header, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            )
            var headerIDs: [String: Int64] = [:]
            for row in rows {
                var header: Int64?
                if let text = row.header {
                    if let id = headerIDs[text] {
                        header = id
                    } else {
                        try db.execute(sql: "INSERT OR IGNORE INTO headers (text) VALUES (?)", arguments: [text])
                        let id = try Int64.fetchOne(db, sql: "SELECT id FROM headers WHERE text = ?", arguments: [text])
                        headerIDs[text] = id
                        header = id
                    }
                }
                try insert.execute(arguments: [
                    file, row.line, row.start, row.path, row.requestID, row.session, header, row.raw,
                ])
            }
        }
    }

    /// Ends storing a file: its format, what it held, its diagnostics.
    package func finishFile(
        _ id: Int64, format: String?, coverage: ServerLogCoverage, diagnostics: [String]
    ) throws {
        try queue.write { db in
            for (minute, n) in coverage.perMinute.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO minutes VALUES (?, ?, ?)", arguments: [id, minute, n])
            }
            try db.execute(
                sql:
                    "UPDATE files SET format = ?, rows = ?, earliest = ?, latest = ?, diagnostics = ?, complete = 1 WHERE id = ?",
                arguments: [
                    format, coverage.rows, coverage.earliest.isFinite ? coverage.earliest : nil,
                    coverage.latest.isFinite ? coverage.latest : nil, diagnostics.joined(separator: "\n"), id,
                ])
        }
    }

    /// Builds the lookup indexes once every file is in (inserting into indexed tables is slower).
    package func finishStoring() throws {
        try queue.write { db in
            for statement in Self.indexes { try db.execute(sql: statement) }
        }
    }

    /// Drops the given files not named (logs no longer given).
    package func keepOnly(containers names: Set<String>) throws {
        try queue.write { db in
            for (id, name) in try Row.fetchAll(db, sql: "SELECT id, container FROM files").map({
                ($0["id"] as Int64, $0["container"] as String)
            }) where !names.contains(name) {
                try db.execute(sql: "DELETE FROM rows WHERE file = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM minutes WHERE file = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM files WHERE id = ?", arguments: [id])
            }
        }
    }

    /// Every complete file, by name.
    package func files() throws -> [StoredFile] {
        try queue.read { db in
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT id, name, size, modified, format, rows, earliest, latest, diagnostics FROM files WHERE complete = 1 ORDER BY name"
            )
            return try rows.map { r in
                var coverage = ServerLogCoverage()
                coverage.rows = r["rows"]
                coverage.earliest = r["earliest"] ?? .infinity
                coverage.latest = r["latest"] ?? -.infinity
                let id: Int64 = r["id"]
                for m in try Row.fetchAll(db, sql: "SELECT minute, rows FROM minutes WHERE file = ?", arguments: [id]) {
                    coverage.perMinute[m["minute"]] = m["rows"]
                }
                let diagnostics: String = r["diagnostics"]
                return StoredFile(
                    id: id, name: r["name"], size: r["size"], modified: r["modified"], format: r["format"],
                    coverage: coverage,
                    diagnostics: diagnostics.isEmpty ? [] : diagnostics.split(separator: "\n").map(String.init))
            }
        }
    }

    /// A file's rows that could concern a bundle (`ServerRowFilter`), in line order, at most `limit`.
    package func rows(file: Int64, filter: ServerRowFilter, limit: Int) throws -> [StoredRow] {
        try queue.read { db in
            var lines: [Int: StoredRow] = [:]
            func collect(_ sql: String, _ arguments: StatementArguments) throws {
                for r in try Row.fetchAll(db, sql: sql, arguments: arguments) where lines.count < limit {
                    // Read as values, not decoded blindly: the table is not type-checked when the
                    // store is opened (a day of rows would be read whole), so a value of another
                    // type is skipped here.
                    let lineValue: DatabaseValue = r[0]
                    let rawValue: DatabaseValue = r[1]
                    let textValue: DatabaseValue = r[2]
                    guard let line = Int.fromDatabaseValue(lineValue), let raw = String.fromDatabaseValue(rawValue)
                    else { continue }
                    lines[line] = StoredRow(line: line, header: String.fromDatabaseValue(textValue), raw: raw)
                }
            }
            let select =
                "SELECT rows.line, rows.raw, headers.text FROM rows LEFT JOIN headers ON headers.id = rows.header"
            let from = filter.earliest - filter.slack
            let to = filter.latest + filter.slack
            // The strongest keys first: when the limit cuts, rows named by a request id or a
            // session id are kept before rows with only a path in common; each query stops at it.
            for chunk in Self.chunks(filter.responseValues.sorted()) where lines.count < limit {
                try collect(
                    "\(select) WHERE rows.file = ? AND rows.request_id IN (\(Self.marks(chunk.count))) LIMIT \(limit)",
                    Self.arguments(file, chunk, []))
            }
            for chunk in Self.chunks(filter.sessions.sorted()) where lines.count < limit {
                try collect(
                    "\(select) WHERE rows.file = ? AND rows.session IN (\(Self.marks(chunk.count))) LIMIT \(limit)",
                    Self.arguments(file, chunk, []))
            }
            for chunk in Self.chunks(filter.paths.sorted()) where from <= to && lines.count < limit {
                try collect(
                    "\(select) WHERE rows.file = ? AND rows.path IN (\(Self.marks(chunk.count))) AND rows.start BETWEEN ? AND ? LIMIT \(limit)",
                    Self.arguments(file, chunk, [from, to]))
            }
            return lines.values.sorted { $0.line < $1.line }
        }
    }

    static func arguments(_ file: Int64, _ values: [String], _ times: [Double]) -> StatementArguments {
        var all: [any DatabaseValueConvertible] = [file]
        all.append(contentsOf: values as [any DatabaseValueConvertible])
        all.append(contentsOf: times as [any DatabaseValueConvertible])
        return StatementArguments(all)
    }

    static func chunks(_ values: [String]) -> [[String]] {
        stride(from: 0, to: values.count, by: 400).map { Array(values[$0..<min(values.count, $0 + 400)]) }
    }

    static func marks(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }
}
