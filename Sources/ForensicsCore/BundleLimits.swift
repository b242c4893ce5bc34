/// Limits that keep hostile or broken bundles from exhausting memory, disk or time. Each is
/// configurable from the command line; the defaults are documented in README.md ("Limits").
///
/// Why records and bytes per bundle, not only per member: a bundle's cost is the sum of its
/// members — 400 zip entries sharing one 31 MB kernel each stayed under every per-member limit
/// and still decompressed 12 GB. The record limits bound memory (a record with its timeline entry
/// costs about 2 KiB); the byte limit bounds the work of reading.
public struct BundleLimits: Sendable {
    /// Largest decompressed size of one member (gzip bomb defence). Half the bundle's byte
    /// limit, so that one oversized member leaves its neighbours room.
    public var maxDecompressedSize: Int = 512 << 20
    /// Largest member of an archive (zip or tar).
    public var maxMemberSize: Int = 2 << 30
    /// Longest line a line-based parser keeps; longer lines are cut.
    public var maxLineLength: Int = 8 << 20
    /// Most members read from one bundle.
    public var maxMembers: Int = 100_000
    /// Deepest directory nesting walked.
    public var maxDepth: Int = 32
    /// Deepest nesting of archives inside archives (a zip in a zip, a tar.gz in a zip) expanded.
    public var maxArchiveDepth: Int = 3
    /// Most records kept from one file; the rest of the file is not read (with a diagnostic).
    public var maxRecordsPerFile: Int = 250_000
    /// Most records kept from one bundle; later files are not read (with a diagnostic). Twice the
    /// per-file limit, so that one oversized file leaves its neighbours room.
    public var maxRecordsPerBundle: Int = 500_000
    /// Most bytes read from one bundle after decompression, every member counted (overlapping
    /// zip members each time they are read).
    public var maxBundleBytes: Int = 1 << 30
    /// Most bytes read from the server logs given apart from a bundle (`--cdn-logs`), every
    /// file counted: a day of a busy distribution's logs is tens of gigabytes, read through the
    /// bundle's filter (memory bounded by the rows kept, not by this).
    public var maxServerLogBytes: Int = 64 << 30
    /// Largest decoded response body of a HAR entry, and all bodies of one capture together.
    public var maxHARBodySize: Int = 16 << 20
    public var maxHARBodiesSize: Int = 256 << 20
    /// Time one bundle may take to read (nil: no limit); `triage --bundle-time-limit`.
    public var timeLimit: Duration?

    public init() {}
}
