/// A console line of another component that shared the proxy's console (the player, the system's
/// networking, the app's own `NSLog`), kept as what it is: which process wrote it and which
/// component it comes from — never as an entry of an invented proxy module.
public struct ConsoleLine: Hashable, Sendable, Codable {
    /// Who wrote the line, as far as its text tells.
    public enum Component: String, Sendable, Codable, CaseIterable {
        /// A media player in the app (ijkplayer, AVFoundation's console messages).
        case player
        /// The system's networking stack (CFNetwork, Network.framework).
        case system
        /// The app itself (its own `NSLog` lines), or anything not recognised.
        case app
    }

    /// The process name from the `NSLog` prefix (`Hoosho[5359:409058]` → `Hoosho`), when present.
    public var process: String?
    public var component: Component
    /// The library that wrote it, when the text names one (`ijkplayer`, `AVFoundation`, `CFNetwork`).
    public var library: String?
    /// The whole message (continuation lines joined).
    public var text: String
    /// An `NSError` in the message, if any.
    public var error: ErrorInfo?
    /// The message's level as the console style writes it (`Default`, `Error`, `Fault`), lowercased.
    public var level: String?
    /// The unified log's subsystem and category (`com.apple.coremedia`, `player`), when the style has them.
    public var subsystem: String?
    public var category: String?
    /// What the line is about, when its text says so.
    public var topic: Topic?
    /// The line says playback was given up ("Playback failed", an item that failed).
    public var endsPlayback: Bool

    /// What a device-console line is about, as far as its words tell.
    public enum Topic: String, Sendable, Codable, CaseIterable {
        /// The content-key exchange (FairPlay, `AVContentKeySession`, a key server).
        case contentKey = "content-key"
        /// Reading a playlist (a parse error, a playlist that stopped changing).
        case playlist
        /// The distance from a live stream's end (`-16832` "restarting … from end of live playlist").
        case liveEdge = "live-edge"
    }

    public init(
        process: String?, component: Component, library: String?, text: String, error: ErrorInfo? = nil,
        level: String? = nil, subsystem: String? = nil, category: String? = nil, topic: Topic? = nil,
        endsPlayback: Bool = false
    ) {
        self.process = process
        self.component = component
        self.library = library
        self.text = text
        self.error = error
        self.level = level
        self.subsystem = subsystem
        self.category = category
        self.topic = topic
        self.endsPlayback = endsPlayback
    }

    /// `Hoosho · ijkplayer`, `Hoosho · app`.
    public var origin: String {
        [process, library ?? component.rawValue].compactMap { $0 }.joined(separator: " · ")
    }
}

extension ConsoleLine {
    /// The system's media processes: they play on behalf of whichever app asked.
    public static let mediaProcesses: Set<String> = [
        "mediaserverd", "mediaplaybackd", "mediaparserd", "videocodecd", "audiomxd", "AVPlayerSession",
    ]

    /// Whether the line is about playback on its own: the player's or a media process's line,
    /// one about a content key, a playlist or the live edge, one that ends playback, or an error
    /// of the media stack's domains or about a media URL. An error of another kind (no network in
    /// SpringBoard, a location error) is not, unless its process also logs playback.
    public var isAboutPlayback: Bool {
        if component == .player || topic != nil || endsPlayback { return true }
        if let s = subsystem, Self.mediaSubsystemPrefixes.contains(where: { s.hasPrefix($0) }) { return true }
        if let domain = error?.domain, Self.mediaDomains.contains(domain) { return true }
        let lowered = text.prefix(4096).lowercased()
        return Self.mediaURLMarkers.contains { lowered.contains($0) }
    }

    /// The URL an error of the line failed on (`NSErrorFailingURLStringKey=…`, `NSErrorFailingURLKey=…`).
    public var failingURL: String? {
        guard error != nil else { return nil }
        for key in ["NSErrorFailingURLStringKey=", "NSErrorFailingURLKey="] {
            guard let r = text.range(of: key) else { continue }
            let url = text[r.upperBound...].prefix { !",} \n\t\"".contains($0) }
            if url.hasPrefix("http://") || url.hasPrefix("https://") { return String(url.prefix(2048)) }
        }
        return nil
    }

    static let mediaDomains: Set<String> = [
        "AVFoundationErrorDomain", "CoreMediaErrorDomain", "AVKitErrorDomain", "MPErrorDomain",
        "AVContentKeySessionErrorDomain",
    ]
    static let mediaURLMarkers = [
        ".m3u8", ".m3u", ".ts", ".m4s", ".mp4", ".m4a", ".aac", ".m4v", ".vtt", ".webvtt", ".cmfv", ".cmfa", ".cmft",
        ".mp3", ".ac3", ".ec3", ".mpd", "skd://",
    ]

    /// Subsystems of the media stack in the unified log.
    public static let mediaSubsystemPrefixes = [
        "com.apple.coremedia", "com.apple.avfoundation", "com.apple.avkit", "com.apple.mediatoolbox",
        "com.apple.mediaplayer", "com.apple.MediaPlayer", "com.apple.avfaudio", "com.apple.FairPlay",
        "com.apple.fairplay",
    ]
}
