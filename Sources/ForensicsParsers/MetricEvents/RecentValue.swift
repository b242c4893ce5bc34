import ForensicsCore

/// The value last read for one field of a dump, kept with the bytes it was read from, so that the
/// next event spelling the same bytes gets the same value back instead of a new copy.
///
/// Why: a session's events repeat a few texts on every line — the session ID, the playlist URL,
/// the request headers — and each new `String` or dictionary is one more allocation held for as
/// long as the timeline is. Shared, they cost one reference each: on a 200 MB dump this is a large
/// part of `analyze`'s peak memory, and the value is not built again, which saves its decoding.
/// Only the last value is kept: a field that changes on every event costs one byte comparison
/// and one copy of its bytes into a buffer that has stopped growing.
struct RecentValue<Value> {
    private var key: [UInt8] = []
    private var value: Value?

    /// The value for `bytes`: the previous one when the bytes are the same, else `make()`'s.
    mutating func value(for bytes: UnsafeBufferPointer<UInt8>, make: () -> Value) -> Value {
        if let value, key.withUnsafeBufferPointer({ $0.hasSameBytes(as: bytes) }) {
            return value
        }
        let made = make()
        key.removeAll(keepingCapacity: true)
        key.append(contentsOf: bytes)
        value = made
        return made
    }
}

/// The fields of a dump whose values are shared from event to event (see `RecentValue`).
struct MetricRecentValues {
    var sessionID = RecentValue<String?>()
    var playlistURL = RecentValue<String?>()
    var serverAddress = RecentValue<String?>()
    var mediaType = RecentValue<String?>()
    var requestHeaders = RecentValue<[String: String]>()
    /// The response headers with the two values read from them (a case-insensitive search of
    /// the headers for every request was a twentieth of reading a dump).
    var responseHeaders = RecentValue<ResponseHeaders>()
    /// The requests' rarer fields, one box per run of equal values.
    var details = MediaRequest.DetailsSharing()
    /// Scratch for `JSONNode.members`: the members of the event and of its resource request, in
    /// storage kept from event to event (its nodes are read only within the event's mapping).
    var eventMembers: [JSONNode?] = []
    var resourceMembers: [JSONNode?] = []

    /// A plain string node's value through `recent` (escaped strings and other values are read
    /// as they are: they are rare, and their bytes are not their text).
    static func string(_ node: JSONNode?, _ recent: inout RecentValue<String?>) -> String? {
        guard let node else { return nil }
        guard let bytes = node.plainStringBytes else { return node.string }
        return recent.value(for: bytes) { node.string }
    }

    struct ResponseHeaders {
        var headers: [String: String] = [:]
        var contentType: String?
        var contentEncoding: String?

        init(_ headers: [String: String]) {
            self.headers = headers
            contentType = headers.headerValue("content-type")
            contentEncoding = headers.headerValue("content-encoding")
        }
    }

    /// Response headers through `recent`, keyed by their whole text (same text, same headers).
    static func responseHeaders(_ node: JSONNode?, _ recent: inout RecentValue<ResponseHeaders>) -> ResponseHeaders {
        guard let node, node.isObject else { return ResponseHeaders([:]) }
        return recent.value(for: node.text) { ResponseHeaders(MetricValues.headers(node)) }
    }

    /// A headers object through `recent`, keyed by its whole text (same text, same headers).
    static func headers(_ node: JSONNode?, _ recent: inout RecentValue<[String: String]>) -> [String: String] {
        guard let node, node.isObject else { return [:] }
        return recent.value(for: node.text) { MetricValues.headers(node) }
    }
}
