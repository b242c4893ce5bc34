import Foundation

/// Resolves playlist URIs against the playlist's own URL (RFC 3986 §5.2).
enum URIResolver {
    static func resolve(_ uri: String, against base: String?) -> String {
        guard let base, !base.isEmpty else { return uri }
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
}
