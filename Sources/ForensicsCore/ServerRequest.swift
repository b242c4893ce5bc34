/// One request as a server saw it (a CDN edge, a shield, an origin): the vendor-neutral row every
/// server log's reader fills, whatever the vendor calls its fields (`../shared/spec/cdn-logs.md`).
///
/// Times are the server's, in UTC. A log that writes only the end of a response (CloudFront,
/// nginx) gets its start rebuilt from the logged duration, and the other way round; where there
/// is no duration, `start` and `end` are the same instant and `anchorKnown` says which it is not.
public struct ServerRequest: Sendable, Hashable {
    /// Where in the delivery chain the row was written.
    public enum Tier: String, Sendable, Hashable {
        case edge, shield, origin, unknown
    }

    /// A vendor's cache result, normalised; the vendor's own words stay in `cacheResultRaw`.
    public enum CacheResult: String, Sendable, Hashable {
        case hit, miss, refresh, stale, bypass, error, unknown
    }

    public var tier: Tier = .edge
    public var start: Timestamp?
    public var end: Timestamp?
    /// False when the row has one time and no duration: `start == end`, and which of the two it
    /// really is, is not known to better than the declared anchor.
    public var anchorKnown = true
    /// The smallest step of the row's times, seconds.
    public var resolution: Double = 1
    public var method: String?
    public var host: String?
    /// The path as requested, percent-decoded once.
    public var path: String
    /// The query as logged (raw), without the leading `?`.
    public var query: String?
    public var byteRange: ByteRange?
    /// Whether the log can say a request's range at all (CloudFront can; Cloudflare cannot log
    /// `Range`): where it cannot, no range is not "the whole file", and the join ignores ranges.
    public var rangeLogged = true
    /// The HTTP status; nil where the row has none, or CloudFront's `000`.
    public var status: Int?
    /// The row says the client closed the connection before the response ended: CloudFront's
    /// status `000`, nginx's `499`. (A row that merely lacks a status says nothing of the kind.)
    public var clientClosed = false
    public var bytes: Int64?
    public var clientIP: String?
    /// Other personal values the row carries (cookies, forwarded-for addresses): never parsed
    /// into the request, but removed from `raw` with redaction on, like the client's address.
    public var personal: [String] = []
    public var userAgent: String?
    /// The POP or edge that answered (`x-edge-location`, `EdgeColoCode`).
    public var pop: String?
    /// The CDN's own id of the request, the one its support asks for (`x-edge-request-id`).
    public var requestID: String?
    /// The response header a client sees the request id in (`x-amz-cf-id`, `cf-ray`), as the
    /// vendor's declaration names it.
    public var requestIDHeader: String?
    public var cacheResult: CacheResult = .unknown
    public var cacheResultRaw: String?
    /// Seconds from accepting the request to the first byte sent, as the server measured.
    public var firstByte: Double?
    /// Seconds from accepting the request to the last byte sent.
    public var lastByte: Double?
    /// Seconds the origin took to its first byte, when the row had an origin hop.
    public var originFirstByte: Double?
    /// The origin's status, when logged apart from the edge's.
    public var originStatus: Int?
    /// The vendor's detail (`OriginDnsError`, an error code).
    public var detail: String?
    /// CMCD keys the request carried, by key (`sid`, `bl`, `br`, `ot`…), values as logged.
    public var cmcd: [String: String] = [:]
    /// The playback session the request names: `X-Playback-Session-Id`, else CMCD `sid`.
    public var sessionHeader: String?
    /// The whole row, as it is in the file (redacted like every record), for the evidence a CDN
    /// partner asks for.
    public var raw: String

    public init(path: String, raw: String) {
        self.path = path
        self.raw = raw
    }

    /// Whether the client closed the connection before the response ended (CloudFront `000`, a
    /// client communication error): the client's doing, never counted as a server fault.
    public var clientAborted: Bool {
        if clientClosed || status == 499 { return true }
        guard let d = detail?.lowercased() else { return false }
        return d == "clientcommerror" || d == "clienthungup"
    }
}
