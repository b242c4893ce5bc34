import ForensicsCore

/// A server log format declared as data (the way lnav declares formats): how its rows are laid
/// out, which of its fields fill which part of the vendor-neutral `ServerRequest`, in what unit,
/// what a row's time means, and which fields must be present before a file is taken for it.
///
/// A vendor is one such declaration; `ServerLogFormat` reads every one of them. Fields are
/// applied in the order declared, and the first one with a value sets a part of the row, so a
/// vendor lists its preferred field first (CloudFront's response result type before its result
/// type).
package struct ServerLogDeclaration: Sendable {
    /// How a file's rows are laid out.
    package enum Layout: Sendable {
        /// W3C extended log: `#Fields:` names the columns, rows are split at `separator` (a row
        /// without one is split at spaces, the W3C default). `#Fields:` may come again mid-file
        /// (hourly files concatenated): the newest one applies.
        case w3c(separator: UInt8)
        /// One JSON object per line; a field name is a key, `a.b` a key inside an object.
        case jsonLines
        /// The NCSA combined log format nginx and Apache write by default: `$remote_addr -
        /// $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer"
        /// "$http_user_agent"`, fields named by nginx's variable names; anything after them is
        /// not read.
        case combined
        /// Lines laid out by an operator's template (nginx `log_format`, Apache `LogFormat`): a
        /// field name is the template's name for it.
        case template(LogFormatTemplate)
        /// Rows split at `separator` into the named columns, with no header line (CloudFront
        /// real-time logs: the configuration's fields, in order).
        case delimited(separator: UInt8, columns: [String])
    }

    /// A unit for a duration field.
    package enum Unit: Sendable {
        case seconds, milliseconds, microseconds, nanoseconds

        var seconds: Double {
            switch self {
            case .seconds: 1
            case .milliseconds: 1e-3
            case .microseconds: 1e-6
            case .nanoseconds: 1e-9
            }
        }
    }

    /// What a field is.
    package enum Field: Sendable {
        /// A W3C `date` column (UTC); with `time`, the row's anchor time.
        case date
        /// A W3C `time` column (UTC).
        case time
        /// The row's anchor time, whole: RFC 3339, or seconds, milliseconds or nanoseconds since
        /// 1970 (told apart by magnitude; numbers written as strings too).
        case timestamp
        /// The request's start, or its end, when the log writes both.
        case start, end
        /// Accepting the request to its last byte sent.
        case duration(Unit)
        /// A part of that whole, summed with the other parts when no field gives the whole
        /// (Akamai's turnaround and transfer times).
        case durationPart(Unit)
        /// Accepting the request to its first byte sent.
        case firstByte(Unit)
        /// The origin's time to its first byte.
        case originFirstByte(Unit)
        case method, host
        /// The path, percent-encoded as logged (decoded once).
        case path
        /// The query, without `?`.
        case query
        /// Path and query together (`/a/b.ts?x=1`).
        case pathAndQuery
        /// An HTTP request line (`GET /a/b.ts?x=1 HTTP/1.1`): method, path and query.
        case requestLine
        /// A common-log-format time (`21/Nov/2026:10:00:00 +0100`): the row's anchor time.
        case commonLogTime
        /// A whole URL (`https://host/a/b.ts?x=1`): host, path and query.
        case url
        case status, originStatus, bytes, clientIP, userAgent, pop, requestID
        /// The vendor's cache result (normalised; the vendor's words kept).
        case cacheResult
        /// CloudFront's `x-edge-result-type`: how the request ended, beside how the response
        /// began (`x-edge-response-result-type`). `Error` after a `Hit` or `Miss` response is
        /// the client closing the connection, not a CDN fault (AWS's field list).
        case edgeResult
        case detail
        case rangeStart, rangeEnd
        /// An HTTP `Range` header value (`bytes=0-99`).
        case rangeHeader
        /// The `X-Playback-Session-Id` request header's value.
        case sessionHeader
        /// A CMCD payload (`br=3200,sid="…"`), as a vendor column or header.
        case cmcd
        /// One CMCD key's value in a column of its own (CloudFront real-time `cmcd-session-id`).
        case cmcdKey(String)
        /// Request headers as URL-encoded `name:value` lines (CloudFront real-time `cs-headers`).
        case encodedHeaders
        /// Request headers, as a JSON object or `name: value` text: the session header and
        /// `CMCD-*` are read from them.
        case requestHeaders
        /// A tier name (`edge`, `shield`, `origin`).
        case tier
        /// URL-encoded text (CloudFront's `cs(User-Agent)`) for `userAgent`.
        case encodedUserAgent
        /// Personal data the tool does not read (cookies, forwarded-for addresses): kept only so
        /// that redaction removes it from the quoted raw line.
        case personal
    }

    package var format: InputFormat
    package var displayName: String
    package var summary: String
    package var layout: Layout
    /// Field name in the log → what it is, in the order applied.
    package var fields: [(name: String, field: Field)]
    /// What the row's time means.
    package var anchor: SourceSemantics.Anchor
    /// Seconds: the smallest step of the log's times.
    package var resolution: Double
    /// The response header the client sees the request id in (`x-amz-cf-id`).
    package var requestIDHeader: String?
    /// Field names that must all be present (in `#Fields:`, or as keys of the first JSON line)
    /// before a file is read as this format: positive evidence, never a guess.
    package var evidence: [String]
    package var samples: [FormatDeclaration.Sample]
    package var capabilities: SourceSemantics.Capabilities

    package init(
        format: InputFormat, displayName: String, summary: String, layout: Layout,
        fields: [(name: String, field: Field)], anchor: SourceSemantics.Anchor, resolution: Double,
        requestIDHeader: String? = nil, evidence: [String], samples: [FormatDeclaration.Sample] = [],
        capabilities: SourceSemantics.Capabilities = [.failures, .requestTimings, .cacheResult, .serverTimings]
    ) {
        self.format = format
        self.displayName = displayName
        self.summary = summary
        self.layout = layout
        self.fields = fields
        self.anchor = anchor
        self.resolution = resolution
        self.requestIDHeader = requestIDHeader
        self.evidence = evidence
        self.samples = samples
        self.capabilities = capabilities
    }

    /// What every server log is: the server's clock, never a session's, and never the primary
    /// view of a request (the client's is).
    package var semantics: SourceSemantics {
        SourceSemantics(
            role: .server, clock: .serverUTC, anchor: anchor, resolution: resolution, clockPrecedence: nil,
            viewPrecedence: 100, capabilities: capabilities)
    }
}

/// A vendor: one declaration (`vendor`). The field-map reader (`ServerLogFormat.swift`) makes it a
/// `FormatReader`, and the vendor is added by one line in `FormatRegistry.standard`.
package protocol ServerLogVendor: FormatReader {
    static var vendor: ServerLogDeclaration { get }
}

extension ServerLogDeclaration.Field {
    var isPersonal: Bool {
        if case .personal = self { return true }
        return false
    }
}
