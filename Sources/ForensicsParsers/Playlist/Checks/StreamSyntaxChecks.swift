import ForensicsCore

/// Checks of a playlist's lines and tags (RFC 8216bis §4.1–§4.3, §7): most are judged by the
/// parser, which reads leniently and reports the line.
enum StreamSyntaxChecks {
    static let all: [StreamCheck] = [
        StreamCheck(
            id: "extm3u-missing", title: "A playlist starts with #EXTM3U", source: "RFC 8216bis §4.4.1.1",
            level: .must, severity: .error,
            effect: "A file without #EXTM3U is not a playlist to a player: it refuses it.",
            advice: "Write #EXTM3U as the first line.",
            fires: ["#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"]),
        StreamCheck(
            id: "extm3u-not-first", title: "#EXTM3U is the very first line", source: "RFC 8216bis §4.4.1.1",
            level: .must, severity: .info,
            effect: "Comment or blank lines before #EXTM3U are read past by most players, refused by strict ones.",
            advice: "Write #EXTM3U first, with nothing (no byte order mark, no comment) before it.",
            fires: ["# made by the packager\n#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n# made by the packager\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"]),
        StreamCheck(
            id: "byte-order-mark", title: "No byte order mark", source: "RFC 8216bis §4.1", level: .must,
            severity: .warning,
            effect:
                "Playlists must not start with a UTF-8 byte order mark, and clients should refuse one that does: the stream may not play at all on a strict player.",
            advice: "Write the file as UTF-8 without a BOM (check the packager's or editor's encoding setting).",
            fires: ["\u{FEFF}#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"]),
        StreamCheck(
            id: "not-utf8", title: "The playlist is UTF-8", source: "RFC 8216bis §4.1", level: .must,
            severity: .warning,
            effect:
                "Clients should refuse a playlist that does not parse as UTF-8: a title or URI written in Latin-1 or another encoding can stop the stream on a strict player.",
            advice: "Write the playlist in UTF-8 (and percent-encode non-ASCII bytes in URIs).",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,Caf\\xE9 (Latin-1; \\xE9 is the raw byte)\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,Café\ns1.ts\n"]),
        StreamCheck(
            id: "tag-glued", title: "Each tag on a line of its own", source: "RFC 8216bis §4.1", level: .should,
            severity: .warning,
            effect:
                "Every line is a URI, blank, or one tag (§4.1): a tag written after another on the same line is part of that line, not a tag, and is lost.",
            advice: "End every tag with a line break; check the packager's or the CDN's line-ending handling.",
            fires: ["#EXTM3U#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"],
            passes: ["#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"]),
        StreamCheck(
            id: "control-character", title: "No control characters but CR and LF",
            source: "RFC 8216bis §4.1", level: .must, severity: .warning,
            effect:
                "A NUL, escape or other control character inside a tag or URI is kept by one player and cut or refused by another: the stream plays differently on each, or not at all.",
            advice:
                "Write playlists without control characters (U+0000–U+001F but CR and LF, U+007F–U+009F); check the packager's templates and any string it copies from metadata.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1\u{0}.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\u{85}title\ns1.ts\n",
            ],
            passes: [
                "#EXTM3U\r\n#EXT-X-TARGETDURATION:6\r\n#EXTINF:6,Zoë\r\ns1.ts\r\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\u{A0}title\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1\t2.ts\n",
            ]),
        StreamCheck(
            id: "tab-in-line", title: "No tab inside a line's text", source: "RFC 8216bis §4.1",
            level: .must, severity: .info,
            effect:
                "A tab is a control character the RFC forbids; inside a URI or a quoted value it is part of the name, and players we know of read it as a blank elsewhere. Tabs before or after a line's text are not reported (Apple's segmenter writes one after each EXTINF), nor those of EXT-X-SKIP, whose RECENTLY-REMOVED-DATERANGES the RFC itself writes as a tab-delimited list (§4.4.5.2).",
            advice: "Write a space where a separator is meant; percent-encode a tab that belongs in a URI (%09).",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1\t2.ts\n"],
            passes: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\t\n\ts1.ts\t\n",
                "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24\n#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES=\"ad1\tad2\"\n#EXTINF:4,\ns13.m4s\n",
            ]),
        StreamCheck(
            id: "multiple-version-tags", title: "At most one EXT-X-VERSION", source: "RFC 8216bis §4.4.1.2",
            level: .must, severity: .warning,
            effect: "Two versions leave it to the player which one holds.",
            advice: "Write one EXT-X-VERSION, the highest the playlist's features need.",
            fires: ["#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"]),
        StreamCheck(
            id: "tag-value-invalid", title: "Tag values have their type", source: "RFC 8216bis §4.2, §4.4",
            level: .must, severity: .warning,
            effect: "A value that does not read (a duration in words, a sequence number with a sign) is ignored.",
            advice: "Write decimal integers and floating-point numbers as RFC 8216bis §4.2 defines them.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:one\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00+99:99\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00+05:\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:18446744073709551616\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-13-45T99:00:00Z\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-02-29T10:00:00Z\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-03-01T24:00:00.5Z\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-03-01T10:00:60Z\n#EXTINF:6,\ns1.ts\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00.000\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00,500Z\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:18446744073709551615\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2028-02-29T23:59:60Z\n#EXTINF:6,\ns1.ts\n",
            ]),
        StreamCheck(
            id: "attribute-list-malformed", title: "Attribute lists are well formed", source: "RFC 8216bis §4.2",
            level: .must, severity: .warning,
            effect:
                "An attribute without its value (a wrapped line: `INDEPENDENT=` with `YES` on the next line) is lost, and its tail may be read as a line of its own.",
            advice: "Write every attribute as NAME=VALUE on the tag's one line; quote strings.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1,URI=\"p1.m4s\",INDEPENDENT=\n#EXTINF:6,\ns1.m4s\n",
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,BANDWIDTH=800000\nv1/index.m3u8\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1,URI=\"p1.m4s\",INDEPENDENT=YES\n#EXTINF:6,\ns1.m4s\n"
            ]),
        StreamCheck(
            id: "extinf-without-uri", title: "Every EXTINF is followed by its segment's URI",
            source: "RFC 8216bis §4.4.4.1", level: .must, severity: .warning,
            effect: "An EXTINF with no URI after it describes no segment: the segment it meant is missing.",
            advice: "Write the segment URI on the line after its EXTINF (not in the EXTINF's title).",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n#EXTINF:6,\ns2.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\ns2.ts\n"]),
        StreamCheck(
            id: "uri-without-extinf", title: "Every segment URI has an EXTINF", source: "RFC 8216bis §4.4.4.1",
            level: .must, severity: .warning,
            effect: "A URI line with no EXTINF before it is not a segment; it is not read as one.",
            advice: "Put an EXTINF with the segment's duration before each segment URI.",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\ns2.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\ns2.ts\n"]),
        StreamCheck(
            id: "uri-attribute-missing", title: "Tags that name a resource have a URI",
            source: "RFC 8216bis §4.4.4.5, §4.4.4.9, §4.4.6.3", level: .must, severity: .warning,
            effect: "An EXT-X-MAP, EXT-X-PART or EXT-X-I-FRAME-STREAM-INF without URI names nothing to load.",
            advice: "Give the tag its URI attribute.",
            fires: [
                "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:BYTERANGE=\"800@0\"\n#EXTINF:6,\ns1.m4s\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:6,\ns1.m4s\n"
            ]),
        StreamCheck(
            id: "mixed-playlist-tags", title: "A playlist is media or multivariant, not both",
            source: "RFC 8216bis §4.4.6", level: .must, severity: .error,
            effect:
                "Players read such a playlist as one kind and ignore the other's tags: variants or segments are lost.",
            advice: "Split it: the variants in a multivariant playlist, the segments in media playlists.",
            fires: [
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv1.m3u8\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"
            ],
            passes: ["#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv1.m3u8\n"],
            judge: { p, report in
                let multivariant =
                    !p.variants.isEmpty || !p.iFrameVariants.isEmpty || !p.renditions.isEmpty || !p.sessionKeys.isEmpty
                    || !p.sessionData.isEmpty
                guard multivariant, !p.segments.isEmpty else { return }
                report.add(
                    "mixed-playlist-tags", line: p.segments.line(at: 0),
                    "multivariant playlist tags (EXT-X-STREAM-INF, EXT-X-MEDIA, EXT-X-SESSION-KEY, EXT-X-SESSION-DATA) in a playlist that also lists \(p.segments.count) media segments"
                )
            }),
        StreamCheck(
            id: "playlist-truncated", title: "A playlist ends with a whole line",
            source: "RFC 8216bis §4.1, §4.4", level: .must, severity: .error,
            effect:
                "A file cut in the middle of its last line (a tag name, an open quote, an EXTINF without its comma) was cut short: the segments or variants after the cut are missing, and the player sees a different stream.",
            advice:
                "Fetch the playlist again and compare its length with the response's Content-Length; check the origin and CDN for responses cut short.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXT-X-END",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\ns2.ts\n#EXTINF:6,\ns",
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nv1/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1600000\nv2/in",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\ns2.ts",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\ns2.ts\n#EXTINF:6,\nhttps://ads.example.com/creative/segment?id=7",
            ]),
        StreamCheck(
            id: "vod-without-endlist", title: "A VOD playlist ends with EXT-X-ENDLIST",
            source: "RFC 8216bis §4.4.3.4, §4.4.3.5", level: .should, severity: .warning,
            effect:
                "EXT-X-PLAYLIST-TYPE:VOD says the playlist cannot change, but without EXT-X-ENDLIST it has no end: it was cut short, or a player reloads it as a live one and never reaches the end.",
            advice: "End a VOD playlist with EXT-X-ENDLIST; if it is cut short, fetch it again.",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"]),
        StreamCheck(
            id: "variable-undefined", title: "Every variable reference is defined", source: "RFC 8216bis §4.3",
            level: .must, severity: .error,
            effect:
                "A {$name} no EXT-X-DEFINE defines makes a playlist a client must refuse to parse: the stream does not play.",
            advice:
                "Define every variable the playlist references with EXT-X-DEFINE (NAME, or IMPORT from the multivariant playlist, or QUERYPARAM), or write the value itself.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$base}/s1.ts\n",
                "#EXTM3U\n#EXT-X-DEFINE:NAME=\"path\",VALUE=\"v1\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$base}/s1.ts\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-DEFINE:NAME=\"base\",VALUE=\"v1\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$base}/s1.ts\n",
                // Imported from a multivariant playlist that is not at hand: not known to be undefined.
                "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"base\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$base}/s1.ts\n",
            ]),
        StreamCheck(
            id: "variable-redefined", title: "A variable is defined once", source: "RFC 8216bis §4.4.2.3",
            level: .must, severity: .warning,
            effect: "Two EXT-X-DEFINE tags of one NAME leave it to each player which value is substituted.",
            advice: "Define each variable once per playlist.",
            fires: [
                "#EXTM3U\n#EXT-X-DEFINE:NAME=\"base\",VALUE=\"v1\"\n#EXT-X-DEFINE:NAME=\"base\",VALUE=\"v2\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$base}/s1.ts\n",
                "#EXTM3U\n#EXT-X-DEFINE:NAME=\"base\",VALUE=\"v1\"\n#EXT-X-DEFINE:IMPORT=\"base\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$base}/s1.ts\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-DEFINE:NAME=\"base\",VALUE=\"v1\"\n#EXT-X-DEFINE:NAME=\"other\",VALUE=\"v2\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$base}/s1.ts\n"
            ]),
        StreamCheck(
            id: "start-time-offset-missing", title: "EXT-X-START has its TIME-OFFSET", source: "RFC 8216bis §4.4.2.2",
            level: .must, severity: .warning,
            effect: "A start point without an offset says nothing: players ignore the tag and start where they would.",
            advice: "Write EXT-X-START:TIME-OFFSET=<seconds> (negative: from the end).",
            fires: ["#EXTM3U\n#EXT-X-START:PRECISE=YES\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-START:TIME-OFFSET=-12,PRECISE=YES\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n"]),
        StreamCheck(
            id: "media-playlist-tag-repeated", title: "Each Media Playlist tag at most once",
            source: "RFC 8216bis §4.4.3", level: .must, severity: .warning,
            effect:
                "Two EXT-X-TARGETDURATION (or MEDIA-SEQUENCE, DISCONTINUITY-SEQUENCE, PLAYLIST-TYPE, SKIP) values leave it to the player which holds: reload timing or segment numbering differ between players.",
            advice: "Write each Media Playlist tag once, in the playlist's header.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-TARGETDURATION:10\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=36\n#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-SKIP:SKIPPED-SEGMENTS=2\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3\n#EXTINF:6,\ns12.ts\n",
            ],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:6,\ns1.ts\n"]),
        StreamCheck(
            id: "sequence-tag-after-segment", title: "Sequence tags come before the first segment",
            source: "RFC 8216bis §4.4.3.2, §4.4.3.3", level: .must, severity: .warning,
            effect:
                "An EXT-X-MEDIA-SEQUENCE or EXT-X-DISCONTINUITY-SEQUENCE after a segment (or the latter after an EXT-X-DISCONTINUITY) numbers what comes before it otherwise than the playlist means: a live player may skip or repeat segments on reload.",
            advice: "Write EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE before the first EXTINF.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXT-X-MEDIA-SEQUENCE:5\n#EXTINF:6,\ns2.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DISCONTINUITY\n#EXT-X-DISCONTINUITY-SEQUENCE:3\n#EXTINF:6,\ns1.ts\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:5\n#EXTINF:6,\ns1.ts\n#EXTINF:6,\ns2.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-DISCONTINUITY-SEQUENCE:3\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\ns1.ts\n",
            ]),
        StreamCheck(
            id: "byterange-offset-missing",
            title: "A byte range without an offset follows a range of the same resource",
            source: "RFC 8216bis §4.4.4.2", level: .must, severity: .error,
            effect:
                "An EXT-X-BYTERANGE without @offset continues the segment before it; when that is another resource (or there is none) the segment is undefined and the client must fail to parse the playlist.",
            advice: "Write the offset (length@offset) on the first range of each resource.",
            fires: [
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-BYTERANGE:1000\n#EXTINF:6,\nall.ts\n",
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-BYTERANGE:1000@0\n#EXTINF:6,\na.ts\n#EXT-X-BYTERANGE:1000\n#EXTINF:6,\nb.ts\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-BYTERANGE:1000@0\n#EXTINF:6,\nall.ts\n#EXT-X-BYTERANGE:1000\n#EXTINF:6,\nall.ts\n"
            ]),
        StreamCheck(
            id: "version-too-low", title: "EXT-X-VERSION covers the features used", source: "RFC 8216bis §8",
            level: .must, severity: .info,
            effect: "A player that honours the version may refuse a feature the declared version does not have.",
            advice: "Declare the lowest version that covers every feature the playlist uses (§8 lists them).",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-BYTERANGE:1000@0\n#EXTINF:6,\nall.ts\n",
                "#EXTM3U\n#EXT-X-VERSION:2\n#EXT-X-TARGETDURATION:6\n#EXTINF:5.5,\ns1.ts\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-BYTERANGE:1000@0\n#EXTINF:6,\nall.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n",
            ],
            judge: { p, report in
                let declared = p.version ?? 1
                var needed: [(Int, String, Int)] = []
                // Only a playlist declaring less than 3 is walked for fractional durations.
                if declared < 3 {
                    for i in p.segments.indices {
                        let d = p.segments.duration(at: i)
                        if d < 1e15, Double(Int64(d)) != d {
                            needed.append((3, "floating-point EXTINF durations", p.segments.line(at: i)))
                            break
                        }
                    }
                }
                if let line = p.firstByteRangeLine { needed.append((4, "EXT-X-BYTERANGE", line)) }
                if p.iFramesOnly { needed.append((4, "EXT-X-I-FRAMES-ONLY", 0)) }
                for k in p.segments.keyTags {
                    if k.iv != nil { needed.append((2, "the IV attribute", k.line)) }
                    if k.keyFormat != nil || k.keyFormatVersions != nil {
                        needed.append((5, "KEYFORMAT/KEYFORMATVERSIONS", k.line))
                    }
                    if k.method == "SAMPLE-AES" { needed.append((5, "METHOD=SAMPLE-AES", k.line)) }
                }
                if let map = p.segments.mapTags.first {
                    needed.append(p.iFramesOnly ? (5, "EXT-X-MAP", map.line) : (6, "EXT-X-MAP", map.line))
                }
                if !p.defines.isEmpty { needed.append((8, "EXT-X-DEFINE", 0)) }
                guard let top = needed.max(by: { $0.0 < $1.0 }), top.0 > declared else { return }
                report.add(
                    "version-too-low", line: top.2,
                    "EXT-X-VERSION is \(p.version.map(String.init) ?? "absent (1)"), but \(top.1) needs version \(top.0) or higher"
                )
            }),
    ]
}
