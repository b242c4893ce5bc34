import Foundation
import PlaybackForensics
import Testing

/// The content hash decides whether `--since-index` analyses a bundle again.
@Suite struct BundleContentHashTests {
    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pf-hash-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/logs", withIntermediateDirectories: true)
        try "a\n".write(toFile: dir + "/logs/access.log", atomically: false, encoding: .utf8)
        try "b\n".write(toFile: dir + "/errors.log", atomically: false, encoding: .utf8)
        return dir
    }

    @Test func theSameBytesGiveTheSameHashAndAnyChangeAnother() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try BundleContentHash.of(path: dir)
        #expect(first.count == 64)
        #expect(try BundleContentHash.of(path: dir) == first)
        try "a!\n".write(toFile: dir + "/logs/access.log", atomically: false, encoding: .utf8)
        let edited = try BundleContentHash.of(path: dir)
        #expect(edited != first)
        // A renamed file is a different bundle too.
        try FileManager.default.moveItem(atPath: dir + "/errors.log", toPath: dir + "/error.log")
        #expect(try BundleContentHash.of(path: dir) != edited)
    }

    /// The metadata key (incremental triage's first check) reads no byte: it stays while nothing
    /// is touched, and a rewrite of the same bytes changes it while the content hash stays.
    @Test func theMetadataKeyChangesWithTheFilesNotOnlyTheirBytes() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let key = try BundleContentHash.metadataKey(path: dir)
        let hash = try BundleContentHash.of(path: dir)
        #expect(key.count == 64 && key != hash)
        #expect(try BundleContentHash.metadataKey(path: dir) == key, "nothing touched: the same key")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_790_000_000)], ofItemAtPath: dir + "/errors.log")
        let touched = try BundleContentHash.metadataKey(path: dir)
        #expect(touched != key, "new times: the first check fails")
        #expect(try BundleContentHash.of(path: dir) == hash, "and the content hash confirms nothing changed")
        // Near miss: a file replaced by one of the same bytes and times is another inode.
        try FileManager.default.removeItem(atPath: dir + "/errors.log")
        try "b\n".write(toFile: dir + "/errors.log", atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_790_000_000)], ofItemAtPath: dir + "/errors.log")
        #expect(try BundleContentHash.metadataKey(path: dir) != touched)
    }

    /// A bundle that is a link inside the fleet directory is hashed by its target's bytes: an edit
    /// of the same size is seen (it was hashed by the target's size alone).
    @Test func aLinkedBundleIsHashedByItsTarget() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/linked.log", withDestinationPath: "errors.log")
        let first = try BundleContentHash.of(path: dir + "/linked.log")
        #expect(first == (try BundleContentHash.of(path: dir + "/errors.log")))
        try "c\n".write(toFile: dir + "/errors.log", atomically: false, encoding: .utf8)
        #expect(try BundleContentHash.of(path: dir + "/linked.log") != first)
    }

    /// A FIFO (beside the bundles or inside one) is never read: reading it would wait forever.
    @Test func aFIFOIsNotRead() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/logs/pipe", 0o644) == 0)
        #expect(mkfifo(dir + "/top-pipe", 0o644) == 0)
        _ = try BundleContentHash.of(path: dir)
        _ = try BundleContentHash.of(path: dir + "/top-pipe")
    }
}
