/// What makes two sources' views the same request: the canonical URL without query or fragment
/// (proxy URLs decoded to the origin URL, so token and parameter order do not matter) and where
/// the byte range starts.
///
/// Why the start only, and why a start of 0 counts as "no range": metric events report a
/// `byteRange` of `{0, N}` for whole-file requests, a HAR capture carries no `Range` header for
/// the same request, and a proxy log may show `bytes=0-`. All three are the same request; the
/// range's start is what tells two byte-range segments of one file apart.
package struct RequestKey: Hashable, Sendable, Comparable {
    package var url: String
    package var offset: Int64

    package init(url: String, range: ByteRange?) {
        self.url = URLCanonicalizer.withoutQuery(url)
        self.offset = max(0, range?.offset ?? 0)
    }

    package static func < (a: RequestKey, b: RequestKey) -> Bool {
        a.url != b.url ? a.url < b.url : a.offset < b.offset
    }
}
