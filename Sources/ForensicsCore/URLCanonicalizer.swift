import Foundation

/// Puts URLs seen by different sources into one comparable form.
///
/// The KTVHTTPCache proxy hides the origin URL inside the local URL the player requests
/// (`http://localhost:PORT/<percent-encoded origin>/KTVHTTPCachePlaceHolder/…` in 3.x,
/// `…?url=<encoded>` or `…&originalURL=<encoded>` before): those are decoded to the origin URL,
/// so a segment requested through the proxy matches the same segment in a HAR capture.
package enum URLCanonicalizer {
    package static func canonical(_ url: String) -> String {
        // Byte prefix tests: this runs for every request of every source, and `hasPrefix` on
        // `String` compares Characters.
        let bytes = url.utf8
        guard
            bytes.starts(with: "http://localhost".utf8) || bytes.starts(with: "http://127.0.0.1".utf8)
                || bytes.first == UInt8(ascii: "/")
        else {
            return url
        }
        if let marker = url.range(of: "/KTVHTTPCachePlaceHolder/") {
            var path = url[..<marker.lowerBound]
            if let scheme = path.range(of: "://") {
                let afterHost = path[scheme.upperBound...].firstIndex(of: "/") ?? path.endIndex
                path = path[afterHost...]
            }
            let encoded = path.drop(while: { $0 == "/" })
            if let decoded = encoded.removingPercentEncoding, decoded.contains("://") { return decoded }
        }
        if let q = url.firstIndex(of: "?") {
            for pair in url[url.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, kv[0] == "url" || kv[0] == "originalURL" else { continue }
                if let decoded = kv[1].removingPercentEncoding, decoded.contains("://") { return decoded }
            }
        }
        return url
    }

    /// The URL without its query and fragment, for matching requests whose tokens differ.
    package static func withoutQuery(_ url: String) -> String {
        let c = canonical(url)
        // `?` and `#` are ASCII, so a UTF-8 index of one is a valid place to cut the string.
        if let q = c.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return String(c[..<q])
        }
        return c
    }

    /// The path of a URL, without scheme, host, query and fragment, percent-decoded once (a
    /// path as a server logs it): what a client's request and a server's row are joined on.
    /// A path that does not decode is kept as written.
    package static func path(_ url: String) -> String {
        var rest = Substring(withoutQuery(url))
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        }
        if rest.isEmpty { return "/" }
        return String(rest).percentDecoded ?? String(rest)
    }

    /// The host part of a URL (`cdn.example.com`), or nil.
    package static func host(_ url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let hostPort = rest.prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" })
        let noUser = hostPort.split(separator: "@").last ?? hostPort
        if noUser.hasPrefix("[") { return String(noUser.prefix(while: { $0 != "]" })) + "]" }
        return String(noUser.split(separator: ":").first ?? noUser)
    }
}
