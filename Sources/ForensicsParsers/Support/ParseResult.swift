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

    public init(file: String, format: InputFormat) {
        self.file = file
        self.format = format
    }
}
