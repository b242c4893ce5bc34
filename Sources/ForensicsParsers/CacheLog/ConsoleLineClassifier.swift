import ForensicsCore

/// Names the component behind a console line that is not KTVHTTPCache's: the player (ijkplayer's
/// `FFP_MSG_…` and `IJKMPMovieLoadState…` lines, AVFoundation's messages), the system's
/// networking (CFNetwork's `Task <…> finished with error`), or the app's own `NSLog`.
enum ConsoleLineClassifier {
    static func line(prefix: String?, fullText: String, error: ErrorInfo?) -> ConsoleLine {
        let process = prefix.flatMap { p -> String? in
            guard let open = p.firstIndex(of: "[") else { return nil }
            let name = p[..<open].trimmingCharacters(in: " ")
            return name.isEmpty ? nil : name
        }
        let (component, library) = origin(of: fullText)
        return ConsoleLine(process: process, component: component, library: library, text: fullText, error: error)
    }

    static let ijkplayerMarkers = [
        "FFP_MSG_", "IJKMPMovie", "IJKMovieLoadState", "IJKFFMoviePlayer", "ijkmp_", "ijkplayer", "IJKSDL", "ffp_",
    ]
    static let avFoundationMarkers = [
        "<<<< ", "AVPlayerItem", "AVPlayer ", "AVFoundation", "CoreMedia", "[AVFoundation]", "FigStream",
    ]
    static let networkMarkers = [
        "Task <", "CFNetwork", "NSURLSession", "TIC ", "nw_", "HTTP load failed", "NSURLConnection", "boringssl",
    ]

    static func origin(of text: String) -> (ConsoleLine.Component, String?) {
        if ijkplayerMarkers.contains(where: { text.fastContains($0) }) { return (.player, "ijkplayer") }
        if networkMarkers.contains(where: { text.hasPrefix($0) || text.fastContains(" " + $0) }) {
            return (.system, "CFNetwork")
        }
        if avFoundationMarkers.contains(where: { text.fastContains($0) }) { return (.player, "AVFoundation") }
        return (.app, nil)
    }

    /// What a player line says about playback: ijkplayer's buffering start (a stall) and end
    /// (playback can go on), as the player posts them or as the app logs its load state.
    enum PlaybackSignal { case firstFrame, bufferingStart, bufferingEnd }

    static func playbackSignal(_ line: ConsoleLine) -> PlaybackSignal? {
        guard line.library == "ijkplayer" else { return nil }
        let t = line.text
        if t.fastContains("FFP_MSG_VIDEO_RENDERING_START") || t.fastContains("FFP_MSG_AUDIO_RENDERING_START") {
            return .firstFrame
        }
        if t.fastContains("FFP_MSG_BUFFERING_START") || t.fastContains("LoadStateStalled") { return .bufferingStart }
        if t.fastContains("FFP_MSG_BUFFERING_END") || t.fastContains("LoadStatePlaythroughOK")
            || t.fastContains("LoadStatePlayThroughOK")
        {
            return .bufferingEnd
        }
        return nil
    }
}
