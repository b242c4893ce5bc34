import Foundation

/// An error as the sources report it: an NSError-like domain and code, a description, and the
/// HTTP status when the source states one (or when the description reads `HTTP 404: …`).
public struct ErrorInfo: Hashable, Sendable, Codable {
    public var domain: String?
    public var code: Int?
    public var description: String?
    public var httpStatus: Int?
    public var didRecover: Bool?
    /// The errors beneath this one, outermost first (an `NSError`'s `NSUnderlyingError` chain as a
    /// console prints it: AVFoundation -11800 over NSOSStatusErrorDomain -42669). Empty when the
    /// source names one error only.
    public var underlying: [ErrorInfo]

    public init(
        domain: String?, code: Int?, description: String?, httpStatus: Int? = nil, didRecover: Bool? = nil,
        underlying: [ErrorInfo] = []
    ) {
        self.domain = domain
        self.code = code
        self.description = description
        self.didRecover = didRecover
        self.underlying = underlying
        self.httpStatus = httpStatus ?? ErrorInfo.httpStatus(domain: domain, code: code, description: description)
    }

    /// The HTTP status behind a CoreMedia error: the description `HTTP 404: File Not Found`
    /// or the well-known codes (-12938 → 404, -12660 → 403, -12661 → 5xx unknown).
    /// AVPlayer's "Playlist File unchanged for longer than 1.5 * target duration" (CoreMedia
    /// -12888): a live playlist that stopped advancing. It is about the playlist, not a failed
    /// media request, and is the evidence of a `stale-live-playlist` stall (rules.md).
    /// NSURLErrorCancelled (-999): the client gave the request up itself (a seek, a variant
    /// switch) — no failure of the server or the network.
    public var isCancellation: Bool {
        code == -999 && (domain == nil || domain == "NSURLErrorDomain" || domain == "no response")
    }

    /// CoreMedia -12318, "Segment exceeds specified bandwidth for variant": the segment arrived,
    /// its bit rate is above the variant's declared BANDWIDTH — about the stream, not a failure.
    public var isBandwidthAdvisory: Bool { code == -12318 }

    public var isStaleLivePlaylist: Bool {
        if code == -12888 { return true }
        return description.map { $0.containsIgnoringASCIICase("playlist file unchanged") } ?? false
    }

    /// The error and those beneath it, outermost first.
    public var chain: [ErrorInfo] { [self] + underlying }

    /// The chain as one line: `AVFoundationErrorDomain -11800 ← NSOSStatusErrorDomain -42669`.
    public var chainText: String {
        chain.map { e in [e.domain, e.code.map(String.init)].compactMap { $0 }.joined(separator: " ") }
            .filter { !$0.isEmpty }.joined(separator: " ← ")
    }

    /// The text says the item cannot go on (`-12880` "Can not proceed after removing variants",
    /// "Playback failed"): the player gave up, whatever the source's own fatal flag says.
    public var statesPlaybackEnded: Bool { description.map { ErrorInfo.statesEnd(ASCIILowered($0)) } ?? false }

    /// What players and apps write when an item is given up. Kept short and specific: a phrase
    /// that also describes a recoverable error ("failed to load") does not belong here.
    public static let endPhrases = [
        "can not proceed", "cannot proceed", "playback failed", "AVPlayerItemStatusFailed", "item failed",
        "status: failed", "status = failed", "status=failed", "failed to play to end", "FailedToPlayToEndTime",
        "giving up", "gave up",
    ]

    package static let endPatterns = endPhrases.map(ASCIILowered.pattern)

    /// Whether a text says playback was given up (`endPhrases`, any ASCII case).
    package static func statesEnd(_ text: ASCIILowered) -> Bool { text.containsAny(endPatterns) }

    /// FairPlay Streaming's own status codes (-42999…-42000 in `NSOSStatusErrorDomain`).
    public static func isFairPlayCode(_ code: Int?) -> Bool { code.map { (-42999 ... -42000).contains($0) } ?? false }

    /// A content-key error: FairPlay's own codes anywhere in the chain, or a description naming
    /// the key exchange.
    public var isContentKeyError: Bool {
        chain.contains { e in
            if ErrorInfo.isFairPlayCode(e.code), e.domain == nil || e.domain == "NSOSStatusErrorDomain" { return true }
            guard let text = e.description else { return false }
            return ASCIILowered(text).containsAny(ErrorInfo.keyPatterns)
        }
    }

    /// Words that name the content-key exchange in player and app messages.
    public static let keyPhrases = [
        "content key", "contentkey", "FairPlay", "key request", "keyrequest", "key server", "SPC", "CKC",
        "license request", "license server",
    ]
    package static let keyPatterns = keyPhrases.map(ASCIILowered.pattern)

    /// The player refused a playlist it could not parse (CoreMedia -12642), anywhere in the chain.
    public var isPlaylistParseError: Bool {
        chain.contains {
            $0.code == -12642 || ($0.description?.containsIgnoringASCIICase(ErrorInfo.parseErrorPhrase) ?? false)
        }
    }
    public static let parseErrorPhrase = "playlist parse"

    /// The player (re)started a live stream near its playlist's end (CoreMedia -16832).
    public var isLiveEdgeWarning: Bool {
        chain.contains {
            $0.code == -16832 || ($0.description?.containsIgnoringASCIICase(ErrorInfo.liveEdgePhrase) ?? false)
        }
    }
    public static let liveEdgePhrase = "from end of live playlist"

    static func httpStatus(domain: String?, code: Int?, description: String?) -> Int? {
        if let description, let range = description.range(of: "HTTP ") {
            let digits = description[range.upperBound...].prefix(while: { $0.isNumber })
            if digits.count == 3, let v = Int(digits) { return v }
        }
        switch code {
        case -12938: return 404
        case -12660: return 403
        default: break
        }
        if let code, (400...599).contains(code), domain != "NSURLErrorDomain" { return code }
        return nil
    }

    public var shortText: String {
        var parts: [String] = []
        if let domain { parts.append(domain) }
        if let code { parts.append(String(code)) }
        var s = parts.joined(separator: " ")
        if let description, !description.isEmpty { s += s.isEmpty ? description : ": \(description)" }
        return s
    }
}
