import Foundation

/// An error as the sources report it: an NSError-like domain and code, a description, and the
/// HTTP status when the source states one (or when the description reads `HTTP 404: …`).
public struct ErrorInfo: Hashable, Sendable, Codable {
    public var domain: String?
    public var code: Int?
    public var description: String?
    public var httpStatus: Int?
    public var didRecover: Bool?

    public init(domain: String?, code: Int?, description: String?, httpStatus: Int? = nil, didRecover: Bool? = nil) {
        self.domain = domain
        self.code = code
        self.description = description
        self.didRecover = didRecover
        self.httpStatus = httpStatus ?? ErrorInfo.httpStatus(domain: domain, code: code, description: description)
    }

    /// The HTTP status behind a CoreMedia error: the description `HTTP 404: File Not Found`
    /// or the well-known codes (-12938 → 404, -12660 → 403, -12661 → 5xx unknown).
    /// AVPlayer's "Playlist File unchanged for longer than 1.5 * target duration" (CoreMedia
    /// -12888): a live playlist that stopped advancing. It is about the playlist, not a failed
    /// media request, and is the evidence of a `stale-live-playlist` stall (rules.md).
    public var isStaleLivePlaylist: Bool {
        if code == -12888 { return true }
        return description.map { $0.localizedCaseInsensitiveContains("playlist file unchanged") } ?? false
    }

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
