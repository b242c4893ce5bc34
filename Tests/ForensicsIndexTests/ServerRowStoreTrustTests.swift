import Foundation
import GRDB
import Testing

import ForensicsCore

@testable import ForensicsIndex

/// `OUT/cdn-rows.sqlite` is a cache, and OUT is as untrusted as any input (probe B): a store this
/// tool did not write — a trigger, a view, a value of another type, a write-ahead log planted
/// beside it — is removed and made again, never run or read as rows. Near miss: the tool's own
/// store is kept, with what it stored.
@Suite struct ServerRowStoreTrustTests {
    func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-rowstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A store with one complete file, as a run leaves it.
    func storeOneFile(at path: String) throws {
        let store = try ServerRowStore(path: path)
        let id = try store.beginFile(name: "day.log", container: "day.log", size: 10, modified: 1, settings: "s")
        try store.add(
            [
                .init(
                    line: 3, start: 100, path: "/a/s1.ts", requestID: "r1", session: nil, header: "#Fields: x", raw: "x"
                )
            ],
            file: id)
        try store.finishFile(id, format: "cloudfront-standard", coverage: ServerLogCoverage(), diagnostics: [])
        try store.finishStoring()
    }

    /// A directory holding a store with one file, as a run leaves it, then edited by `plant`
    /// (as someone with write access to OUT could).
    func plantedStore(_ plant: (Database) throws -> Void = { _ in }) throws -> (dir: URL, path: String) {
        let dir = try directory()
        let path = dir.appendingPathComponent("cdn-rows.sqlite").path
        try storeOneFile(at: path)
        let planted = try DatabaseQueue(path: path)
        try planted.write(plant)
        try planted.close()
        return (dir, path)
    }

    func objects(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT type || ' ' || name FROM sqlite_master ORDER BY 1")
        }
    }

    @Test func theToolsOwnStoreIsKept() throws {
        let (dir, path) = try plantedStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let again = try ServerRowStore(path: path)
        #expect(try again.files().map(\.name) == ["day.log"])
    }

    @Test func aPlantedTriggerOrViewIsNeverKept() throws {
        let (dir, path) = try plantedStore { db in
            try db.execute(
                sql: "CREATE TRIGGER forge AFTER INSERT ON rows BEGIN UPDATE files SET name = 'FORGED'; END")
            try db.execute(sql: "CREATE VIEW v AS SELECT * FROM rows")
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try ServerRowStore(path: path)
        #expect(try store.files().isEmpty, "made again: its files are read again from the logs")
        #expect(try !objects(path).contains { $0.hasPrefix("trigger") || $0.hasPrefix("view") })
    }

    @Test func aValueOfAnotherTypeMakesTheStoreAgain() throws {
        // Text in a REAL column stays text (SQLite's affinity cannot convert it); decoded as a
        // number it would stop the tool.
        let (dir, path) = try plantedStore { db in try db.execute(sql: "UPDATE files SET modified = 'abc'") }
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try ServerRowStore(path: path)
        #expect(try store.files().isEmpty)
        try store.keepOnly(containers: ["day.log"])
    }

    @Test func aWriteAheadLogBesideItIsNotReplayed() throws {
        let (dir, path) = try plantedStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A copy written in WAL mode, its change left in the log, and only the log planted.
        let copy = dir.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let forger = try DatabaseQueue(path: copy)
        try forger.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "UPDATE files SET name = 'FORGED'")
        }
        try FileManager.default.copyItem(atPath: copy + "-wal", toPath: path + "-wal")
        try forger.close()
        // Replayed, the log would rename the file: the store is made again instead (as after a
        // run cut short, whose last writes are in its log), and its logs are read again.
        let store = try ServerRowStore(path: path)
        #expect(try store.files().isEmpty)
    }

    /// The rows table is not type-checked on opening (a day of logs would be read whole): a row
    /// of another type is skipped where it is read, never decoded blindly. Counts read back
    /// saturate instead of overflowing. Near miss: the good row is returned.
    @Test func aRowOfAnotherTypeOrAnImpossibleCountIsNoCrash() throws {
        let (dir, path) = try plantedStore { db in
            try db.execute(
                sql:
                    "INSERT INTO rows (file, line, start, path, request_id, raw) SELECT file, 'x', start, path, 'r1', raw FROM rows"
            )
            try db.execute(sql: "UPDATE files SET rows = 9223372036854775807")
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try ServerRowStore(path: path)
        let file = try #require(try store.files().first)
        var filter = ServerRowFilter()
        filter.responseValues = ["r1"]
        #expect(try store.rows(file: file.id, filter: filter, limit: 10).map(\.line) == [3])
        var total = file.coverage
        total.merge(file.coverage)
        #expect(total.rows == Int.max)
    }
}
