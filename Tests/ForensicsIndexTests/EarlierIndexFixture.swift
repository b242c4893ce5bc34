import Foundation
import GRDB

@testable import ForensicsIndex

/// A scratch directory of earlier indexes, each tampered with behind the tool's back: the input
/// of the absorb (`triage merge`) and adopt (`--since-index`) tests.
struct EarlierIndexFixture {
    let directory: URL

    init(_ prefix: String) {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// An index with one bundle row and an `analyzer` meta row, then whatever `plant` does to it.
    func earlierIndex(_ name: String, plant: (Database) throws -> Void) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let index = try TriageIndex(path: path(name))
        try index.setMeta("analyzer", "x")
        try index.close()
        let queue = try DatabaseQueue(path: path(name))
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO bundles (file, name, content_hash, analyzer, error, skipped, incomplete, input_problems, session_count)
                    VALUES ('a', 'a', 'h', 'x', NULL, 0, NULL, 0, 0)
                    """)
            try plant(db)
        }
        try queue.close()
        return path(name)
    }

    /// A trigger that forges a bundle row for every row inserted: it must never run.
    static func plantForgingTrigger(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TRIGGER forge AFTER INSERT ON bundles BEGIN
                INSERT INTO bundles (file, name, content_hash, analyzer, error, skipped, incomplete, input_problems, session_count)
                VALUES ('FORGED' || new.file, 'FORGED', 'x', 'x', NULL, 0, NULL, 0, 0); END
                """)
    }

    /// Changes an index behind the tool's back on a connection of its own (no transaction, so
    /// that pragmas such as `foreign_keys` and `writable_schema` take effect).
    func edit(_ file: String, _ body: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: file)
        try queue.writeWithoutTransaction(body)
        try queue.close()
    }

    /// `type name` of every object in a file's schema, sorted.
    func schemaObjects(_ file: String) throws -> [String] {
        let check = try DatabaseQueue(path: file)
        defer { try? check.close() }
        return try check.read { db in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name FROM sqlite_master ORDER BY 1")
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
