import ForensicsCore

/// What one console entry says about playback: an error-log event the app printed, an error with
/// its chain, a content-key, playlist or live-edge message, the player giving up — or nothing, in
/// which case the entry is context and not a record.
///
/// Only words with a fixed meaning are read: an `NSError` description, a domain named with its
/// code, AVFoundation's and CoreMedia's own message prefixes (`<<<< … >>>>`), the player's media
/// processes and subsystems. A line that merely mentions a URL is no evidence.
package enum ConsoleMessage {
    /// The processes that play media for an app on iOS, tvOS and macOS.
    static var mediaProcesses: Set<String> { ConsoleLine.mediaProcesses }
    /// Subsystems of the media stack in the unified log.
    static var mediaSubsystemPrefixes: [String] { ConsoleLine.mediaSubsystemPrefixes }
    /// Words that mark a message as the player's, wherever it was logged.
    static let playerMarkers = [
        "<<<< ", "AVPlayer", "AVFoundation", "CoreMedia", "FigStream", "FigPlayer", "AVContentKey",
        "ContentKeySession", "FairPlay", "#EXT-X-", ".m3u8",
    ]
    /// The error domains whose codes the catalogue explains.
    static let domains = [
        "CoreMediaErrorDomain", "AVFoundationErrorDomain", "NSURLErrorDomain", "NSOSStatusErrorDomain",
        "kCFErrorDomainCFNetwork",
    ]

    /// The record an entry makes, or nil for context. `eventDate` reads a printed event's own
    /// date in the zone the reader knows.
    package static func record(
        head: ConsoleStyle.Head, message: Substring, location: SourceLocation, eventDate: (String) -> Timestamp?
    ) -> Record? {
        if let event = PrintedErrorLogEvent.parse(message) {
            return Record(
                time: event.date.flatMap(eventDate) ?? head.time, location: location, format: .deviceConsole,
                sessionID: event.sessionID,
                payload: .errorLog(event.error, uri: event.uri))
        }
        let error = NSErrorDescription.parse(message) ?? codeMention(message)
        let lowered = ASCIILowered(message.prefix(8192))
        let topic = topic(of: lowered, error: error)
        let fullText = String(message.prefix(8192))
        let ends = ErrorInfo.statesEnd(lowered)
        guard error != nil || topic != nil || ends || isPlayerLine(head: head, message: message) else { return nil }
        let (component, library) = origin(head: head, message: message)
        let line = ConsoleLine(
            process: head.process, component: component, library: library, text: fullText,
            error: error.map { e in
                var e = e
                if ends { e.didRecover = false }
                return e
            },
            level: head.level, subsystem: head.subsystem, category: head.category, topic: topic, endsPlayback: ends)
        return Record(
            time: head.time, location: location, format: .deviceConsole, sessionID: nil, payload: .console(line))
    }

    /// Whether a line with no error of its own still belongs to playback: a media process, a media
    /// subsystem or the player's own words.
    static func isPlayerLine(head: ConsoleStyle.Head, message: Substring) -> Bool {
        if let p = head.process, mediaProcesses.contains(p) { return true }
        if let s = head.subsystem, mediaSubsystemPrefixes.contains(where: { s.hasPrefix($0) }) { return true }
        return playerMarkers.contains { message.fastContains($0) }
    }

    static func origin(head: ConsoleStyle.Head, message: Substring) -> (ConsoleLine.Component, String?) {
        if let p = head.process, mediaProcesses.contains(p) { return (.player, head.library ?? p) }
        let (component, library) = ConsoleLineClassifier.origin(of: String(message.prefix(512)))
        return (component, head.library ?? library)
    }

    /// What the message is about, from its error's code and its own words: the same tests the
    /// rules make of an error (`ErrorInfo`), on the message as well.
    static func topic(of message: ASCIILowered, error: ErrorInfo?) -> ConsoleLine.Topic? {
        if error?.isLiveEdgeWarning == true || message.contains(liveEdgePattern) { return .liveEdge }
        if error?.isContentKeyError == true || message.containsAny(ErrorInfo.keyPatterns) { return .contentKey }
        if error?.isPlaylistParseError == true || message.contains(parseErrorPattern) { return .playlist }
        return nil
    }
    static let liveEdgePattern = ASCIILowered.pattern(ErrorInfo.liveEdgePhrase)
    static let parseErrorPattern = ASCIILowered.pattern(ErrorInfo.parseErrorPhrase)

    /// A code named without an `NSError` around it: `(AVFoundationErrorDomain / -11800) status
    /// (-42669)` (AVFoundation's own wording: the status is the OSStatus beneath), `CoreMediaErrorDomain
    /// -12642`, `err=-12642`. A number is read as a code only after a domain or an `err`/`error`/
    /// `status` word, and only when it has four to six digits: `(-1)` and line numbers are not codes.
    static func codeMention(_ message: Substring) -> ErrorInfo? {
        var domain: String?
        var code: Int?
        for d in domains {
            guard let r = message.fastRange(of: d) else { continue }
            let after = message[r.upperBound...].drop { $0 == " " || $0 == "/" || $0 == ":" || $0 == "," }
            let codeText = after.hasPrefix("Code=") ? after.dropFirst(5) : after
            if let n = number(codeText) {
                domain = d
                code = n
                break
            }
        }
        if code == nil {
            for word in ["err=", "err ", "error ", "error=", "Error ", "status ", "OSStatus "] {
                guard let r = message.fastRange(of: word) else { continue }
                if let n = number(message[r.upperBound...].drop { $0 == " " || $0 == "(" }), n <= -1000 {
                    code = n
                    break
                }
            }
        }
        guard let code else { return nil }
        var underlying: [ErrorInfo] = []
        if domain != nil, let r = message.fastRange(of: "status ("), let n = number(message[r.upperBound...]), n != code
        {
            underlying = [ErrorInfo(domain: "NSOSStatusErrorDomain", code: n, description: nil)]
        }
        let text = message.trimmingCharacters(in: " ")
        return ErrorInfo(
            domain: domain, code: code, description: String(text.prefix(500)), underlying: underlying)
    }

    /// A signed integer of one to ten digits at the start.
    private static func number(_ s: Substring) -> Int? {
        var digits = s.prefix(12).prefix { $0 == "-" || ($0.isASCII && $0.isNumber) }
        while digits.dropFirst().contains("-") { digits = digits.dropLast() }
        guard digits.count >= 2, digits.count <= 11, let n = Int(digits) else { return nil }
        let magnitude = digits.hasPrefix("-") ? digits.count - 1 : digits.count
        return magnitude >= 3 ? n : nil
    }
}
