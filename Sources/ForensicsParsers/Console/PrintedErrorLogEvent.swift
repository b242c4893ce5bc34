import ForensicsCore

/// An app's own print of an `AVPlayerItemErrorLogEvent`, read by the event's property names
/// (`errorStatusCode`, `errorDomain`, `errorComment`, `URI`, `date`, `serverAddress`,
/// `playbackSessionID`) — whatever glue the app put between them (`name: value`, `name=value`,
/// JSON-ish quotes, `|` or `,` separators). The names are AVFoundation's API, so two of the three
/// error properties together are positive evidence; one alone, or the words in prose, is not.
package struct PrintedErrorLogEvent: Sendable {
    package var error: ErrorInfo
    package var uri: String?
    /// The `date` as printed (the reader knows the zone to read it in).
    package var date: String?
    package var sessionID: String?

    /// The property names, lowercased, as they are looked up.
    static let keys = [
        "errorstatuscode", "errordomain", "errorcomment", "uri", "date", "serveraddress", "playbacksessionid",
    ]

    /// Whether `text` names at least two of the error properties.
    package static func isPrinted(_ text: Substring) -> Bool {
        let lowered = ASCIILowered(text)
        return errorKeys.filter { lowered.contains($0) }.count >= 2
    }
    static let errorKeys = ["errorstatuscode", "errordomain", "errorcomment"].map(ASCIILowered.pattern)

    /// The event printed in `text`, or nil when it names fewer than two error properties or no code.
    package static func parse(_ text: Substring) -> PrintedErrorLogEvent? {
        guard isPrinted(text) else { return nil }
        let values = keyValues(text)
        guard let status = values["errorstatuscode"], let code = Int(status.prefix(12)) else { return nil }
        let event = PrintedErrorLogEvent(
            error: ErrorInfo(domain: values["errordomain"], code: code, description: values["errorcomment"]),
            uri: values["uri"].flatMap { $0.contains("://") || $0.hasPrefix("/") ? $0 : nil },
            date: values["date"].map { String($0.prefix(40)) }, sessionID: values["playbacksessionid"])
        return event
    }

    /// Each property's value: the text after its name and separator, up to the next property's
    /// name (so a comment may hold commas), trimmed of quotes and separators. `Optional(…)` — Swift's
    /// print of an optional — is unwrapped; `nil` and `(null)` are no value.
    static func keyValues(_ text: Substring) -> [String: String] {
        // ASCII letters only, so that offsets in `lower` are offsets in `text`.
        let lower = String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        var found: [(key: String, start: String.Index, valueStart: String.Index)] = []
        for key in keys {
            var search = lower.startIndex
            while let r = lower.range(of: key, range: search..<lower.endIndex) {
                search = r.upperBound
                // A whole name: no letter before it, a separator after it.
                if r.lowerBound > lower.startIndex, lower[lower.index(before: r.lowerBound)].isLetter { continue }
                var v = r.upperBound
                while v < lower.endIndex, lower[v] == " " || lower[v] == "\"" { v = lower.index(after: v) }
                guard v < lower.endIndex, lower[v] == ":" || lower[v] == "=" else { continue }
                found.append((key, r.lowerBound, lower.index(after: v)))
                break
            }
        }
        found.sort { $0.start < $1.start }
        var out: [String: String] = [:]
        for (i, f) in found.enumerated() {
            let end = i + 1 < found.count ? found[i + 1].start : lower.endIndex
            let startOffset = lower.utf8.distance(from: lower.startIndex, to: f.valueStart)
            let endOffset = lower.utf8.distance(from: lower.startIndex, to: end)
            let utf8 = text.utf8
            guard let s = utf8.index(utf8.startIndex, offsetBy: startOffset, limitedBy: utf8.endIndex),
                let e = utf8.index(utf8.startIndex, offsetBy: endOffset, limitedBy: utf8.endIndex), s <= e
            else { continue }
            var value = Substring(text[s..<e]).trimmingCharacters(in: " \t\n\r,;|\"'{}")
            if value.hasPrefix("Optional("), value.hasSuffix(")") {
                value = String(value.dropFirst(9).dropLast()).trimmingCharacters(in: " \"")
            }
            if value.isEmpty || value == "nil" || value == "(null)" || value == "-" { continue }
            out[f.key] = String(value.prefix(2000))
        }
        return out
    }
}
