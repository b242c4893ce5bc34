/// One entry of the KTVHTTPCache local proxy's full-path log, typed by what it means.
public struct ProxyEvent: Hashable, Sendable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case serverStart = "server-start"
        case serverStartFailed = "server-start-failed"
        case serverStop = "server-stop"
        case serverPing = "server-ping"
        case serverRestart = "server-restart"
        case serverRestartFailed = "server-restart-failed"
        /// The server's health ping failed (1.x): the app restarts it next.
        case serverPingFailed = "server-ping-failed"
        /// The app went to the background (2.x logs it; the server keeps running while connections are open).
        case appBackground = "app-background"
        /// The app came back to the foreground (2.x logs it; the server is restarted if it was stopped).
        case appForeground = "app-foreground"
        case proxyURL = "proxy-url"
        case connectionRequest = "connection-request"
        case acceptRequest = "accept-request"
        case dataRequest = "data-request"
        case dataResponse = "data-response"
        case httpResponse = "http-response"
        case responseContentLength = "response-content-length"
        case responseFailed = "response-failed"
        case connectionClosed = "connection-closed"
        case readerCreated = "reader-created"
        case readerFailed = "reader-failed"
        case cacheRead = "cache-read"
        case networkSource = "network-source"
        case networkFailed = "network-failed"
        /// Bytes the network source received from the origin so far (its running total is `contentLength`).
        case networkData = "network-data"
        /// The network source received its whole range.
        case networkComplete = "network-complete"
        case downloadRequest = "download-request"
        case downloadResponse = "download-response"
        case downloadData = "download-data"
        case downloadComplete = "download-complete"
        case downloadInvalidResponse = "download-invalid-response"
        case sourceManagerFailure = "source-manager-failure"
        case unitCreated = "unit-created"
        case unitMerged = "unit-merged"
        case unitDeleted = "unit-deleted"
        /// Merging a unit's cached pieces into one file failed (a file exception).
        case unitMergeFailed = "unit-merge-failed"
        /// A pasted error dump with no log line around it: the error, the response status and headers.
        case errorDump = "error-dump"
        case alloc
        case dealloc
        case appMarker = "app-marker"
        case generic
    }

    public var kind: Kind
    /// The module tag (`KTVHCDownload`), or the class name for alloc/dealloc.
    public var tag: String
    /// The object pointer the message is about (`0x283c94150`).
    public var pointer: String?
    /// Every object pointer referenced in the message (`<KTVHCDataRequest: 0x…>`).
    public var references: [String]
    public var url: String?
    public var range: ByteRange?
    public var status: Int?
    public var contentType: String?
    public var contentLength: Int64?
    public var headers: [String: String]
    public var error: ErrorInfo?
    /// The message text (first line), for display.
    public var message: String
    /// The session id from an `X-Playback-Session-Id` request header, when logged.
    public var playbackSessionID: String?
    /// Which player request this entry belongs to: entries of one request path through the proxy
    /// (connection, data request, response, reader, sources, downloads) share the number.
    public var requestPath: Int?
    /// The origin URL of the player request this entry belongs to.
    public var requestURL: String?
    /// How many later entries of the same progress run were folded into this one (0: none).
    /// A download logs one line per 16 KiB chunk; a run of them is kept as its first entry, which
    /// counts the middle ones (and, for `network-data` and `download-data`, carries their bytes:
    /// the largest running total, the sum of chunks), and its last entry, kept as it was.
    public var foldedEntries = 0
    /// The line of the last entry folded into this one.
    public var foldedThroughLine: Int?

    public init(kind: Kind, tag: String, message: String) {
        self.kind = kind
        self.tag = tag
        self.message = message
        self.references = []
        self.headers = [:]
    }
}

extension ProxyEvent {
    /// The download module logs every chunk twice (1.1.x–3.x): `Receive data - Begin` before it
    /// hands the chunk on and `Receive data - End` after. The End line is the same chunk again, so
    /// it must not be counted as more bytes received.
    public var isChunkEndEcho: Bool {
        guard kind == .downloadData else { return false }
        var bytes = message.utf8.makeIterator()
        for expected in "receive data - end".utf8 {
            guard let b = bytes.next(), (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) == expected else { return false }
        }
        return true
    }

    /// The proxy's request to the origin failed: an HTTP error status, a rejected response, or a
    /// network error other than a cancellation (-999).
    public var isOriginFailure: Bool {
        switch kind {
        case .downloadInvalidResponse: true
        case .networkFailed: error?.code != -999
        case .errorDump: error.map { $0.code != -999 } ?? ((status ?? 0) >= 400)
        case .downloadResponse: (status ?? 0) >= 400
        case .downloadComplete: error.map { $0.code != -999 } ?? false
        default: false
        }
    }
}
