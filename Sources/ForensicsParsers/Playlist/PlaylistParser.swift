import ForensicsCore
import Foundation

/// Parses an HLS playlist line by line. Never refuses input: every deviation from RFC 8216 that
/// it tolerates becomes a spec-violation diagnostic with the line number.
package struct PlaylistParser {
    package struct Result: Sendable {
        package var playlist: Playlist
        package var diagnostics: [Diagnostic]
    }

    package let file: String
    package let url: String?
    /// Variables imported from the multivariant playlist (`EXT-X-DEFINE:IMPORT`), when known.
    package var importedVariables: [String: String] = [:]

    package init(file: String, url: String? = nil) {
        self.file = file
        self.url = url
    }

    package func parse(text: String) -> Result {
        var reader = LineReader(MemoryByteSource(text))
        // A memory source cannot throw.
        return (try? parse(lines: &reader)) ?? Result(playlist: Playlist(url: url), diagnostics: [])
    }

    /// Bytes that need not be UTF-8 (a check's example of a playlist that is not).
    package func parse(bytes: [UInt8]) -> Result {
        var reader = LineReader(MemoryByteSource(bytes))
        return (try? parse(lines: &reader)) ?? Result(playlist: Playlist(url: url), diagnostics: [])
    }

    package func parse(lines reader: inout LineReader) throws -> Result {
        var state = State(file: file, url: url, imported: importedVariables)
        let maxLineLength = reader.maxLineLength
        try reader.forEachLine { bytes, number, truncated in
            if truncated {
                state.diag(number, .warning, "line longer than \(maxLineLength) bytes was cut")
            }
            state.handle(line: bytes, number: number)
        }
        if let tail = reader.unterminatedTail { state.judgeUnterminated(tail, number: reader.linesRead) }
        state.finish()
        if reader.sawBOM {
            state.defect(
                "byte-order-mark", 1, .warning,
                "spec violation: UTF-8 byte order mark before #EXTM3U (RFC 8216bis §4.1: clients should refuse the playlist)"
            )
        }
        if reader.sawCRLF { state.diag(1, .info, "CRLF line endings (tolerated)") }
        return Result(playlist: state.playlist, diagnostics: state.diagnostics)
    }

    /// The parser's running state between lines (pending EXTINF, current key, map, …).
    ///
    /// Lines arrive as bytes: tags are recognised and numbers read without building strings;
    /// only values the playlist keeps (URIs, titles, attribute values) become `String`s.
    struct State {
        let file: String
        var playlist: Playlist
        var diagnostics: [Diagnostic] = []
        let imported: [String: String]
        let resolver: URIResolver
        var sawFirstLine = false
        var pendingDuration: Double?
        var pendingTitle: Playlist.SegmentList.Span?
        var pendingByteRange: ByteRange?
        var pendingDiscontinuity = false
        var pendingProgramDateTime: Playlist.SegmentList.Span?
        var pendingGap = false
        var pendingParts: [Playlist.Part] = []
        var pendingStreamInf: (AttributeList, Int)?
        /// Indices into the segment list's key and map tables (-1: none).
        var currentKey: Int32 = -1
        var currentMap: Int32 = -1
        var lastByteRangeEnd: [String: Int64] = [:]
        /// The line of a pending EXT-X-BYTERANGE written without an offset (RFC 8216bis
        /// §4.4.4.2: then the segment before it must be a sub-range of the same resource).
        var pendingRangeWithoutOffset: Int?
        /// The previous segment's URI bytes, when it had a byte range (else nil).
        var lastRangedURI: [UInt8]?
        /// How many times each Media Playlist tag that may appear once has appeared.
        var mediaTagCounts: [PlaylistTag: Int] = [:]
        var discontinuityCount: Int64 = 0
        /// Whether an EXT-X-DISCONTINUITY came yet (EXT-X-DISCONTINUITY-SEQUENCE must precede it).
        var sawDiscontinuity = false
        var bitrateCarry: Int64?
        var lastExtinfLine: Int?
        var skippedSegments: Int64 = 0
        var defectCounts: [String: Int] = [:]
        /// What the stream checks need of the segments, kept here (not in the playlist, a large
        /// value) while reading and handed over at the end.
        var longestDuration = -1.0
        var longestLine = 0
        var totalDuration = 0.0
        var firstByteRangeLine: Int?
        /// Bytes variable substitution has added so far, and the substitutions refused.
        var substitutionGrowth = 0
        var substitutionRefused = 0
        /// Names declared by IMPORT or QUERYPARAM whose value is not known here (the multivariant
        /// playlist or the URL is not at hand): a reference to one is no undefined variable.
        var declaredElsewhere: Set<String> = []
        /// Every variable name an EXT-X-DEFINE has named so far, in any form.
        var definedNames: Set<String> = []

        /// Diagnostics kept per stream check; the rest are counted.
        static let maxDiagnosticsPerCheck = 1000

        init(file: String, url: String?, imported: [String: String]) {
            self.file = file
            self.resolver = URIResolver(base: url)
            self.playlist = Playlist(url: url, resolver: resolver)
            self.imported = imported
        }

        mutating func diag(_ line: Int, _ severity: Severity, _ message: String) {
            diagnostics.append(Diagnostic(SourceLocation(file: file, line: line), severity, message))
        }

        /// A diagnostic that is also a stream check's defect (its id in `StreamCheckCatalogue`);
        /// at most `StreamCheckReport.maxPerCheck` kept per check, the rest counted (a million
        /// stray lines are one problem, not a million defects held).
        mutating func defect(_ check: String, _ line: Int, _ severity: Severity, _ message: String) {
            let n = defectCounts[check, default: 0]
            // The diagnostics are capped per check as the defects are (review: a 500,000-line
            // playlist with a tab on every EXTINF held 500,000 of them); `finish` says how many
            // more.
            if n < Self.maxDiagnosticsPerCheck { diag(line, severity, message) }
            defectCounts[check] = n &+ 1
            if n < StreamCheckReport.maxPerCheck {
                playlist.defects.append(StreamDefect(check: check, line: line, message: message, severity: severity))
            }
        }

        mutating func handle(line raw: UnsafeBufferPointer<UInt8>, number: Int) {
            if let control = Self.controlCharacter(raw), control != 0x09 || !raw.hasPrefix("#EXT-X-SKIP:") {
                controlCharacter(control, number)
            }
            // RFC 8216bis §4.1: UTF-8, which clients should refuse a playlist for not being (a
            // Latin-1 é, a stray byte). Only a line with a byte above 0x7F is decoded to know.
            if Self.hasNonASCII(raw), String(validating: raw, as: UTF8.self) == nil {
                defect(
                    "not-utf8", number, .warning,
                    "spec violation: the line is not UTF-8 (a byte of another encoding, such as Latin-1): players may refuse the playlist"
                )
            }
            var end = raw.count
            while end > 0, raw[end - 1] == 0x20 || raw[end - 1] == 0x09 { end -= 1 }
            if end == 0 { return }
            let line = UnsafeBufferPointer(rebasing: raw[0..<end])
            if !sawFirstLine {
                if line.hasPrefix("#EXTM3U") {
                    sawFirstLine = true
                    playlist.hasHeader = true
                    if number != 1 {
                        defect("extm3u-not-first", number, .info, "spec violation: #EXTM3U is not the first line")
                    }
                    if line.count > 7 { tagGlued(line, number, from: 7) }
                    return
                }
                if line[0] == UInt8(ascii: "#"), !line.hasPrefix("#EXT") {
                    addComment(line, number)
                    return
                }
                sawFirstLine = true
                defect("extm3u-missing", number, .warning, "spec violation: playlist does not start with #EXTM3U")
            }
            if line.count > 8, Self.startsWithExtinf(line), line[8] != 0x20 {
                // The one tag of every segment, before the general look-up (colon search, name
                // table). A space after the colon takes the general path, which reports it.
                handleExtinf(UnsafeBufferPointer(rebasing: line[8...]), number)
            } else if line.hasPrefix("#EXT") {
                handleTag(line, number)
            } else if line[0] == UInt8(ascii: "#") {
                addComment(line, number)
            } else {
                handleURI(line.trimmingBlanks(), number)
            }
        }

        /// The first control character of a line, as its code point: RFC 8216bis §4.1 allows
        /// none but CR and LF (U+0000–U+001F, U+007F–U+009F; a C1 control is `C2 80`–`C2 9F` in
        /// UTF-8). Why it matters: a NUL or an escape inside a URI or an attribute is kept by one
        /// player and cut or refused by another, so the stream differs between them.
        ///
        /// A tab before or after a line's text is not reported: Apple's own segmenter writes
        /// `#EXTINF:<duration>,` followed by a tab, and every player reads it as a blank. A tab
        /// inside the text is returned only when nothing worse is on the line.
        @inline(__always)
        static func controlCharacter(_ line: UnsafeBufferPointer<UInt8>) -> UInt32? {
            guard mayHaveControl(line) else { return nil }
            var i = 0
            let n = line.count
            var sawTab = false
            while i < n {
                let b = line[i]
                if b < 0x20 || b == 0x7F || b == 0xC2 {
                    if b == 0xC2 {
                        if i + 1 < n, line[i + 1] >= 0x80, line[i + 1] <= 0x9F { return UInt32(line[i + 1]) }
                    } else if b == 0x09 {
                        sawTab = true
                    } else if b != 0x0D {
                        return UInt32(b)
                    }
                }
                i += 1
            }
            guard sawTab else { return nil }
            // Inside the text: between the line's first and last byte that is not a blank.
            func blank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D }
            guard let first = line.firstIndex(where: { !blank($0) }),
                let last = line.lastIndex(where: { !blank($0) }), first < last
            else { return nil }
            return line[first..<last].contains(0x09) ? 0x09 : nil
        }

        /// Whether a line holds a byte above 0x7F, eight bytes at a time (most lines are ASCII).
        @inline(__always)
        static func hasNonASCII(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = line.baseAddress else { return false }
            let n = line.count
            var i = 0
            while i &+ 8 <= n {
                if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                    return true
                }
                i &+= 8
            }
            while i < n {
                if line[i] >= 0x80 { return true }
                i &+= 1
            }
            return false
        }

        /// Whether a line may hold a control character (a byte below 0x20, 0x7F, or 0xC2 that
        /// may lead a C1 control), eight bytes at a time: most lines hold none, and the byte loop
        /// of `controlCharacter` then never runs. A borrow can only report a byte that is not
        /// there as there (the exact loop then finds none), never the reverse.
        @inline(__always)
        static func mayHaveControl(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = line.baseAddress else { return false }
            let n = line.count
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var i = 0
            while i &+ 8 <= n {
                let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let below = (x &- 0x20 &* ones) & ~x & highs
                let del = x ^ (0x7F &* ones)
                let c2 = x ^ (0xC2 &* ones)
                if below | ((del &- ones) & ~del & highs) | ((c2 &- ones) & ~c2 & highs) != 0 { return true }
                i &+= 8
            }
            while i < n {
                let b = line[i]
                if b < 0x20 || b == 0x7F || b == 0xC2 { return true }
                i &+= 1
            }
            return false
        }

        mutating func controlCharacter(_ code: UInt32, _ number: Int) {
            let hex = String(code, radix: 16, uppercase: true)
            let name =
                [
                    0x00: " (NUL)", 0x09: " (a tab)", 0x0B: " (a vertical tab)", 0x0C: " (a form feed)", 0x1B: " (ESC)",
                    0x7F: " (DEL)",
                ][code]
                ?? ""
            // A tab inside a line is read as a blank by the players we know of: a check of its
            // own, at info. Every other control character is a warning.
            defect(
                code == 0x09 ? "tab-in-line" : "control-character", number, code == 0x09 ? .info : .warning,
                "spec violation: control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)\(name) in the line: players differ in whether they keep it, cut the line or refuse the playlist"
            )
        }

        /// `#EXTINF:` (23 45 58 54 49 4E 46 3A) as one little-endian 64-bit word; a literal, since
        /// a computed static would cost a once-check per line. `PlaylistFastPathTests` checks it.
        static let extinfWord: UInt64 = 0x3A46_4E49_5458_4523

        /// Whether the line starts with `#EXTINF:`, read as one 8-byte word (callers check the length).
        @inline(__always)
        static func startsWithExtinf(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = line.baseAddress else { return false }
            return UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)) == extinfWord
        }

        mutating func addComment(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) {
            let text = String(decoding: UnsafeBufferPointer(rebasing: line[1...]), as: UTF8.self)
            playlist.comments.append(.init(name: "#", value: text, line: number))
        }

        /// Longest a line or attribute value may become by variable substitution (unless it was
        /// that long already), and how many bytes substitution may add to one playlist: a 4 KB
        /// gzip of one variable referenced a million times asked for gigabytes (probe B, F1).
        static let maxSubstitutedLength = 64 * 1024
        static let maxSubstitutionGrowth = 16 * 1024 * 1024

        /// `{$name}` replaced by its `EXT-X-DEFINE` value (RFC 8216bis 4.3), within the limits
        /// above: past them the text is kept as written, with a warning.
        /// RFC 8216bis §4.3: a variable reference to a name no EXT-X-DEFINE defines makes the
        /// playlist one a client must refuse to parse.
        mutating func undefinedVariable(_ name: Substring, line: Int) {
            guard !declaredElsewhere.contains(String(name)) else { return }
            defect(
                "variable-undefined", line, .error,
                "spec violation: {$\(name.prefix(40))} is not defined by an EXT-X-DEFINE: a player must refuse the playlist"
            )
        }

        /// A variable reference in a playlist that defines no variable at all.
        mutating func checkReferences(_ s: String, line: Int) {
            guard s.utf8.contains(UInt8(ascii: "{")), let open = s.range(of: "{$"),
                let close = s[open.upperBound...].firstIndex(of: "}")
            else { return }
            undefinedVariable(s[open.upperBound..<close], line: line)
        }

        mutating func substitute(_ s: String, line: Int) -> String {
            // Only playlists that define variables pay for the search.
            guard !playlist.defines.isEmpty else {
                checkReferences(s, line: line)
                return s
            }
            guard s.utf8.contains(UInt8(ascii: "{")) else { return s }
            let limit = max(s.utf8.count, Self.maxSubstitutedLength)
            let budget = Self.maxSubstitutionGrowth - substitutionGrowth
            var out = ""
            var rest = Substring(s)
            while let open = rest.range(of: "{$") {
                out += rest[..<open.lowerBound]
                guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                    out += rest[open.lowerBound...]
                    rest = rest[rest.endIndex...]
                    break
                }
                let name = String(rest[open.upperBound..<close])
                if let v = playlist.defines[name] {
                    out += v
                } else {
                    undefinedVariable(Substring(name), line: line)
                    out += rest[open.lowerBound...close]
                }
                rest = rest[rest.index(after: close)...]
                if out.utf8.count > limit || out.utf8.count - s.utf8.count > budget {
                    substitutionRefused += 1
                    if substitutionRefused <= 5 {
                        diag(
                            line, .warning,
                            out.utf8.count > limit
                                ? "variable substitution would make this line longer than \(limit / 1024) KiB: kept as written"
                                : "variable substitution would add more than \(Self.maxSubstitutionGrowth / (1024 * 1024)) MiB to the playlist: kept as written"
                        )
                    }
                    return s
                }
            }
            out += rest
            substitutionGrowth += max(0, out.utf8.count - s.utf8.count)
            return out
        }

        mutating func attributes(
            _ value: UnsafeBufferPointer<UInt8>, _ tag: PlaylistTag, _ number: Int
        ) -> AttributeList {
            var list = AttributeList(bytes: value)
            if !list.deviations.isEmpty {
                let label = tag.label
                for d in list.deviations {
                    if d.hasPrefix("whitespace") {
                        diag(number, .info, "spec violation in \(label): \(d)")
                    } else {
                        defect("attribute-list-malformed", number, .info, "spec violation in \(label): \(d)")
                    }
                }
                list.deviations = []
            }
            if !playlist.defines.isEmpty {
                list.substitute { self.substitute($0, line: number) }
            } else {
                for a in list.attributes where a.quoted { checkReferences(a.value, line: number) }
            }
            return list
        }

        mutating func parseByteRange(_ text: String, uri: String?, _ number: Int) -> ByteRange? {
            var text = text
            return text.withUTF8 { parseByteRange($0, uri: uri, number) }
        }

        mutating func parseByteRange(_ text: UnsafeBufferPointer<UInt8>, uri: String?, _ number: Int) -> ByteRange? {
            let at = text.firstIndex(ofByte: UInt8(ascii: "@"))
            let lengthBytes = UnsafeBufferPointer(rebasing: text[0..<(at ?? text.count)]).trimmingBlanks()
            guard let length = DecimalScanner.int64(lengthBytes), length >= 0 else {
                diag(number, .warning, "invalid byte range '\(String(decoding: text, as: UTF8.self))'")
                return nil
            }
            var offset: Int64
            // `587500@` (an empty offset) occurs in real playlists: read as no offset.
            let offsetBytes = UnsafeBufferPointer(rebasing: text[((at ?? text.count - 1) + 1)...]).trimmingBlanks()
            if at != nil, !offsetBytes.isEmpty {
                guard let o = DecimalScanner.int64(offsetBytes), o >= 0 else {
                    diag(number, .warning, "invalid byte range offset '\(String(decoding: text, as: UTF8.self))'")
                    return nil
                }
                offset = o
            } else {
                offset = uri.flatMap { lastByteRangeEnd[$0] } ?? lastByteRangeEnd["\u{0}"] ?? 0
            }
            let (end, overflow) = offset.addingReportingOverflow(length)
            lastByteRangeEnd["\u{0}"] = overflow ? offset : end
            if let uri { lastByteRangeEnd[uri] = overflow ? offset : end }
            return ByteRange(offset: offset, length: length)
        }

        mutating func parseKey(_ value: UnsafeBufferPointer<UInt8>, _ tag: PlaylistTag, _ number: Int) -> Playlist.Key {
            let a = attributes(value, tag, number)
            let method = a["METHOD"] ?? "NONE"
            if a["METHOD"] == nil {
                defect("key-method-unknown", number, .warning, "spec violation: \(tag.label) without METHOD")
            }
            if method != "NONE", a["URI"] == nil {
                defect("key-uri-missing", number, .warning, "spec violation: \(tag.label) METHOD=\(method) without URI")
            }
            return Playlist.Key(
                method: method, uri: a["URI"].map { resolve($0) }, iv: a["IV"], keyFormat: a["KEYFORMAT"],
                keyFormatVersions: a["KEYFORMATVERSIONS"], line: number)
        }

        func resolve(_ uri: String) -> String { resolver.resolve(uri) }

        /// Another tag on the same line (`#EXTM3U#EXT-X-PLAYLIST-TYPE:VOD`): a line break lost.
        mutating func tagGlued(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, from start: Int) {
            var i = start
            // memchr for each `#` (most tag lines have none after the first byte).
            while i + 4 <= line.count,
                let hash = UnsafeBufferPointer(rebasing: line[i...]).firstIndex(ofByte: UInt8(ascii: "#"))
            {
                i += hash
                guard i + 4 <= line.count else { return }
                if line[i + 1] == UInt8(ascii: "E"), line[i + 2] == UInt8(ascii: "X"), line[i + 3] == UInt8(ascii: "T")
                {
                    let rest = String(decoding: UnsafeBufferPointer(rebasing: line[i...]).prefix(40), as: UTF8.self)
                    defect(
                        "tag-glued", number, .warning,
                        "spec violation: '\(rest)' follows another tag on the same line: it is not read as a tag")
                    return
                }
                i += 1
            }
        }

        mutating func handleTag(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) {
            // The common case first: no `#` after the tag's own (one `memchr`, no call).
            if line.count > 5, let base = line.baseAddress, memchr(base + 4, 0x23, line.count - 4) != nil {
                tagGlued(line, number, from: 4)
            }
            let name: UnsafeBufferPointer<UInt8>
            var value: UnsafeBufferPointer<UInt8>?
            if let colon = line.firstIndex(ofByte: UInt8(ascii: ":")) {
                name = UnsafeBufferPointer(rebasing: line[0..<colon])
                var v = UnsafeBufferPointer(rebasing: line[(colon + 1)...])
                if v.first == 0x20 {
                    diag(number, .info, "spec violation: space after ':' in \(String(decoding: name, as: UTF8.self))")
                    var i = 0
                    while i < v.count, v[i] == 0x20 { i += 1 }
                    v = UnsafeBufferPointer(rebasing: v[i...])
                }
                value = v
            } else {
                name = line
            }
            guard let tag = PlaylistTag(name: name) else {
                playlist.otherTags.append(
                    .init(
                        name: String(decoding: UnsafeBufferPointer(rebasing: name[1...]), as: UTF8.self),
                        value: value.map { String(decoding: $0, as: UTF8.self) }, line: number))
                return
            }
            let v = value ?? UnsafeBufferPointer(start: nil, count: 0)
            handle(tag, v, number)
        }

        /// The value as text, for diagnostics and string-valued tags.
        func text(_ v: UnsafeBufferPointer<UInt8>) -> String { String(decoding: v, as: UTF8.self) }

        mutating func handle(_ tag: PlaylistTag, _ v: UnsafeBufferPointer<UInt8>, _ number: Int) {
            switch tag {
            case .extm3u:
                diag(number, .info, "repeated #EXTM3U")
            case .version:
                playlist.versionTagCount += 1
                if playlist.versionTagCount == 2 {
                    defect("multiple-version-tags", number, .warning, "spec violation: more than one EXT-X-VERSION")
                }
                if let n = DecimalScanner.int64(v.trimmingBlanks()), let i = Int(exactly: n) {
                    playlist.version = i
                } else {
                    defect("tag-value-invalid", number, .warning, "invalid EXT-X-VERSION '\(text(v))'")
                }
            case .extinf:
                handleExtinf(v, number)
            case .targetDuration:
                onceOnly(tag, number)
                playlist.targetDurationLine = number
                if let d = DecimalScanner.double(v.trimmingBlanks()), d.isFinite, d >= 0 {
                    playlist.targetDuration = d
                    // A decimal-integer is at most 2^64 − 1 (RFC 8216bis §4.2); a whole number
                    // above it reads as a double but is no value a player can hold.
                    let digits = v.trimmingBlanks()
                    if d >= 9.0e18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                        UInt64(String(decoding: digits, as: UTF8.self)) == nil
                    {
                        defect(
                            "tag-value-invalid", number, .warning,
                            "invalid EXT-X-TARGETDURATION '\(text(v))': above the decimal-integer range (2^64 − 1)")
                    }
                } else {
                    defect("tag-value-invalid", number, .warning, "invalid EXT-X-TARGETDURATION '\(text(v))'")
                }
            case .mediaSequence:
                onceOnly(tag, number)
                beforeFirstSegment(tag, number)
                if let n = DecimalScanner.int64(v.trimmingBlanks()) {
                    playlist.mediaSequence = n
                } else {
                    defect("tag-value-invalid", number, .warning, "invalid EXT-X-MEDIA-SEQUENCE '\(text(v))'")
                }
            case .discontinuitySequence:
                onceOnly(tag, number)
                beforeFirstSegment(tag, number)
                if sawDiscontinuity, playlist.segments.isEmpty, pendingDuration == nil {
                    // RFC 8216bis §4.4.3.3: before any EXT-X-DISCONTINUITY as well.
                    defect(
                        "sequence-tag-after-segment", number, .warning,
                        "spec violation: EXT-X-DISCONTINUITY-SEQUENCE after an EXT-X-DISCONTINUITY: the discontinuity before it is numbered wrongly"
                    )
                }
                if let n = DecimalScanner.int64(v.trimmingBlanks()) {
                    playlist.discontinuitySequence = n
                    discontinuityCount = n
                } else {
                    defect("tag-value-invalid", number, .warning, "invalid EXT-X-DISCONTINUITY-SEQUENCE '\(text(v))'")
                }
            case .playlistType:
                onceOnly(tag, number)
                let t = text(v.trimmingBlanks())
                if t == "VOD" || t == "EVENT" {
                    playlist.playlistType = t
                } else {
                    defect("tag-value-invalid", number, .warning, "invalid EXT-X-PLAYLIST-TYPE '\(text(v))'")
                }
            case .endList:
                playlist.endList = true
            case .iFramesOnly:
                playlist.iFramesOnly = true
            case .independentSegments:
                playlist.independentSegments = true
            case .allowCache:
                let t = text(v.trimmingBlanks()).uppercased()
                if t == "YES" || t == "NO" {
                    playlist.allowCache = t == "YES"
                } else {
                    defect("tag-value-invalid", number, .warning, "invalid EXT-X-ALLOW-CACHE '\(text(v))'")
                }
            case .discontinuity:
                pendingDiscontinuity = true
                sawDiscontinuity = true
            case .byteRange:
                pendingByteRange = parseByteRange(v, uri: nil, number)
                let at = v.firstIndex(ofByte: UInt8(ascii: "@"))
                let hasOffset =
                    at.map { !UnsafeBufferPointer(rebasing: v[($0 + 1)...]).trimmingBlanks().isEmpty } ?? false
                pendingRangeWithoutOffset = pendingByteRange != nil && !hasOffset ? number : nil
            case .programDateTime:
                playlist.hasProgramDateTime = true
                if !Self.isDateTime(v.trimmingBlanks()) {
                    defect(
                        "tag-value-invalid", number, .warning,
                        "invalid EXT-X-PROGRAM-DATE-TIME '\(text(v).prefix(60))' (not an ISO 8601 date-time)"
                    )
                }
                pendingProgramDateTime = playlist.segments.store(v)
            case .gap:
                pendingGap = true
            case .bitrate:
                if let n = DecimalScanner.int64(v.trimmingBlanks()) {
                    bitrateCarry = n
                } else {
                    defect("tag-value-invalid", number, .warning, "invalid EXT-X-BITRATE '\(text(v))'")
                }
            case .key:
                currentKey = playlist.segments.add(parseKey(v, tag, number))
            case .sessionKey:
                playlist.isMultivariant = true
                playlist.sessionKeys.append(parseKey(v, tag, number))
            case .map:
                let a = attributes(v, tag, number)
                // RFC 8216bis §4.4.4.5: a Media Initialization Section under AES-128 needs the
                // key's IV (it has no Media Sequence Number to stand for one).
                if currentKey >= 0, Int(currentKey) < playlist.segments.keys.count {
                    let key = playlist.segments.keys[Int(currentKey)]
                    if key.method == "AES-128", key.iv == nil {
                        defect(
                            "map-iv-missing", number, .warning,
                            "spec violation: EXT-X-MAP under METHOD=AES-128 (line \(key.line)) without an IV on that EXT-X-KEY"
                        )
                    }
                }
                if let uri = a["URI"] {
                    let range = a["BYTERANGE"].flatMap { parseByteRange($0, uri: "map:" + uri, number) }
                    currentMap = playlist.segments.add(
                        Playlist.MapInfo(uri: resolve(uri), byteRange: range, line: number))
                } else {
                    defect("uri-attribute-missing", number, .warning, "spec violation: EXT-X-MAP without URI")
                }
            case .part:
                let a = attributes(v, tag, number)
                if a["DURATION"] == nil {
                    defect("part-duration-missing", number, .warning, "spec violation: EXT-X-PART without DURATION")
                }
                guard let uri = a["URI"] else {
                    defect("uri-attribute-missing", number, .warning, "spec violation: EXT-X-PART without URI")
                    return
                }
                let range = a["BYTERANGE"].flatMap { parseByteRange($0, uri: "part:" + uri, number) }
                pendingParts.append(
                    Playlist.Part(
                        uri: resolve(uri), duration: a.decimal("DURATION"), independent: a.flag("INDEPENDENT"),
                        byteRange: range, gap: a.flag("GAP"), line: number))
            case .partInf:
                playlist.partInfLine = number
                playlist.partInf = attributes(v, tag, number)
            case .serverControl:
                playlist.serverControlLine = number
                playlist.serverControl = attributes(v, tag, number)
            case .skip:
                let a = attributes(v, tag, number)
                if playlist.skip != nil {
                    defect(
                        "media-playlist-tag-repeated", number, .warning,
                        "spec violation: a second EXT-X-SKIP: which skip holds is left to the player")
                }
                playlist.skip = a
                if let skipped = a.integer("SKIPPED-SEGMENTS"), skipped >= 0 { skippedSegments = skipped }
            case .preloadHint:
                playlist.preloadHints.append(
                    .init(name: tag.label, attributes: attributes(v, tag, number), line: number))
            case .renditionReport:
                playlist.renditionReports.append(
                    .init(name: tag.label, attributes: attributes(v, tag, number), line: number))
            case .dateRange:
                let a = attributes(v, tag, number)
                if a["ID"] == nil {
                    defect("daterange-attributes", number, .warning, "spec violation: EXT-X-DATERANGE without ID")
                }
                playlist.dateRanges.append(.init(name: tag.label, attributes: a, line: number))
            case .streamInf:
                playlist.isMultivariant = true
                if let (_, line) = pendingStreamInf {
                    defect("stream-inf-uri-missing", line, .warning, "EXT-X-STREAM-INF without a URI line after it")
                }
                let a = attributes(v, tag, number)
                if a["BANDWIDTH"] == nil {
                    defect(
                        "stream-inf-bandwidth-missing", number, .warning,
                        "spec violation: EXT-X-STREAM-INF without BANDWIDTH")
                }
                variantValues(a, tag, number)
                pendingStreamInf = (a, number)
            case .iFrameStreamInf:
                playlist.isMultivariant = true
                let a = attributes(v, tag, number)
                if let uri = a["URI"] {
                    playlist.iFrameVariants.append(
                        .init(uri: uri, resolvedURI: resolve(uri), attributes: a, isIFrame: true, line: number))
                } else {
                    defect(
                        "uri-attribute-missing", number, .warning,
                        "spec violation: EXT-X-I-FRAME-STREAM-INF without URI")
                }
            case .media:
                playlist.isMultivariant = true
                let a = attributes(v, tag, number)
                if a["TYPE"] == nil || a["GROUP-ID"] == nil || a["NAME"] == nil {
                    defect(
                        "media-attributes-missing", number, .warning,
                        "spec violation: EXT-X-MEDIA without TYPE, GROUP-ID or NAME")
                }
                playlist.renditions.append(.init(attributes: a, line: number))
            case .sessionData:
                playlist.isMultivariant = true
                playlist.sessionData.append(
                    .init(name: tag.label, attributes: attributes(v, tag, number), line: number))
            case .contentSteering:
                playlist.contentSteering = attributes(v, tag, number)
            case .start:
                let a = attributes(v, tag, number)
                playlist.start = a
                if a["TIME-OFFSET"] == nil {
                    defect(
                        "start-time-offset-missing", number, .warning, "spec violation: EXT-X-START without TIME-OFFSET"
                    )
                }
            case .define:
                handleDefine(AttributeList(bytes: v), number)
            }
        }

        /// `#EXTINF:<duration>,[<title>]` — the one tag every segment has, read straight from bytes.
        mutating func handleExtinf(_ v: UnsafeBufferPointer<UInt8>, _ number: Int) {
            if let last = lastExtinfLine, pendingDuration != nil {
                defect(
                    "extinf-without-uri", last, .warning,
                    "EXTINF without a URI after it (another EXTINF at line \(number))")
            }
            let comma = v.firstIndex(ofByte: UInt8(ascii: ","))
            if comma == nil { diag(number, .info, "spec violation: EXTINF without a comma") }
            let durationBytes = UnsafeBufferPointer(rebasing: v[0..<(comma ?? v.count)])
            if let d = DecimalScanner.double(durationBytes.trimmingBlanks()), d.isFinite, d >= 0 {
                pendingDuration = d
                if d == 0 { diag(number, .info, "segment duration is 0") }
            } else {
                defect("tag-value-invalid", number, .warning, "invalid EXTINF duration '\(text(durationBytes))'")
                pendingDuration = nil
            }
            if let comma, comma + 1 < v.count {
                pendingTitle = playlist.segments.store(UnsafeBufferPointer(rebasing: v[(comma + 1)...]))
            }
            lastExtinfLine = number
        }

        mutating func handleDefine(_ a: AttributeList, _ number: Int) {
            // RFC 8216bis §4.4.2.3: no two EXT-X-DEFINE tags of one variable name, whichever
            // form (NAME, IMPORT, QUERYPARAM) names it.
            if let n = a["NAME"] ?? a["IMPORT"] ?? a["QUERYPARAM"], !definedNames.insert(n).inserted {
                defect("variable-redefined", number, .warning, "spec violation: variable \(n) defined twice")
            }
            if let n = a["NAME"], let val = a["VALUE"] {
                playlist.defines[n] = val
            } else if let n = a["IMPORT"] {
                if let val = imported[n] {
                    playlist.defines[n] = val
                } else {
                    declaredElsewhere.insert(n)
                    diag(
                        number, .warning,
                        "EXT-X-DEFINE IMPORT=\(n): the multivariant playlist's variables are not known here")
                }
            } else if let n = a["QUERYPARAM"] {
                if let val = queryParameter(n) {
                    playlist.defines[n] = val
                } else {
                    if playlist.url == nil { declaredElsewhere.insert(n) }
                    diag(number, .warning, "EXT-X-DEFINE QUERYPARAM=\(n): not in the playlist URL")
                }
            } else {
                diag(number, .warning, "spec violation: EXT-X-DEFINE without NAME/VALUE, IMPORT or QUERYPARAM")
            }
        }

        func queryParameter(_ name: String) -> String? {
            guard let url = playlist.url, let q = url.split(separator: "?", maxSplits: 1).dropFirst().first else {
                return nil
            }
            for pair in q.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if kv.first.map(String.init) == name { return kv.count > 1 ? String(kv[1]) : "" }
            }
            return nil
        }

        mutating func handleURI(_ bytes: UnsafeBufferPointer<UInt8>, _ number: Int) {
            if let (attrs, line) = pendingStreamInf {
                pendingStreamInf = nil
                let uri = substitute(String(decoding: bytes, as: UTF8.self), line: number)
                playlist.variants.append(
                    .init(uri: uri, resolvedURI: resolve(uri), attributes: attrs, isIFrame: false, line: line))
                return
            }
            // Only playlists that define variables pay for a string here.
            let uri: Playlist.SegmentList.Span
            if bytes.firstIndex(ofByte: UInt8(ascii: "{")) != nil {
                uri = playlist.segments.store(substitute(String(decoding: bytes, as: UTF8.self), line: number))
            } else {
                uri = playlist.segments.store(bytes)
            }
            // A URI line with no EXTINF before it is not a segment: a wrapped line's tail
            // (`YES` after `INDEPENDENT=`) would otherwise be played as one.
            guard let duration = pendingDuration else {
                let shown = String(decoding: bytes.prefix(60), as: UTF8.self)
                defect(
                    "uri-without-extinf", number, .warning,
                    "'\(shown)' is a URI line with no EXTINF before it: not read as a segment")
                pendingByteRange = nil
                return
            }
            if pendingDiscontinuity { discontinuityCount &+= 1 }
            let range = pendingByteRange
            if let line = pendingRangeWithoutOffset {
                // No offset: the segment before must be a sub-range of the same resource.
                let sameResource = lastRangedURI.map { $0.elementsEqual(bytes) } ?? false
                if !sameResource {
                    let before =
                        playlist.segments.isEmpty
                        ? "it is the first segment"
                        : lastRangedURI == nil
                            ? "the segment before it has no byte range" : "the segment before it is another resource"
                    defect(
                        "byterange-offset-missing", line, .error,
                        "spec violation: EXT-X-BYTERANGE without an offset, but \(before): the client must fail to parse the playlist"
                    )
                }
            }
            lastRangedURI = range == nil ? nil : Array(bytes)
            pendingRangeWithoutOffset = nil
            if range != nil, firstByteRangeLine == nil { firstByteRangeLine = number }
            if duration > longestDuration {
                longestDuration = duration
                longestLine = number
            }
            totalDuration += duration
            let sequence = playlist.mediaSequence &+ skippedSegments &+ Int64(playlist.segments.count)
            let parts = pendingParts.isEmpty ? -1 : playlist.segments.add(pendingParts)
            playlist.segments.append(
                uri: uri, title: pendingTitle, programDateTime: pendingProgramDateTime, duration: duration,
                discontinuitySequence: discontinuityCount, mediaSequence: sequence, line: number, byteRange: range,
                bitrate: bitrateCarry, key: currentKey, map: currentMap, parts: parts,
                discontinuity: pendingDiscontinuity, gap: pendingGap)
            pendingDuration = nil
            pendingTitle = nil
            pendingByteRange = nil
            pendingDiscontinuity = false
            pendingProgramDateTime = nil
            pendingGap = false
            if !pendingParts.isEmpty { pendingParts = [] }
            lastExtinfLine = nil
        }

        /// A variant's numbers as RFC 8216bis §4.2 types them: BANDWIDTH and AVERAGE-BANDWIDTH
        /// decimal integers, RESOLUTION a decimal resolution, FRAME-RATE a decimal floating-point
        /// number (no sign, no `nan`). A value that does not read is ignored by players.
        mutating func variantValues(_ a: AttributeList, _ tag: PlaylistTag, _ number: Int) {
            func digits(_ s: Substring) -> Bool {
                !s.isEmpty && s.count <= 18 && s.allSatisfy { $0.isASCII && $0.isNumber }
            }
            var bad: [String] = []
            for name in ["BANDWIDTH", "AVERAGE-BANDWIDTH"] {
                if let v = a[name], !digits(Substring(v)) { bad.append("\(name)=\(v.prefix(30))") }
            }
            if let v = a["RESOLUTION"] {
                let parts = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
                if parts.count != 2 || !parts.allSatisfy(digits) { bad.append("RESOLUTION=\(v.prefix(30))") }
            }
            if let v = a["FRAME-RATE"] {
                let parts = v.split(separator: ".", omittingEmptySubsequences: false)
                if parts.count > 2 || !parts.allSatisfy(digits) { bad.append("FRAME-RATE=\(v.prefix(30))") }
            }
            guard !bad.isEmpty else { return }
            defect(
                "tag-value-invalid", number, .warning,
                "invalid \(tag.label) attribute value\(bad.count == 1 ? "" : "s") \(bad.joined(separator: ", ")): not of the type RFC 8216bis §4.2 gives it, so a player may ignore it"
            )
        }

        /// An ISO 8601 date-time (`2026-11-21T10:00:00.000Z`, `…+01:00`, `…,500`), checked by its
        /// shape alone: every segment of a live playlist may carry one. The zone SHOULD be there
        /// (RFC 8216bis §4.4.4.6), so its absence is no defect; a malformed one (`+05:`, `+99:99`)
        /// is.
        static func isDateTime(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
            func digit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
            guard b.count >= 19, (0..<4).allSatisfy(digit), b[4] == 0x2D, digit(5), digit(6), b[7] == 0x2D, digit(8),
                digit(9), b[10] | 0x20 == UInt8(ascii: "t"), digit(11), digit(12), b[13] == 0x3A, digit(14), digit(15),
                b[16] == 0x3A, digit(17), digit(18)
            else { return false }
            var i = 19
            if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
                i += 1
                guard digit(i) else { return false }
                while digit(i) { i += 1 }
            }
            // The fields' ranges: a month 13, 31 February or an hour 99 is no instant (24:00:00
            // alone is midnight's other name; :60 a leap second).
            func number(_ at: Int) -> Int { Int(b[at] - 0x30) * 10 + Int(b[at + 1] - 0x30) }
            let year = number(0) * 100 + number(2)
            let month = number(5)
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = month == 2 ? (leap ? 29 : 28) : ([4, 6, 9, 11].contains(month) ? 30 : 31)
            let (hour, minute, second) = (number(11), number(14), number(17))
            // 24:00:00 has no fraction; a leap second is the last of a minute :59 (23:59:60 UTC,
            // in zones whole or half hours off, still a minute :59).
            let fraction = b.count > 19 && (b[19] == 0x2E || b[19] == 0x2C)
            let wholeMidnight = hour == 24 && minute == 0 && second == 0 && !fractionNonZero(b, fraction)
            guard (1...12).contains(month), (1...days).contains(number(8)), minute <= 59,
                second <= 59 || (second == 60 && minute == 59), hour <= 23 || wholeMidnight
            else { return false }
            if i == b.count { return true }
            if b[i] | 0x20 == UInt8(ascii: "z") { return i + 1 == b.count }
            guard b[i] == 0x2B || b[i] == 0x2D, digit(i + 1), digit(i + 2) else { return false }
            let hours = Int(b[i + 1] - 0x30) * 10 + Int(b[i + 2] - 0x30)
            var j = i + 3
            if j == b.count { return hours <= 14 }
            if b[j] == 0x3A { j += 1 }
            guard j + 2 == b.count, digit(j), digit(j + 1) else { return false }
            let minutes = Int(b[j] - 0x30) * 10 + Int(b[j + 1] - 0x30)
            return hours <= 14 && minutes < 60
        }

        /// Whether a date-time's fraction (after the seconds, when there is one) has a digit
        /// other than 0.
        static func fractionNonZero(_ b: UnsafeBufferPointer<UInt8>, _ present: Bool) -> Bool {
            guard present else { return false }
            var i = 20
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                if b[i] != 0x30 { return true }
                i += 1
            }
            return false
        }

        /// A Media Playlist tag of a kind that may appear once (RFC 8216bis §4.4.3).
        mutating func onceOnly(_ tag: PlaylistTag, _ number: Int) {
            let n = mediaTagCounts[tag, default: 0] + 1
            mediaTagCounts[tag] = n
            if n == 2 {
                defect(
                    "media-playlist-tag-repeated", number, .warning,
                    "spec violation: a second \(tag.label): which value holds is left to the player")
            }
        }

        /// EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE must come before the first
        /// segment (RFC 8216bis §4.4.3.2, §4.4.3.3): the segments before them are numbered
        /// otherwise than the playlist says.
        mutating func beforeFirstSegment(_ tag: PlaylistTag, _ number: Int) {
            guard !playlist.segments.isEmpty || pendingDuration != nil else { return }
            defect(
                "sequence-tag-after-segment", number, .warning,
                "spec violation: \(tag.label) after the first media segment: the segments before it are numbered wrongly"
            )
        }

        /// The last line, which the file ended in without a line break: a tag cut in its name,
        /// its attribute list (an open quote) or an EXTINF without its comma is a file cut short.
        mutating func judgeUnterminated(_ tail: [UInt8], number: Int) {
            var end = tail.count
            while end > 0, tail[end - 1] == 0x20 || tail[end - 1] == 0x09 || tail[end - 1] == 0x0D { end -= 1 }
            let line = tail[..<end]
            guard !line.isEmpty else { return }
            guard line.starts(with: "#EXT".utf8) else {
                guard line.first != UInt8(ascii: "#") else { return }
                // A URI: cut short when every earlier URI of its kind ends in one extension and
                // this one does not (`v360/ind` after `v720/index.m3u8`).
                let text = String(decoding: line, as: UTF8.self)
                let earlier: [String]
                if let last = playlist.variants.last, last.line < number {
                    earlier = playlist.variants.dropLast().suffix(8).map(\.uri)
                } else {
                    earlier =
                        playlist.segments.count > 1
                        ? (max(0, playlist.segments.count - 9)..<(playlist.segments.count - 1)).map {
                            playlist.segments.uri(at: $0)
                        }
                        : []
                }
                // Cut means no extension yet (`se`), or part of the others' (`.m3` of `.m3u8`),
                // and shorter than every URI before it; a different whole extension, or a query
                // (an ad server's `segment?id=7`), is another resource, not a cut one.
                let endings = Set(earlier.map(Self.pathExtension))
                let own = Self.pathExtension(text)
                let lastName = text.split(separator: "?", maxSplits: 1).first?.split(separator: "/").last ?? ""
                guard endings.count == 1, let ending = endings.first, !ending.isEmpty, own != ending,
                    !text.contains("?"), earlier.allSatisfy({ $0.utf8.count > text.utf8.count }),
                    !lastName.contains(".") || (!own.isEmpty && ending.hasPrefix(own))
                else { return }
                defect(
                    "playlist-truncated", number, .error,
                    "the playlist ends in the middle of its last line (no line break, the URI '\(text.prefix(60))' does not end in .\(ending) as the ones before it): it was cut short, and what follows is missing"
                )
                return
            }
            let colon = line.firstIndex(of: UInt8(ascii: ":"))
            let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
            let known = PlaylistTag.allCases.map { String(describing: $0.name) }
            var why: String?
            if !known.contains(name), known.contains(where: { $0.hasPrefix(name) }) {
                why = "the tag name '\(name.prefix(40))' is cut"
            } else if let colon, line[colon...].filter({ $0 == UInt8(ascii: "\"") }).count % 2 == 1 {
                why = "a quoted attribute value is not closed"
            } else if name == "#EXTINF", !line.contains(UInt8(ascii: ",")) {
                why = "the EXTINF has no comma after its duration"
            }
            guard let why else { return }
            defect(
                "playlist-truncated", number, .error,
                "the playlist ends in the middle of its last line (no line break, \(why)): it was cut short, and segments or variants after it are missing"
            )
        }

        /// A URI's path extension, lower-cased (`ts`, `m3u8`), without the query; "" without one.
        static func pathExtension(_ uri: String) -> String {
            let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = name.lastIndex(of: ".") else { return "" }
            return name[name.index(after: dot)...].lowercased()
        }

        mutating func finish() {
            if playlist.playlistType == "VOD", !playlist.endList, !playlist.segments.isEmpty {
                defect(
                    "vod-without-endlist", playlist.segments.line(at: playlist.segments.count - 1), .warning,
                    "EXT-X-PLAYLIST-TYPE:VOD without EXT-X-ENDLIST: cut short, or not VOD (a player reloads it as live)"
                )
            }
            playlist.firstByteRangeLine = firstByteRangeLine
            playlist.longestSegment = longestDuration >= 0 ? (longestDuration, longestLine) : nil
            playlist.totalDuration = totalDuration
            for (check, n) in defectCounts.sorted(by: { $0.key < $1.key }) where n > Self.maxDiagnosticsPerCheck {
                diag(
                    0, playlist.defects.first { $0.check == check }?.severity ?? .warning,
                    "\(n - Self.maxDiagnosticsPerCheck) more lines break \(check) (the first \(Self.maxDiagnosticsPerCheck) are listed)"
                )
            }
            for (check, n) in defectCounts.sorted(by: { $0.key < $1.key }) where n > StreamCheckReport.maxPerCheck {
                playlist.defects.append(
                    StreamDefect(
                        check: check, line: 0,
                        message:
                            "\(n - StreamCheckReport.maxPerCheck) more lines break it (the first \(StreamCheckReport.maxPerCheck) are listed)",
                        severity: playlist.defects.first { $0.check == check }?.severity ?? .warning))
            }
            playlist.trailingPartCount = pendingParts.count
            if !sawFirstLine { diag(1, .warning, "empty playlist") }
            if pendingStreamInf != nil {
                defect(
                    "stream-inf-uri-missing", pendingStreamInf?.1 ?? 0, .warning,
                    "EXT-X-STREAM-INF without a URI line after it")
            }
            if pendingDuration != nil, pendingParts.isEmpty {
                if let l = lastExtinfLine { defect("extinf-without-uri", l, .info, "EXTINF at the end without a URI") }
            }
            if !playlist.isMultivariant, sawFirstLine, playlist.targetDuration == nil,
                !playlist.segments.isEmpty || lastExtinfLine != nil
            {
                defect(
                    "target-duration-missing", 1, .warning,
                    "spec violation: media playlist without EXT-X-TARGETDURATION")
            }
        }
    }
}
