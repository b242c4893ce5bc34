import ForensicsCore

/// How a report names a URL to a reader: its last path part (a segment's file name, with its
/// query), percent-decoded so that `m%C3%BCsik.ts` reads `müsik.ts`, and cleaned again after
/// decoding — `%E2%80%AE` decodes to a right-to-left override and `%3D` can rebuild a
/// `token=` the first redaction did not see.
package enum URLDisplay {
    package static func fileName(_ url: String, redactor: Redactor) -> String {
        readable(url.split(separator: "/").last.map(String.init) ?? url, redactor: redactor)
    }

    /// The text cleaned (controls and bidi characters visible, secrets redacted), decoded, and
    /// cleaned again.
    package static func readable(_ text: String, redactor: Redactor) -> String {
        let once = redactor.clean(text)
        guard let decoded = once.percentDecoded, decoded != once else { return once }
        return redactor.clean(decoded)
    }
}
