/// Limits that keep hostile or broken bundles from exhausting memory, disk or time. Each is
/// configurable from the command line; the defaults are documented in README.md.
public struct BundleLimits: Sendable {
    /// Largest decompressed size of one member (gzip bomb defence).
    public var maxDecompressedSize: Int = 2 << 30
    /// Largest member of an archive (zip or tar).
    public var maxMemberSize: Int = 2 << 30
    /// Longest line a line-based parser keeps; longer lines are cut.
    public var maxLineLength: Int = 8 << 20
    /// Most members read from one bundle.
    public var maxMembers: Int = 100_000
    /// Deepest directory nesting walked.
    public var maxDepth: Int = 32

    public init() {}
}
