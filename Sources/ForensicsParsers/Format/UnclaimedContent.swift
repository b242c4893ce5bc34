import ForensicsCore

/// What a file that no format claims looks like, in the words the inputs list shows ("not read:
/// Markdown text"). Recognition stays on positive evidence — this only names what was seen, so
/// that a user can tell a README from a log this tool should have read (and whether not reading it
/// hides evidence).
package enum UnclaimedContent {
    /// Why the file is not read, from its first bytes, and whether that hides evidence: only text
    /// of no recognised kind that still names what playback evidence is made of (a KTVHTTPCache
    /// module, AVPlayer's user agent or session column, an AVMetrics event, a CoreMedia or
    /// AVFoundation error) may be a log of ours in a shape no reader knows, or a console paste
    /// this tool cannot read yet. A README, another server's log or a web page never hides any.
    ///
    /// `name`: the file's name. Binary data named as a log of ours (`metrics.jsonl`, `access.log`,
    /// `capture.har`, `index.m3u8`…) is a damaged log — unreadable evidence, never a neutral
    /// stray file.
    package static func describe(_ prefix: [UInt8], name: String = "") -> NotRead {
        guard let text = SniffText(prefix) else { return NotRead("empty (white space only)", hidesEvidence: false) }
        if isBinary(prefix) {
            let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            if name.contains("."), logExtensions.contains(ext) {
                return NotRead(
                    "binary data in a file named as a log (.\(ext)): damaged or not a log", hidesEvidence: true)
            }
            return NotRead("binary data, not a text log", hidesEvidence: false)
        }
        // A code fence or a table before the CDN test: a README may quote a `#Fields:` line or a
        // vendor's field names (probe M). A `# ` line alone may be a comment an export tool wrote
        // above a CDN log's rows (review): the CDN's names decide then.
        if isMarkdown(text, strongly: true) { return NotRead("Markdown text", hidesEvidence: false) }
        if let vendor = cdnVendor(text) {
            return NotRead("CDN access log — \(vendor) (a server's log, not a playback source)", hidesEvidence: false)
        }
        if isMarkdown(text) { return NotRead("Markdown text", hidesEvidence: false) }
        if case .fields = text.headerDirective {
            return NotRead(
                "W3C extended log of another program (no AppleCoreMedia #Software line, no AVPlayer fields)",
                hidesEvidence: false)
        }
        if text.looksLikeJSON {
            return NotRead("JSON of no known kind (not AVMetrics events, not a HAR capture)", hidesEvidence: false)
        }
        if text.hasPrefix("<!DOCTYPE") || text.hasPrefix("<!doctype") || text.hasPrefix("<html")
            || text.hasPrefix("<?xml")
        {
            return NotRead("markup (HTML or XML), not a log", hidesEvidence: false)
        }
        if text.anyLine(isCombinedLogLine) {
            return NotRead(
                "web server access log (common/combined format), not a playback source", hidesEvidence: false)
        }
        let names =
            text.contains("KTVHC") || text.contains("AppleCoreMedia") || text.contains("cs-guid")
            || text.contains("AVMetric") || text.contains("CoreMediaErrorDomain")
            || text.contains("AVFoundationErrorDomain")
        return NotRead(
            names
                ? "text that names playback evidence (an error domain, a player or proxy) in no format this tool reads"
                : "text with none of a known format's evidence",
            hidesEvidence: names)
    }

    /// Names the logs this tool reads are saved under.
    static let logExtensions: Set<String> = ["log", "txt", "json", "jsonl", "ndjson", "har", "m3u8", "m3u"]

    /// UTF-16 text written without a byte-order mark: in its first bytes, nearly every other
    /// byte is 0 and the rest are printable ASCII (`#\0V\0e\0r\0…` little-endian, the other
    /// way round big-endian).
    package static func isUTF16WithoutBOM(_ prefix: [UInt8]) -> Bool {
        let sample = Array(prefix.prefix(512))
        guard sample.count >= 16 else { return false }
        for zeroFirst in [false, true] {
            var zeros = 0
            var printable = 0
            var pairs = 0
            var i = 0
            while i + 1 < sample.count {
                let (text, zero) = zeroFirst ? (sample[i + 1], sample[i]) : (sample[i], sample[i + 1])
                pairs += 1
                if zero == 0 { zeros += 1 }
                if (text >= 0x20 && text < 0x7F) || text == 0x09 || text == 0x0A || text == 0x0D { printable += 1 }
                i += 2
            }
            if zeros * 10 >= pairs * 9, printable * 10 >= pairs * 9 { return true }
        }
        return false
    }

    /// NUL bytes, or many bytes that are neither text nor UTF-8.
    static func isBinary(_ prefix: [UInt8]) -> Bool {
        let sample = prefix.prefix(4096)
        if sample.contains(0) { return true }
        let odd = sample.filter { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) }.count
        return odd * 20 > sample.count
    }

    /// The CDN a W3C, tab-separated or JSON log comes from, by the field names only it writes.
    static func cdnVendor(_ text: SniffText) -> String? {
        if text.contains("x-edge-location") || text.contains("x-edge-request-id") || text.contains("x-edge-result-type")
        {
            return "CloudFront"
        }
        if text.contains("\"reqTimeSec\"") || text.contains("\"cliIP\"") || text.contains("\"edgeIP\"") {
            return "Akamai DataStream"
        }
        if text.contains("\"EdgeStartTimestamp\"") || text.contains("\"ClientRequestHost\"")
            || text.contains("\"RayID\"")
        {
            return "Cloudflare Logpush"
        }
        if text.contains("\"fastly_") || text.contains("\"fastly-") { return "Fastly" }
        if text.contains("\"httpRequest\"") && text.contains("\"cacheLookup\"") { return "Google Cloud CDN" }
        return nil
    }

    /// A heading, a table rule, a fenced block or a list at a line's start.
    /// `strongly`: a fence or a table rule only, which no log writes.
    static func isMarkdown(_ text: SniffText, strongly: Bool = false) -> Bool {
        text.anyLine { line in
            line.hasPrefix("```") || line.hasPrefix("| ---") || line.hasPrefix("|---") || line.hasPrefix("|:--")
                || (!strongly && (line.hasPrefix("# ") || line.hasPrefix("## ")))
        }
    }

    /// `203.0.113.7 - - [21/Nov/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 …`.
    static func isCombinedLogLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = line.first, (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: ":") else {
            return false
        }
        return line.contains(" - ") && line.contains(" [") && line.contains("] \"")
    }
}
