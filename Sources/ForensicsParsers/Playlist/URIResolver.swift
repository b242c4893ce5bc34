import Foundation

/// Resolves playlist URIs against the playlist's own URL (RFC 3986 §5.2).
///
/// A playlist resolves every segment URI against the same base, so the base is taken apart once.
/// Why not Foundation for every URI: `URL(string:relativeTo:)` costs microseconds, and a 24-hour
/// playlist captured in a HAR has tens of thousands of segments. References of the shape nearly
/// every playlist uses — a relative path (`seg_001.m4s`, `v20/s74.m4s?token=…`) or an absolute
/// path (`/live/s74.m4s`) made of plain URL characters, against an http(s) base without dot
/// segments — are merged directly, which RFC 3986 §5.2.2–5.2.3 defines as a string operation.
/// Everything else (dot segments, `//host`, fragments, unusual characters) goes to Foundation, so
/// the results are the same as before; a test compares both paths.
struct URIResolver: Sendable {
    let base: String?
    /// `scheme://authority/dir/`: what a relative path is appended to.
    private let directory: String?
    /// `scheme://authority`: what an absolute path is appended to.
    private let origin: String?
    private let baseURL: URL?

    init(base: String?) {
        self.base = base
        guard let base, !base.isEmpty else {
            (directory, origin, baseURL) = (nil, nil, nil)
            return
        }
        baseURL = URL(string: base)
        if let parts = Self.split(base) {
            (directory, origin) = (parts.directory, parts.origin)
        } else {
            (directory, origin) = (nil, nil)
        }
    }

    func resolve(_ uri: String) -> String {
        guard let base, !base.isEmpty else { return uri }
        if Self.hasScheme(uri) { return uri }
        if let directory, let origin, Self.isPlainReference(uri) {
            return uri.utf8.first == UInt8(ascii: "/") ? origin + uri : directory + uri
        }
        if let baseURL, let resolved = URL(string: uri, relativeTo: baseURL) {
            return resolved.absoluteString
        }
        return uri
    }

    /// The Foundation path alone (what `resolve` must agree with).
    static func resolveWithFoundation(_ uri: String, against base: String) -> String {
        if hasScheme(uri) { return uri }
        if let baseURL = URL(string: base), let resolved = URL(string: uri, relativeTo: baseURL) {
            return resolved.absoluteString
        }
        return uri
    }

    static func hasScheme(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        let scheme = uri[..<colon]
        guard let first = scheme.first, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// `http(s)://host[:port]/path…` with a plain host and a path free of dot segments and
    /// unusual characters, split into its origin and directory; nil when the fast path must not
    /// be used for this base.
    private static func split(_ base: String) -> (origin: String, directory: String)? {
        let bytes = Array(base.utf8)
        let schemeEnd: Int
        if bytes.starts(with: Array("https://".utf8)) {
            schemeEnd = 8
        } else if bytes.starts(with: Array("http://".utf8)) {
            schemeEnd = 7
        } else {
            return nil
        }
        var i = schemeEnd
        while i < bytes.count, bytes[i] != UInt8(ascii: "/") {
            guard isHostByte(bytes[i]) else { return nil }
            i += 1
        }
        guard i > schemeEnd, i < bytes.count else { return nil }
        let pathStart = i
        var pathEnd = i
        while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "?") {
            guard bytes[pathEnd] != UInt8(ascii: "#"), isPathByte(bytes[pathEnd]) else { return nil }
            pathEnd += 1
        }
        for b in bytes[pathEnd...] {
            guard b != UInt8(ascii: "#"), isPathByte(b) || b == UInt8(ascii: "?") else { return nil }
        }
        let path = bytes[pathStart..<pathEnd]
        guard !hasDotSegment(path) else { return nil }
        guard let lastSlash = path.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let origin = String(decoding: bytes[..<pathStart], as: UTF8.self)
        let directory = String(decoding: bytes[...lastSlash], as: UTF8.self)
        return (origin, directory)
    }

    /// A relative or absolute path reference, optionally with a query, of plain characters and
    /// valid percent escapes, with no dot segments, no `//` authority and no fragment.
    static func isPlainReference(_ uri: String) -> Bool {
        var uri = uri  // withUTF8 needs a var; a native string is not copied
        return uri.withUTF8 { isPlainReference(bytes: $0) }
    }

    private static func isPlainReference(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first != UInt8(ascii: "?") else { return false }
        if bytes.count >= 2, first == UInt8(ascii: "/"), bytes[1] == UInt8(ascii: "/") { return false }
        var pathEnd = bytes.count
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "?"), pathEnd == bytes.count {
                pathEnd = i
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else { return false }
                i += 2
            } else if !isPathByte(b) {
                return false
            }
            i += 1
        }
        return !hasDotSegment(bytes[0..<pathEnd])
    }

    private static func hasDotSegment<C: Collection>(_ path: C) -> Bool where C.Element == UInt8 {
        var segmentLength = 0
        var dots = 0
        for b in path {
            if b == UInt8(ascii: "/") {
                if segmentLength > 0, segmentLength == dots, dots <= 2 { return true }
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if b == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return segmentLength > 0 && segmentLength == dots && dots <= 2
    }

    /// Unreserved characters and the sub-delimiters and `@` that RFC 3986 allows in a path
    /// (`:` is left out: in a first segment it would read as a scheme).
    private static func isPathByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    private static func isHostByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
            UInt8(ascii: "."), UInt8(ascii: ":"):
            true
        default:
            false
        }
    }

    private static func isHex(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default:
            false
        }
    }
}
