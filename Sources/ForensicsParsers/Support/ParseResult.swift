import ForensicsCore

/// What one parser made of one input file: its records and its diagnostics.
public struct ParseResult: Sendable {
    public var file: String
    public var format: InputFormat
    public var records: [Record] = []
    public var diagnostics: [Diagnostic] = []
    /// Fully parsed playlists (captures and HAR bodies), for `parse` and the playlist rules.
    public var playlists: [Playlist] = []
    /// The clock the file's times are written in.
    public var clock: SourceClock = .utc
    /// What wrote the file, when the content tells (`KTVHTTPCache 1.1.x (…why…)`), for the inputs table.
    public var producer: String?
    /// For a KTVHTTPCache log: the library releases that could have written it, and why.
    public var libraryVersion: KTVHTTPCacheVersionEvidence?

    public init(file: String, format: InputFormat) {
        self.file = file
        self.format = format
    }
}
