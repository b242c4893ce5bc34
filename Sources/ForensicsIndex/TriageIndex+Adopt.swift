import ForensicsCore
import Foundation
import GRDB

extension TriageIndex {
    /// Opens a byte copy of an earlier index at `path`, made safe in place, for a run to bring up
    /// to date (`--since-index`): what `absorb` makes of it in a fresh file, without copying every
    /// row through SQL.
    ///
    /// Why: carrying the rows over (`absorb`) re-inserted every row of every table and rebuilt
    /// every index, a quarter of a daily run that analyses 1 % of the fleet (issue 36). A byte
    /// copy costs a read and a write of the file.
    ///
    /// The earlier file is untrusted input, as for `absorb`. It must be a regular file (a link is
    /// not followed); only the copy is opened. Before any row is read, everything in the copy's
    /// schema that this tool does not create — triggers, views, other tables and indexes — is
    /// dropped, so nothing it carries ever runs; a table of ours in another shape (or a view in
    /// its place) refuses the file, as does another schema version. Then the rows are held to
    /// the types `absorb` casts them to: a value of another storage class is cast to its
    /// column's declared type, a NULL where the schema forbids one refuses the file, and a bundle
    /// row naming a report file that is not a plain name refuses it. The indexes are rebuilt from
    /// the rows (a forged index or a duplicate key refuses the file), and a row that belongs to no
    /// bundle refuses it. The derived tables
    /// (`problems`, `problem_examples`) and every `meta` row but the schema version and the
    /// overview's digest are emptied, as a fresh file would have them.
    package static func adopting(copyOf earlier: String, at path: String) throws -> TriageIndex {
        do {
            try RegularFileCopy.copy(earlier, to: path)
            let queue = try DatabaseQueue(path: path, configuration: configuration(label: "triage-index-adopt"))
            do {
                try queue.writeWithoutTransaction { db in try makeSafe(db) }
                try queue.close()
            } catch {
                try? queue.close()
                throw error
            }
        } catch let error as IndexError {
            removeCopy(path)
            throw IndexError(description: "\(earlier) is not a triage index this tool can use: \(error.description)")
        } catch {
            removeCopy(path)
            throw IndexError(description: "\(earlier) is not a triage index this tool can use: \(describe(error))")
        }
        return try TriageIndex(path: path)
    }

    /// A refused copy leaves nothing behind: its journal and write-ahead files go with it.
    static func removeCopy(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// What this tool's schema holds, read from a fresh in-memory database made by `statements`
    /// (the index's, or another store's): `type`, `name` → `sql`.
    static func ownSchema(_ statements: [String] = TriageIndexSchema.statements) throws -> [String: String?] {
        let fresh = try DatabaseQueue()
        return try fresh.write { db in
            for statement in statements { try db.execute(sql: statement) }
            var own: [String: String?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master") {
                let type: String = row[0]
                let name: String = row[1]
                own[type + " " + name] = row[2] as String?
            }
            return own
        }
    }

    static func makeSafe(_ db: Database) throws {
        try db.execute(sql: "PRAGMA trusted_schema = OFF")
        let own = try ownSchema()
        // Read as text whatever sqlite_master holds: only names and SQL, never a row of a table.
        var objects: [(type: String, name: String, sql: String?)] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT CAST(type AS TEXT), CAST(name AS TEXT), CAST(sql AS TEXT) FROM sqlite_master")
        {
            objects.append(((row[0] as String?) ?? "", (row[1] as String?) ?? "", row[2] as String?))
        }
        // Our tables first: one in another shape (or a view by its name) refuses the file.
        let present = Dictionary(objects.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for key in own.keys.sorted() where key.hasPrefix("table ") {
            let name = String(key.dropFirst("table ".count))
            guard let found = present[name] else { throw IndexError(description: "it has no table \(name)") }
            guard found.type == "table", found.sql == own[key] ?? nil else {
                throw IndexError(
                    description: "its \(name) is not the table this tool creates (a \(found.type) of another shape)")
            }
        }
        // The schema version before any other difference: another version differs by design.
        let version = try String.fetchOne(
            db, sql: "SELECT CAST(value AS TEXT) FROM meta WHERE key = 'schema_version' LIMIT 1")
        guard version == String(TriageIndexSchema.version) else {
            throw IndexError(
                description:
                    "it is a triage index of schema \((version ?? "unknown").prefix(20)), this tool writes schema \(TriageIndexSchema.version): triage into a new directory"
            )
        }
        // Everything else goes: triggers (before any write), views, foreign indexes and tables —
        // whatever their names: SQLite refuses to create a `sqlite_` name but loads one planted
        // in the schema table. Only what SQLite makes itself stays: a table's automatic index
        // (no SQL; it goes with its table) and the sequence table. What cannot be dropped
        // refuses the file.
        let order = ["trigger": 0, "view": 1, "index": 2, "table": 3]
        let foreign = objects.filter { object in
            if Self.isSQLiteOwn(object) { return false }
            guard let sql = own[object.type + " " + object.name] else { return true }
            return sql != object.sql
        }.sorted { (order[$0.type] ?? 4, $0.name) < (order[$1.type] ?? 4, $1.name) }
        for object in foreign {
            guard let kind = ["trigger": "TRIGGER", "view": "VIEW", "index": "INDEX", "table": "TABLE"][object.type]
            else {
                throw IndexError(description: "its schema holds a \(object.type.prefix(20)) this tool cannot remove")
            }
            // An index of ours that differs is dropped here and made again below.
            do {
                try db.execute(
                    sql: "DROP \(kind) IF EXISTS \"\(object.name.replacingOccurrences(of: "\"", with: "\"\""))\"")
            } catch {
                throw IndexError(
                    description: "its schema holds a \(object.type) '\(object.name.prefix(60))' that cannot be removed")
            }
        }
        for statement in TriageIndexSchema.statements where statement.hasPrefix("CREATE INDEX ") {
            try db.execute(
                sql: statement.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS "))
        }
        // What is left must be exactly this tool's schema (and SQLite's own objects).
        for row in try Row.fetchAll(
            db, sql: "SELECT CAST(type AS TEXT), CAST(name AS TEXT), CAST(sql AS TEXT) FROM sqlite_master")
        {
            let object = ((row[0] as String?) ?? "", (row[1] as String?) ?? "", row[2] as String?)
            guard Self.isSQLiteOwn(object) || own[object.0 + " " + object.1].map({ $0 == object.2 }) == true else {
                throw IndexError(description: "its schema still holds the \(object.0) '\(object.1.prefix(60))'")
            }
        }
        // The indexes are built again from the rows: a forged index (one that hides a row, or a
        // duplicate key) is not trusted, and a duplicate key refuses the file.
        do {
            try db.execute(sql: "REINDEX")
        } catch {
            throw IndexError(description: "its rows repeat a key (\(describe(error)))")
        }
        try db.inTransaction {
            for table in TriageIndexSchema.bundleTables { try holdToTypes(table, db) }
            let unsafe = try String.fetchOne(
                db, sql: "SELECT CAST(file AS TEXT) FROM bundles WHERE NOT \(safeFileSQL("file")) LIMIT 1")
            if let unsafe {
                throw IndexError(
                    description:
                        "a bundle row names the report file '\(Redactor.visibleControls(String(unsafe.prefix(80))))', which is not a plain name"
                )
            }
            // A row that belongs to no bundle (written with foreign keys off) would be counted in
            // the overview for ever: removing a bundle removes only its own rows.
            if try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
                throw IndexError(description: "it holds rows that belong to no bundle")
            }
            try db.execute(sql: "DELETE FROM problem_examples")
            try db.execute(sql: "DELETE FROM problems")
            // The overview's digest stays: it is only compared with the files on disk and this
            // run's settings (`OverviewDigest`); the page that can run code is always written.
            try db.execute(sql: "DELETE FROM meta WHERE key NOT IN ('schema_version', 'overview_sha256')")
            return .commit
        }
    }

    /// A table's columns (declared type upper-cased) and, per column, the SQL test that a value
    /// is not of its declared storage class (or NULL where the schema forbids one).
    static func typeTests(
        _ table: String, _ db: Database
    ) throws -> (columns: [(name: String, type: String, notNull: Bool)], wrong: [String]) {
        let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))").map { row in
            (
                name: (row["name"] as String?) ?? "", type: ((row["type"] as String?) ?? "").uppercased(),
                notNull: ((row["notnull"] as Int?) ?? 0) != 0
            )
        }
        let storage = ["TEXT": "text", "INTEGER": "integer", "REAL": "real"]
        var wrong: [String] = []
        for c in columns {
            let quoted = "\"\(c.name)\""
            // One test a column. `typeof`, not `IS NULL`: SQLite folds `IS NULL` on a NOT NULL
            // column to false, whatever the file holds.
            switch (storage[c.type], c.notNull) {
            case (let type?, true): wrong.append("typeof(\(quoted)) <> '\(type)'")
            case (let type?, false): wrong.append("typeof(\(quoted)) NOT IN ('\(type)', 'null')")
            case (nil, true): wrong.append("typeof(\(quoted)) = 'null'")
            case (nil, false): break
            }
        }
        return (columns, wrong)
    }

    /// Whether any row of `table` fails one of `wrong` (one scan; none in a file this tool wrote).
    static func hasWrongType(_ table: String, _ wrong: [String], _ db: Database) throws -> Bool {
        guard !wrong.isEmpty else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(wrong.joined(separator: " OR ")))") == true
    }

    /// SQLite's own objects: a table's automatic index (no SQL) and the sequence table.
    static func isSQLiteOwn(_ object: (type: String, name: String, sql: String?)) -> Bool {
        (object.type == "index" && object.name.hasPrefix("sqlite_autoindex_") && object.sql == nil)
            || (object.type == "table" && object.name == "sqlite_sequence")
    }

    /// Casts every value of `table` held as another storage class than its column's declared
    /// type (what `absorb`'s `CAST` does on the way in); a NULL in a NOT NULL column refuses.
    static func holdToTypes(_ table: String, _ db: Database) throws {
        let (columns, wrong) = try typeTests(table, db)
        guard try hasWrongType(table, wrong, db) else { return }
        let storage = ["TEXT", "INTEGER", "REAL"]
        let casts = columns.filter { storage.contains($0.type) }.map {
            "\"\($0.name)\" = CAST(\"\($0.name)\" AS \($0.type))"
        }
        for c in columns where c.notNull {
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE typeof(\"\(c.name)\") = 'null')")
                == true
            {
                throw IndexError(description: "its \(table).\(c.name) holds a NULL")
            }
        }
        if !casts.isEmpty { try db.execute(sql: "UPDATE \(table) SET \(casts.joined(separator: ", "))") }
    }
}
