import Foundation
import ForensicsCore

/// Rebuilds the full path of each player request through the proxy from object pointers.
///
/// A connection's `Receive request` (every version; not the health ping) opens a path, and 3.x's
/// `Accept request` right after it names its origin URL (older versions name it in the proxy
/// URL's `url=` / `originalURL=` parameter, or in the data request); the next `Create data request` (the player's
/// request, with its `X-Playback-Session-Id` header) joins it; after that any entry whose own
/// pointer or a referenced pointer (`<KTVHCDataRequest: 0x…>`) is already on a path joins that
/// path, and registers its own pointers. Pointers are scoped by `alloc` … `dealloc`: a pointer
/// that is deallocated (and possibly reused) leaves its path. Entries that name no known pointer
/// (the network source's fresh data request, download callbacks) join the most recent path, as
/// the library logs one request's chain synchronously. The path's session id and origin URL are
/// then given to all its entries, which is how proxy records find their playback session.
///
/// It runs as entries are read (`link(_:)` on each event, in log order, before any is folded by
/// `CacheLogChatterFold`), so a path is decided by every entry exactly as logged; `finish(_:)`
/// then gives each path's session and URL to the records, known only once the path is complete.
struct CacheLogPathLinker {
    private var live: [String: Int] = [:]
    private var sessionOfPath: [Int: String] = [:]
    private var urlOfPath: [Int: String] = [:]
    private var nextPath = 0
    private var current: Int?
    private var awaitingDataRequest: Int?
    private var awaitingAccept: Int?

    /// Puts the event on its request path (`requestPath`), if it belongs to one.
    mutating func link(_ e: inout ProxyEvent) {
        if e.kind == .alloc || e.kind == .dealloc {
            if let p = e.pointer { live[p] = nil }
            return
        }
        if e.kind == .appMarker || e.kind == .errorDump || e.tag.hasPrefix("KTVHCHTTPServer") { return }
        var path: Int?
        if e.kind == .connectionRequest {
            guard !Self.isPing(e.url) else { return }
            nextPath += 1
            path = nextPath
            awaitingDataRequest = path
            awaitingAccept = path
            if let url = e.url.flatMap(Self.originalURL(inProxyPath:)) { urlOfPath[nextPath] = url }
        } else if e.kind == .acceptRequest {
            if let waiting = awaitingAccept {
                path = waiting
            } else {
                nextPath += 1
                path = nextPath
                awaitingDataRequest = path
            }
            awaitingAccept = nil
            if let p = path, let url = e.url { urlOfPath[p] = url }
        } else if e.kind == .dataRequest, let waiting = awaitingDataRequest {
            path = waiting
            awaitingDataRequest = nil
            awaitingAccept = nil
            if urlOfPath[waiting] == nil, let url = e.url { urlOfPath[waiting] = url }
        } else if let p = e.pointer, let known = live[p] {
            path = known
        } else if let known = Self.firstLive(e.references, in: live) {
            path = known
        } else {
            path = current
        }
        guard let path else { return }
        current = path
        // Shared objects (the download singleton, a URL's cache unit) belong to no one request.
        if let p = e.pointer, !Self.sharedTags.contains(e.tag) { live[p] = path }
        for r in e.references where live[r] == nil { live[r] = path }
        if let session = e.playbackSessionID, sessionOfPath[path] == nil { sessionOfPath[path] = session }
        e.requestPath = path
    }

    /// What `link(_:)` does with a progress chunk (`CacheLogChattyClassifier.Chunk`: a pointer, no
    /// reference, no session, none of the kinds that open or end a path), without its event:
    /// the chunk's request path, the linker moved on as `link(_:)` moves it.
    mutating func linkChunk(pointer: String, sharedObject: Bool) -> Int? {
        let known = live[pointer]
        guard let path = known ?? current else { return nil }
        current = path
        if !sharedObject, known != path { live[pointer] = path }
        return path
    }

    static func firstLive(_ references: [String], in live: [String: Int]) -> Int? {
        for r in references { if let path = live[r] { return path } }
        return nil
    }

    /// Gives every record on a path the path's origin URL and playback session.
    func finish(_ records: inout [Record]) {
        // Paths are numbered from 1: none was opened, so no entry has one.
        guard nextPath > 0 else { return }
        for i in records.indices {
            guard case .proxy(var e) = records[i].payload, let path = e.requestPath else { continue }
            e.requestURL = urlOfPath[path]
            if records[i].sessionID == nil, let session = sessionOfPath[path] {
                records[i].sessionID = session
                e.playbackSessionID = session
            }
            // One re-boxing per linked record, here: the path was set before the record was made.
            records[i].payload = .proxy(e)
        }
    }

    /// Modules whose object serves every request: their pointer names no request path.
    static let sharedTags: Set<String> = [
        "KTVHCDownload", "KTVHCDataUnit", "KTVHCDataUnitPool", "KTVHCDataUnitQueue", "KTVHCDataStorage",
        "KTVHCDataUnitItem",
    ]

    /// The health ping (`requestType=ping`, `KTVHTTPCachePing`) is not a player request.
    static func isPing(_ path: String?) -> Bool {
        guard let path else { return false }
        return path.fastContains("requestType=ping") || path.fastContains("KTVHTTPCachePing")
    }

    /// The origin URL inside a proxy path: `/request.mp4?url=<enc>` (1.0.x, 2.x),
    /// `?requestType=content&originalURL=<enc>` (1.1.x), `/<enc>/KTVHTTPCachePlaceHolder/…` (3.x).
    static func originalURL(inProxyPath path: String) -> String? {
        for key in ["originalURL=", "url="] {
            guard let r = path.fastRange(of: key) else { continue }
            let value = path[r.upperBound...].prefix(while: { $0 != "&" })
            if let decoded = String(value).removingPercentEncoding, decoded.hasPrefix("http") { return decoded }
        }
        if let r = path.fastRange(of: "/KTVHTTPCachePlaceHolder") {
            let encoded = path[..<r.lowerBound].drop(while: { $0 == "/" })
            if let decoded = String(encoded).removingPercentEncoding, decoded.hasPrefix("http") { return decoded }
        }
        return nil
    }
}
