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
