import ForensicsCore

/// Parses an HLS playlist line by line. Never refuses input: every deviation from RFC 8216 that
/// it tolerates becomes a spec-violation diagnostic with the line number.
public struct PlaylistParser {
    public struct Result: Sendable {
        public var playlist: Playlist
        public var diagnostics: [Diagnostic]
    }

    public let file: String
    public let url: String?
    /// Variables imported from the multivariant playlist (`EXT-X-DEFINE:IMPORT`), when known.
    public var importedVariables: [String: String] = [:]

    public init(file: String, url: String? = nil) {
        self.file = file
        self.url = url
    }

    public func parse(text: String) -> Result {
        var reader = LineReader(MemoryByteSource(text))
        // A memory source cannot throw.
        return (try? parse(lines: &reader)) ?? Result(playlist: Playlist(url: url), diagnostics: [])
    }

    public func parse(lines reader: inout LineReader) throws -> Result {
        var state = State(file: file, url: url, imported: importedVariables)
        while let line = try reader.next() {
            if line.truncated {
                state.diag(line.number, .warning, "line longer than \(reader.maxLineLength) bytes was cut")
            }
            state.handle(line: line.text, number: line.number)
        }
        state.finish()
        if reader.sawBOM { state.diag(1, .info, "spec violation: UTF-8 byte order mark before #EXTM3U (RFC 8216 §4.1)") }
        if reader.sawCRLF { state.diag(1, .info, "CRLF line endings (tolerated)") }
        return Result(playlist: state.playlist, diagnostics: state.diagnostics)
    }

    /// The parser's running state between lines (pending EXTINF, current key, map, …).
    struct State {
        let file: String
        var playlist: Playlist
        var diagnostics: [Diagnostic] = []
        let imported: [String: String]
        var sawFirstLine = false
        var pendingDuration: Double?
        var pendingTitle: String?
        var pendingByteRange: ByteRange?
        var pendingDiscontinuity = false
        var pendingProgramDateTime: String?
        var pendingGap = false
        var pendingBitrate: Int64?
        var pendingParts: [Playlist.Part] = []
        var pendingStreamInf: (AttributeList, Int)?
        var currentKey: Playlist.Key?
        var currentMap: Playlist.MapInfo?
        var lastByteRangeEnd: [String: Int64] = [:]
        var discontinuityCount: Int64 = 0
        var bitrateCarry: Int64?
        var lastExtinfLine: Int?

        init(file: String, url: String?, imported: [String: String]) {
            self.file = file
            self.playlist = Playlist(url: url)
            self.imported = imported
        }

        mutating func diag(_ line: Int, _ severity: Severity, _ message: String) {
            diagnostics.append(Diagnostic(SourceLocation(file: file, line: line), severity, message))
        }

        mutating func handle(line raw: String, number: Int) {
            var line = Substring(raw)
            while let l = line.last, l == " " || l == "\t" { line.removeLast() }
            if line.isEmpty { return }
            if !sawFirstLine {
                if line == "#EXTM3U" || line.hasPrefix("#EXTM3U") {
                    sawFirstLine = true
                    playlist.hasHeader = true
                    if number != 1 { diag(number, .info, "spec violation: #EXTM3U is not the first line") }
                    return
                }
                if line.hasPrefix("#"), !line.hasPrefix("#EXT") {
                    playlist.comments.append(.init(name: "#", value: String(line.dropFirst()), line: number))
                    return
                }
                sawFirstLine = true
                diag(number, .warning, "spec violation: playlist does not start with #EXTM3U")
            }
            if line.hasPrefix("#EXT") {
                handleTag(line, number)
            } else if line.hasPrefix("#") {
                playlist.comments.append(.init(name: "#", value: String(line.dropFirst()), line: number))
            } else {
                handleURI(String(line).trimmingSpaces, number)
            }
        }

        func substitute(_ s: String) -> String {
            // Only playlists that define variables pay for the search.
            guard !playlist.defines.isEmpty, s.utf8.contains(UInt8(ascii: "{")) else { return s }
            var out = ""
            var rest = Substring(s)
            while let open = rest.range(of: "{$") {
                out += rest[..<open.lowerBound]
                guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                    out += rest[open.lowerBound...]
                    return out
                }
                let name = String(rest[open.upperBound..<close])
                if let v = playlist.defines[name] {
                    out += v
                } else {
                    out += rest[open.lowerBound...close]
                }
                rest = rest[rest.index(after: close)...]
            }
            out += rest
            return out
        }

        mutating func attributes(_ value: Substring, _ tag: String, _ number: Int) -> AttributeList {
            var list = AttributeList(parsing: value)
            for d in list.deviations { diag(number, .info, "spec violation in \(tag): \(d)") }
            list.deviations = []
            if !playlist.defines.isEmpty {
                let defines = self
                list.substitute { defines.substitute($0) }
            }
            return list
        }

        mutating func parseByteRange(_ text: Substring, uri: String?, _ number: Int) -> ByteRange? {
            let parts = text.split(separator: "@", maxSplits: 1)
            guard let first = parts.first, let length = Int64(first.trimmingCharacters()) , length >= 0 else {
                diag(number, .warning, "invalid byte range '\(text)'")
                return nil
            }
            var offset: Int64
            if parts.count == 2 {
                guard let o = Int64(parts[1].trimmingCharacters()), o >= 0 else {
                    diag(number, .warning, "invalid byte range offset '\(text)'")
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

        mutating func parseKey(_ value: Substring, _ tag: String, _ number: Int) -> Playlist.Key {
            let a = attributes(value, tag, number)
            let method = a["METHOD"] ?? "NONE"
            if a["METHOD"] == nil { diag(number, .warning, "spec violation: \(tag) without METHOD") }
            if method != "NONE", a["URI"] == nil { diag(number, .warning, "spec violation: \(tag) METHOD=\(method) without URI") }
            return Playlist.Key(
                method: method, uri: a["URI"].map { resolve($0) }, iv: a["IV"], keyFormat: a["KEYFORMAT"],
                keyFormatVersions: a["KEYFORMATVERSIONS"], line: number)
        }

        func resolve(_ uri: String) -> String { URIResolver.resolve(uri, against: playlist.url) }

        mutating func handleTag(_ line: Substring, _ number: Int) {
            let name: Substring
            var value: Substring?
            if let colon = line.firstIndex(of: ":") {
                name = line[..<colon]
                var v = line[line.index(after: colon)...]
                if v.first == " " {
                    diag(number, .info, "spec violation: space after ':' in \(name)")
                    while v.first == " " { v.removeFirst() }
                }
                value = v
            } else {
                name = line
            }
            let v = value ?? ""
            switch name {
            case "#EXTM3U":
                diag(number, .info, "repeated #EXTM3U")
            case "#EXT-X-VERSION":
                if let n = Int(v.trimmingCharacters()) { playlist.version = n } else { diag(number, .warning, "invalid EXT-X-VERSION '\(v)'") }
            case "#EXTINF":
                if lastExtinfLine != nil, pendingDuration != nil {
                    diag(number, .warning, "EXTINF without a URI after the EXTINF at line \(lastExtinfLine ?? 0)")
                }
                let parts = v.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count < 2 { diag(number, .info, "spec violation: EXTINF without a comma") }
                let d = parts.first.flatMap { Double($0.trimmingCharacters()) }
                if let d, d.isFinite, d >= 0 {
                    pendingDuration = d
                    if d == 0 { diag(number, .info, "segment duration is 0") }
                } else {
                    diag(number, .warning, "invalid EXTINF duration '\(parts.first ?? "")'")
                    pendingDuration = nil
                }
                if parts.count == 2, !parts[1].isEmpty { pendingTitle = String(parts[1]) }
                lastExtinfLine = number
            case "#EXT-X-TARGETDURATION":
                if let d = Double(v.trimmingCharacters()), d.isFinite, d >= 0 {
                    playlist.targetDuration = d
                } else {
                    diag(number, .warning, "invalid EXT-X-TARGETDURATION '\(v)'")
                }
            case "#EXT-X-MEDIA-SEQUENCE":
                if let n = Int64(v.trimmingCharacters()) { playlist.mediaSequence = n } else { diag(number, .warning, "invalid EXT-X-MEDIA-SEQUENCE '\(v)'") }
            case "#EXT-X-DISCONTINUITY-SEQUENCE":
                if let n = Int64(v.trimmingCharacters()) {
                    playlist.discontinuitySequence = n
                    discontinuityCount = n
                } else {
                    diag(number, .warning, "invalid EXT-X-DISCONTINUITY-SEQUENCE '\(v)'")
                }
            case "#EXT-X-PLAYLIST-TYPE":
                let t = v.trimmingCharacters()
                if t == "VOD" || t == "EVENT" { playlist.playlistType = String(t) } else { diag(number, .warning, "invalid EXT-X-PLAYLIST-TYPE '\(v)'") }
            case "#EXT-X-ENDLIST":
                playlist.endList = true
            case "#EXT-X-I-FRAMES-ONLY":
                playlist.iFramesOnly = true
            case "#EXT-X-INDEPENDENT-SEGMENTS":
                playlist.independentSegments = true
            case "#EXT-X-ALLOW-CACHE":
                let t = v.trimmingCharacters().uppercased()
                if t == "YES" || t == "NO" { playlist.allowCache = t == "YES" } else { diag(number, .warning, "invalid EXT-X-ALLOW-CACHE '\(v)'") }
            case "#EXT-X-DISCONTINUITY":
                pendingDiscontinuity = true
            case "#EXT-X-BYTERANGE":
                pendingByteRange = parseByteRange(v, uri: nil, number)
            case "#EXT-X-PROGRAM-DATE-TIME":
                pendingProgramDateTime = String(v)
            case "#EXT-X-GAP":
                pendingGap = true
            case "#EXT-X-BITRATE":
                if let n = Int64(v.trimmingCharacters()) { bitrateCarry = n } else { diag(number, .warning, "invalid EXT-X-BITRATE '\(v)'") }
            case "#EXT-X-KEY":
                currentKey = parseKey(v, "EXT-X-KEY", number)
            case "#EXT-X-SESSION-KEY":
                playlist.isMultivariant = true
                playlist.sessionKeys.append(parseKey(v, "EXT-X-SESSION-KEY", number))
            case "#EXT-X-MAP":
                let a = attributes(v, "EXT-X-MAP", number)
                if let uri = a["URI"] {
                    let range = a["BYTERANGE"].flatMap { parseByteRange(Substring($0), uri: "map:" + uri, number) }
                    currentMap = Playlist.MapInfo(uri: resolve(uri), byteRange: range, line: number)
                } else {
                    diag(number, .warning, "spec violation: EXT-X-MAP without URI")
                }
            case "#EXT-X-PART":
                let a = attributes(v, "EXT-X-PART", number)
                guard let uri = a["URI"] else {
                    diag(number, .warning, "spec violation: EXT-X-PART without URI")
                    return
                }
                let range = a["BYTERANGE"].flatMap { parseByteRange(Substring($0), uri: "part:" + uri, number) }
                pendingParts.append(
                    Playlist.Part(
                        uri: resolve(uri), duration: a.decimal("DURATION"), independent: a.flag("INDEPENDENT"),
                        byteRange: range, gap: a.flag("GAP"), line: number))
            case "#EXT-X-PART-INF":
                playlist.partInf = attributes(v, "EXT-X-PART-INF", number)
            case "#EXT-X-SERVER-CONTROL":
                playlist.serverControl = attributes(v, "EXT-X-SERVER-CONTROL", number)
            case "#EXT-X-SKIP":
                let a = attributes(v, "EXT-X-SKIP", number)
                if playlist.skip != nil { diag(number, .warning, "spec violation: more than one EXT-X-SKIP") }
                playlist.skip = a
                if let skipped = a.integer("SKIPPED-SEGMENTS"), skipped >= 0 { skippedSegments = skipped }
            case "#EXT-X-PRELOAD-HINT":
                playlist.preloadHints.append(.init(name: "EXT-X-PRELOAD-HINT", attributes: attributes(v, "EXT-X-PRELOAD-HINT", number), line: number))
            case "#EXT-X-RENDITION-REPORT":
                playlist.renditionReports.append(.init(name: "EXT-X-RENDITION-REPORT", attributes: attributes(v, "EXT-X-RENDITION-REPORT", number), line: number))
            case "#EXT-X-DATERANGE":
                let a = attributes(v, "EXT-X-DATERANGE", number)
                if a["ID"] == nil { diag(number, .warning, "spec violation: EXT-X-DATERANGE without ID") }
                playlist.dateRanges.append(.init(name: "EXT-X-DATERANGE", attributes: a, line: number))
            case "#EXT-X-STREAM-INF":
                playlist.isMultivariant = true
                if pendingStreamInf != nil { diag(number, .warning, "EXT-X-STREAM-INF without a URI line after it") }
                let a = attributes(v, "EXT-X-STREAM-INF", number)
                if a["BANDWIDTH"] == nil { diag(number, .warning, "spec violation: EXT-X-STREAM-INF without BANDWIDTH") }
                pendingStreamInf = (a, number)
            case "#EXT-X-I-FRAME-STREAM-INF":
                playlist.isMultivariant = true
                let a = attributes(v, "EXT-X-I-FRAME-STREAM-INF", number)
                if let uri = a["URI"] {
                    playlist.iFrameVariants.append(
                        .init(uri: uri, resolvedURI: resolve(uri), attributes: a, isIFrame: true, line: number))
                } else {
                    diag(number, .warning, "spec violation: EXT-X-I-FRAME-STREAM-INF without URI")
                }
            case "#EXT-X-MEDIA":
                playlist.isMultivariant = true
                let a = attributes(v, "EXT-X-MEDIA", number)
                if a["TYPE"] == nil || a["GROUP-ID"] == nil || a["NAME"] == nil {
                    diag(number, .warning, "spec violation: EXT-X-MEDIA without TYPE, GROUP-ID or NAME")
                }
                playlist.renditions.append(.init(attributes: a, line: number))
            case "#EXT-X-SESSION-DATA":
                playlist.isMultivariant = true
                playlist.sessionData.append(.init(name: "EXT-X-SESSION-DATA", attributes: attributes(v, "EXT-X-SESSION-DATA", number), line: number))
            case "#EXT-X-CONTENT-STEERING":
                playlist.contentSteering = attributes(v, "EXT-X-CONTENT-STEERING", number)
            case "#EXT-X-START":
                playlist.start = attributes(v, "EXT-X-START", number)
            case "#EXT-X-DEFINE":
                let a = AttributeList(parsing: v)
                if let n = a["NAME"], let val = a["VALUE"] {
                    if playlist.defines[n] != nil { diag(number, .warning, "spec violation: variable \(n) defined twice") }
                    playlist.defines[n] = val
                } else if let n = a["IMPORT"] {
                    if let val = imported[n] {
                        playlist.defines[n] = val
                    } else {
                        diag(number, .warning, "EXT-X-DEFINE IMPORT=\(n): the multivariant playlist's variables are not known here")
                    }
                } else if let n = a["QUERYPARAM"] {
                    if let val = queryParameter(n) {
                        playlist.defines[n] = val
                    } else {
                        diag(number, .warning, "EXT-X-DEFINE QUERYPARAM=\(n): not in the playlist URL")
                    }
                } else {
                    diag(number, .warning, "spec violation: EXT-X-DEFINE without NAME/VALUE, IMPORT or QUERYPARAM")
                }
            default:
                playlist.otherTags.append(.init(name: String(name.dropFirst()), value: value.map(String.init), line: number))
            }
        }

        var skippedSegments: Int64 = 0

        func queryParameter(_ name: String) -> String? {
            guard let url = playlist.url, let q = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
            for pair in q.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if kv.first.map(String.init) == name { return kv.count > 1 ? String(kv[1]) : "" }
            }
            return nil
        }

        mutating func handleURI(_ rawURI: String, _ number: Int) {
            let uri = substitute(rawURI)
            if let (attrs, line) = pendingStreamInf {
                pendingStreamInf = nil
                playlist.variants.append(.init(uri: uri, resolvedURI: resolve(uri), attributes: attrs, isIFrame: false, line: line))
                return
            }
            var duration = pendingDuration
            if duration == nil {
                diag(number, .warning, "segment URI without EXTINF: duration taken from EXT-X-TARGETDURATION")
                duration = playlist.targetDuration ?? 0
            }
            if pendingDiscontinuity { discontinuityCount &+= 1 }
            let range = pendingByteRange
            let sequence = playlist.mediaSequence &+ skippedSegments &+ Int64(playlist.segments.count)
            playlist.segments.append(
                Playlist.Segment(
                    uri: uri, resolvedURI: resolve(uri), duration: duration ?? 0, title: pendingTitle, byteRange: range,
                    discontinuity: pendingDiscontinuity, discontinuitySequence: discontinuityCount,
                    mediaSequence: sequence, programDateTime: pendingProgramDateTime, key: currentKey, map: currentMap,
                    gap: pendingGap, bitrate: bitrateCarry, parts: pendingParts, line: number))
            pendingDuration = nil
            pendingTitle = nil
            pendingByteRange = nil
            pendingDiscontinuity = false
            pendingProgramDateTime = nil
            pendingGap = false
            pendingParts = []
            lastExtinfLine = nil
        }

        mutating func finish() {
            if !sawFirstLine { diag(1, .warning, "empty playlist") }
            if pendingStreamInf != nil { diag(pendingStreamInf?.1 ?? 0, .warning, "EXT-X-STREAM-INF without a URI line after it") }
            if pendingDuration != nil, pendingParts.isEmpty {
                if let l = lastExtinfLine { diag(l, .info, "EXTINF at the end without a URI") }
            }
            if !playlist.isMultivariant, !playlist.segments.isEmpty, playlist.targetDuration == nil {
                diag(1, .warning, "spec violation: media playlist without EXT-X-TARGETDURATION")
            }
        }
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
