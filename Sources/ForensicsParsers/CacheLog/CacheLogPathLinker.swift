import ForensicsCore

/// Rebuilds the full path of each player request through the proxy from object pointers.
///
/// A connection's `Accept request` opens a path; the next `Create data request` (the player's
/// request, with its `X-Playback-Session-Id` header) joins it; after that any entry whose own
/// pointer or a referenced pointer (`<KTVHCDataRequest: 0x…>`) is already on a path joins that
/// path, and registers its own pointers. Pointers are scoped by `alloc` … `dealloc`: a pointer
/// that is deallocated (and possibly reused) leaves its path. Entries that name no known pointer
/// (the network source's fresh data request, download callbacks) join the most recent path, as
/// the library logs one request's chain synchronously. The path's session id and origin URL are
/// then given to all its entries, which is how proxy records find their playback session.
enum CacheLogPathLinker {
    static func link(_ records: inout [Record]) {
        var live: [String: Int] = [:]
        var sessionOfPath: [Int: String] = [:]
        var urlOfPath: [Int: String] = [:]
        var nextPath = 0
        var current: Int?
        var awaitingDataRequest: Int?
        for i in records.indices {
            guard case .proxy(var e) = records[i].payload else { continue }
            if e.kind == .alloc || e.kind == .dealloc {
                if let p = e.pointer { live[p] = nil }
                continue
            }
            if e.kind == .foreign || e.kind == .appMarker || e.tag.hasPrefix("KTVHCHTTPServer") { continue }
            var path: Int?
            if e.kind == .acceptRequest {
                nextPath += 1
                path = nextPath
                awaitingDataRequest = path
                if let url = e.url { urlOfPath[nextPath] = url }
            } else if e.kind == .dataRequest, let waiting = awaitingDataRequest {
                path = waiting
                awaitingDataRequest = nil
            } else if let p = e.pointer, let known = live[p] {
                path = known
            } else if let known = e.references.lazy.compactMap({ live[$0] }).first {
                path = known
            } else {
                path = current
            }
            guard let path else { continue }
            current = path
            if let p = e.pointer { live[p] = path }
            for r in e.references where live[r] == nil { live[r] = path }
            if let session = e.playbackSessionID, sessionOfPath[path] == nil { sessionOfPath[path] = session }
            e.requestPath = path
            records[i].payload = .proxy(e)
        }
        for i in records.indices {
            guard case .proxy(var e) = records[i].payload, let path = e.requestPath else { continue }
            e.requestURL = urlOfPath[path]
            if records[i].sessionID == nil, let session = sessionOfPath[path] {
                records[i].sessionID = session
                e.playbackSessionID = session
            }
            records[i].payload = .proxy(e)
        }
    }
}
