import Foundation
import GRDB
import Testing

@testable import ForensicsIndex

/// `--since-index` opens a byte copy of the earlier index made safe in place: the same promises
/// as `absorb` (issue 30) — nothing the file carries runs or survives, its rows are held to this
/// tool's types — at the cost of a file copy (issue 36).
@Suite struct IndexAdoptTests {
    let fixture = EarlierIndexFixture("pf-adopt")

    @Test func aPlantedTriggerViewAndTableNeitherRunNorSurvive() throws {
        defer { fixture.remove() }
        let clean = try fixture.earlierIndex("clean.sqlite") { _ in }
        let old = try fixture.earlierIndex("old.sqlite") { db in
            try EarlierIndexFixture.plantForgingTrigger(db)
            try db.execute(sql: "CREATE VIEW forged AS SELECT 1")
            try db.execute(sql: "CREATE TABLE stash (secret TEXT PRIMARY KEY)")
            try db.execute(sql: "CREATE INDEX forged_names ON bundles(name)")
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('planted', 'x')")
        }
        let index = try TriageIndex.adopting(copyOf: old, at: fixture.path("new.sqlite"))
        #expect(try index.knownBundles().keys.sorted() == ["a"])
        var bundle = IndexedBundle(name: "b", file: "b", contentHash: "h2", analyzer: "x")
        bundle.error = "no files in it"
        try index.store(bundle)
        #expect(try index.knownBundles().keys.sorted() == ["a", "b"])
        #expect(try index.meta("planted") == nil)
        try index.close()
        // What is left is exactly what this tool creates.
        #expect(try fixture.schemaObjects(fixture.path("new.sqlite")) == fixture.schemaObjects(clean))
    }

    /// SQLite refuses to create a `sqlite_` name but loads one planted in the schema table: such a
    /// trigger is dropped like any other before a row is written, and never runs.
    @Test func aTriggerWithSQLitesOwnPrefixIsDroppedToo() throws {
        defer { fixture.remove() }
        let old = try fixture.earlierIndex("sqlite-named.sqlite") { _ in }
        try fixture.edit(old) { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(
                sql: """
                    INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql) VALUES ('trigger', 'sqlite_forge',
                    'problems', 0, 'CREATE TRIGGER sqlite_forge AFTER DELETE ON problems BEGIN UPDATE bundles SET file = ''x''; END')
                    """)
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        #expect(try fixture.schemaObjects(old).contains("trigger sqlite_forge"))
        let index = try TriageIndex.adopting(copyOf: old, at: fixture.path("new.sqlite"))
        #expect(try index.knownBundles().keys.sorted() == ["a"])
        try index.close()
        #expect(try !fixture.schemaObjects(fixture.path("new.sqlite")).contains("trigger sqlite_forge"))
    }

    /// A row that belongs to no bundle (written with foreign keys off) refuses the file: it would
    /// be counted in every overview, and no bundle's removal would ever take it away.
    @Test func rowsOfNoBundleAreRefused() throws {
        defer { fixture.remove() }
        let old = try fixture.earlierIndex("orphan.sqlite") { _ in }
        try fixture.edit(old) { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql:
                    "INSERT INTO failed_requests (bundle, session_ordinal, host, status, count) VALUES ('ghost', 0, 'h', '404', 1)"
            )
        }
        #expect {
            try TriageIndex.adopting(copyOf: old, at: fixture.path("new.sqlite"))
        } throws: { "\($0)".contains("belong to no bundle") }
    }

    /// A report name with a NUL in it (`a\0phantom`: SQLite's `length` and `GLOB` stop at the
    /// NUL, so it looked like `a`) refuses the file, when adopted and when merged (probe B, F3).
    /// Near miss: the plain name beside it is kept.
    @Test func aReportNameWithANulIsRefused() throws {
        defer { fixture.remove() }
        let old = try fixture.earlierIndex("nul.sqlite") { _ in }
        try fixture.edit(old) { db in
            try db.execute(
                sql: """
                    INSERT INTO bundles (file, name, content_hash, analyzer, skipped, input_problems, session_count)
                    VALUES ('a' || char(0) || 'phantom', 'FORGED', 'h', 'x', 0, 0, 0)
                    """)
        }
        #expect {
            try TriageIndex.adopting(copyOf: old, at: fixture.path("new.sqlite"))
        } throws: { "\($0)".contains("not a plain name") && !"\($0)".contains("\u{0}") }
        let merged = try TriageIndex(path: fixture.path("merged.sqlite"))
        #expect(throws: (any Error).self) { try merged.absorb(old) }
        try merged.close()
        let plain = try fixture.earlierIndex("plain.sqlite") { _ in }
        let kept = try TriageIndex.adopting(copyOf: plain, at: fixture.path("kept.sqlite"))
        #expect(try kept.knownBundles().keys.sorted() == ["a"])
        try kept.close()
    }

    /// A FIFO in the earlier index's place does not block the run; it is refused at once.
    @Test(.timeLimit(.minutes(1))) func aFIFOIsRefusedWithoutBlocking() throws {
        defer { fixture.remove() }
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        #expect(mkfifo(fixture.path("fifo.sqlite"), 0o600) == 0)
        #expect(throws: TriageIndex.IndexError.self) {
            try TriageIndex.adopting(copyOf: fixture.path("fifo.sqlite"), at: fixture.path("new.sqlite"))
        }
    }

    @Test func aViewInPlaceOfATableIsRefusedAndNothingIsLeft() throws {
        defer { fixture.remove() }
        let old = try fixture.earlierIndex("view.sqlite") { db in
            try db.execute(sql: "ALTER TABLE evidence RENAME TO evidence_old")
            try db.execute(sql: "CREATE VIEW evidence AS SELECT * FROM evidence_old")
        }
        #expect {
            try TriageIndex.adopting(copyOf: old, at: fixture.path("new.sqlite"))
        } throws: { "\($0)".contains("not the table this tool creates") }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: fixture.path("new.sqlite" + suffix)))
        }
        // Near miss: the same index untouched is adopted.
        let plain = try fixture.earlierIndex("plain.sqlite") { _ in }
        let other = try TriageIndex.adopting(copyOf: plain, at: fixture.path("other.sqlite"))
        #expect(try other.knownBundles().count == 1)
        try other.close()
    }

    @Test func aLinkOrAForeignFileIsRefused() throws {
        defer { fixture.remove() }
        let plain = try fixture.earlierIndex("plain.sqlite") { _ in }
        try FileManager.default.createSymbolicLink(atPath: fixture.path("link.sqlite"), withDestinationPath: plain)
        try Data("not a database".utf8).write(to: fixture.directory.appendingPathComponent("junk.sqlite"))
        #expect(throws: TriageIndex.IndexError.self) {
            try TriageIndex.adopting(copyOf: fixture.path("link.sqlite"), at: fixture.path("new1.sqlite"))
        }
        #expect(throws: TriageIndex.IndexError.self) {
            try TriageIndex.adopting(copyOf: fixture.path("junk.sqlite"), at: fixture.path("new2.sqlite"))
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.path("new1.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: fixture.path("new2.sqlite")))
    }

    @Test func anIndexOfAnotherSchemaVersionSaysSo() throws {
        defer { fixture.remove() }
        let old = try fixture.earlierIndex("v3.sqlite") { db in
            try db.execute(sql: "UPDATE meta SET value = '3' WHERE key = 'schema_version'")
        }
        #expect {
            try TriageIndex.adopting(copyOf: old, at: fixture.path("new.sqlite"))
        } throws: { "\($0)".contains("schema 3") && "\($0)".contains("triage into a new directory") }
    }

    /// A BLOB where text belongs is read as text (decoding it as a String would trap); a NULL
    /// where the schema forbids one, or a report file name that is not plain, refuses the file.
    @Test func rowsAreHeldToTheToolsTypes() throws {
        defer { fixture.remove() }
        let blob = try fixture.earlierIndex("blob.sqlite") { db in
            try db.execute(sql: "UPDATE bundles SET name = CAST('a' AS BLOB), session_count = X'00'")
        }
        let index = try TriageIndex.adopting(copyOf: blob, at: fixture.path("new.sqlite"))
        #expect(try index.knownBundles()["a"]?.name == "a")
        try index.close()
        let types = try DatabaseQueue(path: fixture.path("new.sqlite")).read { db in
            try Row.fetchOne(db, sql: "SELECT typeof(name), typeof(session_count) FROM bundles")
        }
        #expect(types?[0] as String? == "text" && types?[1] as String? == "integer")
        let unsafe = try fixture.earlierIndex("unsafe.sqlite") { db in
            try db.execute(sql: "UPDATE bundles SET file = '../../etc/passwd'")
        }
        #expect {
            try TriageIndex.adopting(copyOf: unsafe, at: fixture.path("new-unsafe.sqlite"))
        } throws: { "\($0)".contains("not a plain name") }
        // A NULL behind a NOT NULL: written with the constraint edited out of the schema text.
        let null = try fixture.earlierIndex("null.sqlite") { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(
                sql:
                    "UPDATE sqlite_master SET sql = replace(sql, 'content_hash TEXT NOT NULL', 'content_hash TEXT') WHERE name = 'bundles'"
            )
        }
        try fixture.edit(null) { db in try db.execute(sql: "UPDATE bundles SET content_hash = NULL") }
        try fixture.edit(null) { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(
                sql:
                    "UPDATE sqlite_master SET sql = replace(sql, 'content_hash TEXT,', 'content_hash TEXT NOT NULL,') WHERE name = 'bundles'"
            )
        }
        #expect {
            try TriageIndex.adopting(copyOf: null, at: fixture.path("new-null.sqlite"))
        } throws: { "\($0)".contains("holds a NULL") }
    }
}
