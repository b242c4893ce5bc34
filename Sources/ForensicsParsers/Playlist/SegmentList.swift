import ForensicsCore

extension Playlist {
    /// The segments of a media playlist: a collection of `Segment` values, stored by row and built
    /// when read.
    ///
    /// Why not `[Segment]`: a 24-hour playlist has tens of thousands of segments, and a `Segment`
    /// is a 330-byte value holding up to eight heap references (URI, resolved URI, title,
    /// date-time, the key's and the map's strings). Making, copying and freeing those cost more
    /// than reading the playlist. Here a segment is one row of plain values: its texts are byte
    /// spans in one buffer shared by all segments, its key and map are indices into tables that
    /// hold each `EXT-X-KEY`/`EXT-X-MAP` once, and its resolved URI is made only when asked for.
    /// Nothing is lost: every field of `Segment` is there on access.
    package struct SegmentList: RandomAccessCollection, Sendable {
        /// Where a text sits in `text`: which chunk, where in it, how many bytes.
        struct Span {
            var chunk: Int32
            var start: Int32
            /// -1: no text (a segment without a title or date-time).
            var count: Int32

            static let none = Span(chunk: 0, start: 0, count: -1)
            var isNone: Bool { count < 0 }
        }

        /// One segment, without references (copying it is a plain memory copy), 48 bytes: what
        /// most segments have is here, what few have (a title, a date-time, a byte range, a
        /// bitrate) is in `Extras`, and the media and discontinuity sequence numbers, which
        /// change in steps, are in `Run`s, so that a 24-hour playlist's rows touch few pages: on
        /// this machine a fresh page costs about as much as parsing forty lines.
        struct Row {
            var uri: Span
            /// Indices into `keys`, `maps`, `partLists` and `extras`; -1 for none.
            var key: Int32
            var map: Int32
            var parts: Int32
            var extras: Int32
            var flags: Flags
            var duration: Double
            var line: Int

            struct Flags: OptionSet {
                var rawValue: UInt8
                static let discontinuity = Flags(rawValue: 1)
                static let gap = Flags(rawValue: 2)
            }
        }

        /// The rarer fields of a segment, shared by no other.
        struct Extras {
            /// `Span.none` when absent.
            var title: Span
            var programDateTime: Span
            var byteRangeOffset: Int64
            var byteRangeLength: Int64
            var bitrate: Int64
            var flags: Flags

            struct Flags: OptionSet {
                var rawValue: UInt8
                static let byteRange = Flags(rawValue: 1)
                static let byteRangeLength = Flags(rawValue: 2)
                static let bitrate = Flags(rawValue: 4)
            }

            var byteRange: ByteRange? {
                flags.contains(.byteRange)
                    ? ByteRange(
                        offset: byteRangeOffset, length: flags.contains(.byteRangeLength) ? byteRangeLength : nil)
                    : nil
            }
        }

        /// From row `first` on (until the next run): media sequence number = row index + `mediaOffset`,
        /// and the discontinuity sequence number. A playlist has one run, plus one per
        /// `EXT-X-DISCONTINUITY` or sequence jump.
        struct Run {
            var first: Int
            var mediaOffset: Int64
            var discontinuitySequence: Int64
        }

        /// The run that holds row `position` (the last one starting at or before it).
        func run(at position: Int) -> Run? {
            var low = 0
            var high = runs.count
            // Invariant: runs[..<low] start at or before position, runs[high...] after it.
            while low < high {
                let mid = low + (high - low) / 2
                if runs[mid].first <= position { low = mid + 1 } else { high = mid }
            }
            return low > 0 ? runs[low - 1] : nil
        }

        /// Adds a segment. Its rarer fields go to `extras` only when it has one of them.
        mutating func append(
            uri: Span, title: Span?, programDateTime: Span?, duration: Double, discontinuitySequence: Int64,
            mediaSequence: Int64, line: Int, byteRange: ByteRange?, bitrate: Int64?, key: Int32, map: Int32,
            parts: Int32, discontinuity: Bool, gap: Bool
        ) {
            var extrasIndex: Int32 = -1
            if title != nil || programDateTime != nil || byteRange != nil || bitrate != nil {
                var flags = Extras.Flags()
                if byteRange != nil { flags.insert(.byteRange) }
                if byteRange?.length != nil { flags.insert(.byteRangeLength) }
                if bitrate != nil { flags.insert(.bitrate) }
                extras.append(
                    Extras(
                        title: title ?? .none, programDateTime: programDateTime ?? .none,
                        byteRangeOffset: byteRange?.offset ?? 0, byteRangeLength: byteRange?.length ?? 0,
                        bitrate: bitrate ?? 0, flags: flags))
                // As for keys: two billion segments with extras is far beyond the size limits.
                extrasIndex = Int32(clamping: extras.count - 1)
            }
            let index = rows.count
            let mediaOffset = mediaSequence &- Int64(index)
            if let last = runs.last, last.mediaOffset == mediaOffset,
                last.discontinuitySequence == discontinuitySequence
            {
                // Same run: nothing to store.
            } else {
                runs.append(Run(first: index, mediaOffset: mediaOffset, discontinuitySequence: discontinuitySequence))
            }
            var flags = Row.Flags()
            if discontinuity { flags.insert(.discontinuity) }
            if gap { flags.insert(.gap) }
            rows.append(
                Row(
                    uri: uri, key: key, map: map, parts: parts, extras: extrasIndex, flags: flags, duration: duration,
                    line: line))
        }

        /// Rows and texts grow in chunks: a growing array copies everything it holds each time it
        /// doubles, which was a quarter of the parse of a 43,200-segment playlist.
        var rows = ChunkedArray<Row>()
        var extras = ChunkedArray<Extras>()
        var runs: [Run] = []
        /// The UTF-8 bytes of every segment's URI, title and date-time, in chunks of up to 64 KiB.
        /// Full chunks, in order; a span's chunk number indexes this, or names `textTail` when it
        /// equals `text.count`.
        var text: [[UInt8]] = []
        /// The chunk being filled, allocated at its full size; `textTailUsed` bytes hold texts.
        /// Why not `append(contentsOf:)` onto a chunk in `text`: that went through the generic
        /// sequence copy and two uniqueness checks; here a text is one `memcpy` into memory already
        /// there (8 % fewer instructions for the whole parse of a 43,200-segment playlist).
        var textTail: [UInt8] = []
        var textTailUsed = 0
        static let textChunkSize = 64 * 1024
        var keys: [Key] = []
        var maps: [MapInfo] = []
        var partLists: [[Part]] = []
        let resolver: URIResolver

        init(resolver: URIResolver) {
            self.resolver = resolver
        }

        package var startIndex: Int { 0 }
        package var endIndex: Int { rows.count }

        package subscript(position: Int) -> Segment {
            let r = rows[position]
            let uri = string(r.uri)
            let x = r.extras >= 0 ? extras[Int(r.extras)] : nil
            // Every row is in a run: the first row starts one.
            let run = run(at: position) ?? Run(first: 0, mediaOffset: 0, discontinuitySequence: 0)
            return Segment(
                uri: uri, resolvedURI: resolver.resolve(uri), duration: r.duration,
                title: x.flatMap { $0.title.isNone ? nil : string($0.title) }, byteRange: x?.byteRange,
                discontinuity: r.flags.contains(.discontinuity), discontinuitySequence: run.discontinuitySequence,
                mediaSequence: Int64(position) &+ run.mediaOffset,
                programDateTime: x.flatMap { $0.programDateTime.isNone ? nil : string($0.programDateTime) },
                key: r.key >= 0 ? keys[Int(r.key)] : nil, map: r.map >= 0 ? maps[Int(r.map)] : nil,
                gap: r.flags.contains(.gap), bitrate: x.flatMap { $0.flags.contains(.bitrate) ? $0.bitrate : nil },
                parts: r.parts >= 0 ? partLists[Int(r.parts)] : [], line: r.line)
        }

        /// The URI as written (after variable substitution), without building the whole segment.
        package func uri(at position: Int) -> String { string(rows[position].uri) }

        /// The URI resolved against the playlist's URL.
        package func resolvedURI(at position: Int) -> String { resolver.resolve(uri(at: position)) }

        /// The segment's `EXTINF` duration, without building the segment.
        package func duration(at position: Int) -> Double { rows[position].duration }

        /// The segment's URI line, without building the segment.
        package func line(at position: Int) -> Int { Int(rows[position].line) }

        /// Every `EXT-X-KEY`, `EXT-X-MAP` and `EXT-X-PART` tag, in order (the checks read them).
        package var keyTags: [Key] { keys }
        package var mapTags: [MapInfo] { maps }
        package var partTags: [Part] { partLists.flatMap { $0 } }

        /// Whether any segment is encrypted (a key other than `METHOD=NONE` applies to it).
        package var hasKeys: Bool {
            let encrypted = keys.map { $0.method != "NONE" }
            return rows.contains { $0.key >= 0 && encrypted[Int($0.key)] }
        }

        func string(_ span: Span) -> String {
            let chunk = Int(span.chunk)
            let start = Int(span.start)
            return (chunk < text.count ? text[chunk] : textTail).withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + Int(span.count))]), as: UTF8.self)
            }
        }

        /// Keeps bytes for a later row and says where they are. A text never straddles two chunks;
        /// one longer than a chunk gets a chunk of its own. The first chunk is small (most
        /// playlists in a bundle have a few segments) and chunks double up to 64 KiB.
        mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) -> Span {
            // Lines are cut far below this by the line reader; the clamp keeps the offsets in range.
            let count = Swift.min(bytes.count, Int(Int32.max) - Self.textChunkSize)
            if count > textTail.count - textTailUsed {
                let size = Swift.max(count, Swift.min(Self.textChunkSize, Swift.max(1024, textTail.count * 2)))
                if !textTail.isEmpty { text.append(textTail) }
                textTail = [UInt8](repeating: 0, count: size)
                textTailUsed = 0
            }
            let start = textTailUsed
            if count > 0, let source = bytes.baseAddress {
                textTail.withUnsafeMutableBufferPointer { chunk in
                    guard let base = chunk.baseAddress else { return }
                    (base + start).update(from: source, count: count)
                }
            }
            textTailUsed += count
            return Span(
                chunk: Int32(truncatingIfNeeded: text.count), start: Int32(truncatingIfNeeded: start),
                count: Int32(truncatingIfNeeded: count))
        }

        mutating func store(_ string: String) -> Span {
            var string = string
            return string.withUTF8 { store($0) }
        }

        /// Adds a key tag; rows refer to it by the returned index.
        /// (Outgrowing `Int32` would take two billion tags, tens of gigabytes of playlist, far above
        /// the default 2 GiB decompressed-size limit; clamped, an index still names an entry.)
        mutating func add(_ key: Key) -> Int32 {
            keys.append(key)
            return Int32(clamping: keys.count - 1)
        }

        mutating func add(_ map: MapInfo) -> Int32 {
            maps.append(map)
            return Int32(clamping: maps.count - 1)
        }

        mutating func add(_ parts: [Part]) -> Int32 {
            guard !parts.isEmpty else { return -1 }
            partLists.append(parts)
            return Int32(clamping: partLists.count - 1)
        }

    }
}
