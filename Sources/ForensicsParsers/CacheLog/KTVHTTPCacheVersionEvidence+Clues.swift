import ForensicsCore

/// The clues one log entry gives about the library version (reference §6, checked against the
/// format strings at every tag).
extension KTVHTTPCacheVersionEvidence {
    private typealias R = KTVHTTPCacheRelease
    private static let v1_0: Set<R> = [.v1_0_0, .v1_0_3]
    private static let v1: Set<R> = [.v1_0_0, .v1_0_3, .v1_1]
    private static let since1_1: Set<R> = [.v1_1, .v2, .v3]
    private static let since2: Set<R> = [.v2, .v3]
    private static let before3: Set<R> = [.v1_0_0, .v1_0_3, .v1_1, .v2]
    private static let contentTypeCode: Set<R> = [.v1_0_3, .v1_1, .v2]

    /// Server templates of one release line only.
    private static let serverTemplates: [(prefix: String, releases: Set<R>)] = [
        ("Ping result :", [.v1_1]), ("Ping\n", [.v1_1]), ("Restart server success", [.v1_1]),
        ("Restart server failed", [.v1_1]), ("Start server failed :", [.v1_1]), ("Stop server", [.v1_1]),
        ("Restart connection count", [.v1_1]),
        ("enter background", [.v2]), ("enter foreground", [.v2]), ("server idle", [.v2]),
        ("connection did die", [.v2]), ("begin background task", [.v2]), ("end background task", [.v2]),
        ("background task expiration", [.v2]),
        ("ping server", [.v3]), ("restart server error", [.v3]), ("Return original URL", [.v3]),
    ]

    /// Narrows the candidates by what one classified entry shows.
    mutating func observe(_ e: ProxyEvent, hadPointer: Bool, fullText full: String) {
        let tag = e.tag
        switch tag {
        case "KTVHCDataSourcer", "KTVHCHTTPResponsePing", "KTVHCCommon":
            narrow(to: Self.v1_0, because: "\(tag) entries")
        case "KTVHCHTTPURL", "KTVHCHTTPRequest", "KTVHCDataSourceQueue":
            narrow(to: Self.v1, because: "\(tag) entries")
        case "KTVHCHTTPPingResponse":
            narrow(to: [.v1_1], because: "\(tag) entries")
        case "KTVHCDataSourceManager", "KTVHCDataLoader":
            narrow(to: Self.since1_1, because: "\(tag) entries")
        case "KTVHCMacro":
            narrow(to: Self.since2, because: "KTVHCMacro entries")
        case "KTVHCHTTPHLSResponse", "KTVHCDataHLSLoader":
            narrow(to: [.v3], because: "\(tag) entries")
        default:
            break
        }
        let moduleEntry = tag.hasPrefix("KTVHC") && e.kind != .alloc && e.kind != .dealloc && e.kind != .appMarker
        if moduleEntry {
            if hadPointer {
                narrow(to: Self.since1_1, because: "messages start with the object's pointer")
            } else if tag != "KTVHCDataSourceManager", tag != "KTVHCDataStorage",
                let first = e.message.unicodeScalars.first,
                first.properties.isLowercase
            {
                narrow(to: Self.v1_0, because: "lowercase messages without a pointer")
            }
        }
        let message = e.message
        switch tag {
        case "KTVHCHTTPServer":
            for t in Self.serverTemplates where message.hasPrefix(t.prefix) {
                // `restart server error` (3.x) is not 2.x's bare `restart server`.
                narrow(to: t.releases, because: "the server logs “\(t.prefix.trimmingCharacters(in: "\n"))”")
            }
            if message == "restart server" { narrow(to: [.v2], because: "the server logs “restart server”") }
        case "KTVHCHTTPConnection":
            if message.hasPrefix("Accept request") || message.hasPrefix("Receive redirect request") {
                narrow(to: [.v3], because: "connections log “Accept request”")
            }
        case "KTVHCHTTPResponse":
            if message.hasPrefix("Content length :") { narrow(to: [.v3], because: "responses log “Content length”") }
            if message.hasPrefix("Conetnt length") {
                narrow(to: Self.before3, because: "responses log “Conetnt length”")
            }
        case "KTVHCDataResponse":
            if full.fastContains("headersWithoutRangeAndLength :") {
                narrow(to: [.v1_1], because: "data responses log headersWithoutRangeAndLength")
            }
        case "KTVHCDataUnit":
            if message.hasPrefix("Update requestHeaders") || full.fastContains("\nrequestHeaders : ") {
                narrow(to: [.v1_1], because: "units log requestHeaders")
            }
            if message.hasPrefix("Get unitItems") { narrow(to: Self.since2, because: "units log “Get unitItems”") }
        case "KTVHCDataSourceManager":
            if message.hasPrefix("Put source :") {
                narrow(to: [.v1_1], because: "the source manager logs “Put source”")
            }
            if message.hasPrefix("Sort sources") {
                narrow(to: Self.since2, because: "the source manager logs “Sort sources”")
            }
        case "KTVHCDownload":
            if full.fastContains("HTTPResponse : <NSHTTPURLResponse") {
                narrow(to: [.v3], because: "downloads log the whole NSHTTPURLResponse")
            } else if full.fastContains("\nHTTPResponse : {") {
                narrow(to: Self.before3, because: "downloads log only the response headers")
            }
        default:
            break
        }
        observeURLsAndErrors(full)
    }

    /// Proxy URL shapes and error objects, wherever they appear (also in orphan dumps).
    mutating func observeURLsAndErrors(_ full: String) {
        if full.fastContains("KTVHTTPCachePlaceHolder") || full.fastContains("KTVHTTPCachePing") {
            narrow(to: [.v3], because: "proxy URLs with KTVHTTPCachePlaceHolder")
        } else if full.fastContains("requestType=") {
            narrow(to: [.v1_1], because: "proxy URLs with requestType=")
        } else if full.fastContains("localhost:"), full.fastContains("/request"), full.fastContains("?url=") {
            narrow(to: [.v1_0_0, .v1_0_3, .v2], because: "proxy URLs of the form /request?url=")
        }
        guard full.fastContains("Error Domain=") else { return }
        if full.fastContains("Error Domain=KTVHCErrorDomain") {
            narrow(to: Self.v1_0, because: "per-error domains (KTVHCErrorDomain…)")
            if full.fastContains("KTVHCErrorDomainUnsupportTheContent") {
                narrow(to: [.v1_0_3], because: "the KTVHCErrorDomainUnsupportTheContent domain")
            }
        }
        guard full.fastContains("Error Domain=KTVHTTPCache error") else { return }
        narrow(to: Self.since1_1, because: "the “KTVHTTPCache error” domain")
        let hasResponse = full.fastContains("KTVHCErrorUserInfoKeyResponse")
        let hasSpace = full.fastContains("maxCacheLength")
        if full.fastContains("Code=-192701 ") {
            if hasResponse {
                narrow(
                    to: Self.contentTypeCode,
                    because: "error -192701 carries the origin's response (a Content-Type rejection, not disk space)")
            } else if hasSpace {
                narrow(to: [.v1_0_0, .v3], because: "error -192701 carries cache sizes (disk space)")
            }
        }
        if full.fastContains("Code=-192702 ") {
            if hasSpace { narrow(to: Self.contentTypeCode, because: "error -192702 carries cache sizes (disk space)") }
            if hasResponse { narrow(to: [.v3], because: "error -192702 carries a response (not HTTP)") }
        }
        if full.fastContains("Code=-192703 "), hasResponse {
            narrow(to: [.v3], because: "error -192703 carries the origin's response (a status error)")
        }
        if full.fastContains("Code=-192700 "), hasResponse {
            narrow(to: Self.before3, because: "error -192700 carries the origin's response (response unavailable)")
        }
        if full.fastContains("Code=-192704 ") || full.fastContains("Code=-192705 ") {
            narrow(to: [.v3], because: "error codes -192704/-192705")
        }
    }
}
