import Foundation
import GRDB
import Testing

@testable import ForensicsIndex

/// An earlier index (`--since-index`) or a shard's (`triage merge`) is untrusted input: its rows
/// are copied into a fresh schema, and nothing it carries runs or survives (issue 30).
@Suite struct IndexAbsorbTests {
    let fixture = EarlierIndexFixture("pf-absorb")

    @Test func aPlantedTriggerNeitherRunsNorSurvives() throws {
        defer { fixture.remove() }
        let old = try fixture.earlierIndex("old.sqlite") { db in
            try EarlierIndexFixture.plantForgingTrigger(db)
            try db.execute(sql: "CREATE VIEW forged AS SELECT 1")
        }
        let index = try TriageIndex(path: fixture.path("new.sqlite"))
        let meta = try index.absorb(old, refuseClash: false)
        #expect(meta["schema_version"] == String(TriageIndexSchema.version))
        #expect(try index.knownBundles().keys.sorted() == ["a"])
        var bundle = IndexedBundle(name: "b", file: "b", contentHash: "h2", analyzer: "x")
        bundle.error = "no files in it"
        try index.store(bundle)
        #expect(try index.knownBundles().keys.sorted() == ["a", "b"])
        try index.close()
        let check = try DatabaseQueue(path: fixture.path("new.sqlite"))
        let planted = try check.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view')")
        }
        #expect(planted.isEmpty)
    }

    @Test func aViewInPlaceOfATableIsRefused() throws {
        defer { fixture.remove() }
        let old = try fixture.earlierIndex("view.sqlite") { db in
            try db.execute(sql: "ALTER TABLE evidence RENAME TO evidence_old")
            try db.execute(sql: "CREATE VIEW evidence AS SELECT * FROM evidence_old")
        }
        let index = try TriageIndex(path: fixture.path("new.sqlite"))
        #expect(throws: TriageIndex.IndexError.self) { try index.absorb(old) }
        // Near miss: the same index untouched is read.
        let plain = try fixture.earlierIndex("plain.sqlite") { _ in }
        let other = try TriageIndex(path: fixture.path("other.sqlite"))
        _ = try other.absorb(plain)
        #expect(try other.knownBundles().count == 1)
    }

    @Test func aLinkOrAForeignFileIsRefused() throws {
        defer { fixture.remove() }
        let plain = try fixture.earlierIndex("plain.sqlite") { _ in }
        try FileManager.default.createSymbolicLink(atPath: fixture.path("link.sqlite"), withDestinationPath: plain)
        try Data("not a database".utf8).write(to: fixture.directory.appendingPathComponent("junk.sqlite"))
        let index = try TriageIndex(path: fixture.path("new.sqlite"))
        #expect(throws: TriageIndex.IndexError.self) { try index.absorb(fixture.path("link.sqlite")) }
        #expect(throws: TriageIndex.IndexError.self) { try index.absorb(fixture.path("junk.sqlite")) }
    }

    @Test func anIndexOfAnotherSchemaVersionSaysSoBeforeAnyTableDifference() throws {
        defer { fixture.remove() }
        // A schema-3 index: its findings table lacks this version's columns.
        let old = try fixture.earlierIndex("v3.sqlite") { db in
            try db.execute(sql: "UPDATE meta SET value = '3' WHERE key = 'schema_version'")
            try db.execute(sql: "ALTER TABLE findings DROP COLUMN own_key")
        }
        let index = try TriageIndex(path: fixture.path("new.sqlite"))
        defer { try? index.close() }
        #expect {
            try index.absorb(old, refuseClash: false)
        } throws: { error in
            "\(error)".contains("schema 3") && "\(error)".contains("triage into a new directory")
        }
    }
}
