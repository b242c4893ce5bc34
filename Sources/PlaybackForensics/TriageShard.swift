import Crypto
import Foundation

/// `--shard K/N`: the deterministic share of a fleet one process (one task of a distributed
/// engine) triages. A bundle belongs to shard `1 + (h mod N)`, h read from the SHA-256 of its
/// report file's base name folded to lower case — so every bundle whose name maps to the same
/// report file (`a b`, `a_b`) lands in the same shard and gets the same `~2` suffix as in one
/// run, and a bundle stays in its shard however the fleet grows.
public struct TriageShard: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    /// `K/N` with 1 ≤ K ≤ N ≤ 10,000.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 10_000, k >= 1, k <= n
        else { return nil }
        index = k
        count = n
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the bundle of that shown name is in this shard.
    public func contains(_ name: String) -> Bool {
        Self.shard(of: name, count: count) == index
    }

    static func shard(of name: String, count: Int) -> Int {
        let key = TriageRunner.safeFileName(name).lowercased()
        let digest = Array(SHA256.hash(data: Array(key.utf8)))
        var h: UInt64 = 0
        for byte in digest.prefix(8) { h = h << 8 | UInt64(byte) }
        return Int(h % UInt64(count)) + 1
    }
}
