import ForensicsCore

/// Checks of a multivariant playlist (RFC 8216bis §4.4.6) and what Apple's HLS Authoring
/// Specification for Apple Devices requires of one that a playlist alone shows.
enum MultivariantChecks {
    static let variant =
        "#EXT-X-STREAM-INF:BANDWIDTH=2000000,AVERAGE-BANDWIDTH=1800000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=1280x720"
    static let iframe =
        "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,CODECS=\"avc1.64001f\",RESOLUTION=1280x720,URI=\"v/iframe.m3u8\""

    /// The video codecs of a CODECS attribute (audio-only variants need no resolution).
    static func hasVideo(_ codecs: String) -> Bool {
        codecs.split(separator: ",").contains { c in
            let s = c.trimmingCharacters(in: " ").lowercased()
            return ["avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe", "av01", "vp09"].contains { s.hasPrefix($0) }
        }
    }

    static let all: [StreamCheck] = [
        StreamCheck(
            id: "stream-inf-bandwidth-missing", title: "Every variant declares its BANDWIDTH",
            source: "RFC 8216bis §4.4.6.2", level: .must, severity: .error,
            effect: "Without a peak bit rate the player cannot choose between variants; some skip the variant.",
            advice: "Give every EXT-X-STREAM-INF its BANDWIDTH (the peak segment bit rate).",
            fires: ["#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=1280x720\nv1.m3u8\n"],
            passes: ["#EXTM3U\n\(variant)\nv1.m3u8\n"]),
        StreamCheck(
            id: "stream-inf-uri-missing", title: "Every EXT-X-STREAM-INF is followed by its URI",
            source: "RFC 8216bis §4.4.6.2", level: .must, severity: .error,
            effect: "A variant without a URI line cannot be loaded.",
            advice: "Write the variant's playlist URI on the line after its EXT-X-STREAM-INF.",
            fires: ["#EXTM3U\n\(variant)\n"],
            passes: ["#EXTM3U\n\(variant)\nv1.m3u8\n"]),
        StreamCheck(
            id: "media-attributes-missing", title: "EXT-X-MEDIA has TYPE, GROUP-ID and NAME",
            source: "RFC 8216bis §4.4.6.1", level: .must, severity: .warning,
            effect: "A rendition without them cannot be offered or chosen.",
            advice: "Give every EXT-X-MEDIA its TYPE, GROUP-ID and NAME.",
            fires: ["#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME=\"English\",URI=\"a/en.m3u8\"\n\(variant)\nv1.m3u8\n"],
            passes: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"a/en.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ]),
        StreamCheck(
            id: "rendition-group-undefined", title: "A variant's rendition groups exist",
            source: "RFC 8216bis §4.4.6.2", level: .must, severity: .error,
            effect:
                "The variant names an AUDIO, VIDEO or SUBTITLES group no EXT-X-MEDIA defines: players refuse the variant or play it without that media.",
            advice: "Define the group with EXT-X-MEDIA tags of that TYPE and GROUP-ID, or drop the attribute.",
            fires: ["#EXTM3U\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"],
            passes: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"a/en.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ],
            judge: { p, report in
                var groups: Set<String> = []
                for r in p.renditions { if let t = r.type, let g = r.groupID { groups.insert(t + "\u{0}" + g) } }
                for v in p.variants + p.iFrameVariants {
                    for (attribute, type) in [
                        ("AUDIO", "AUDIO"), ("VIDEO", "VIDEO"), ("SUBTITLES", "SUBTITLES"),
                        ("CLOSED-CAPTIONS", "CLOSED-CAPTIONS"),
                    ] {
                        guard let g = v.attributes[attribute], !(attribute == "CLOSED-CAPTIONS" && g == "NONE") else {
                            continue
                        }
                        if !groups.contains(type + "\u{0}" + g) {
                            report.add(
                                "rendition-group-undefined", line: v.line,
                                "\(attribute)=\"\(g)\" names a group no EXT-X-MEDIA of TYPE=\(type) defines")
                        }
                    }
                }
            }),
        StreamCheck(
            id: "closed-captions-rendition", title: "Closed-caption renditions have INSTREAM-ID and no URI",
            source: "RFC 8216bis §4.4.6.1", level: .must, severity: .warning,
            effect: "Captions in the video stream are found by INSTREAM-ID; a URI on them is not allowed.",
            advice: "For TYPE=CLOSED-CAPTIONS write INSTREAM-ID (CC1…CC4, SERVICE1…) and no URI.",
            fires: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",URI=\"cc.m3u8\"\n\(variant),CLOSED-CAPTIONS=\"cc\"\nv1.m3u8\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",INSTREAM-ID=\"CC1\"\n\(variant),CLOSED-CAPTIONS=\"cc\"\nv1.m3u8\n"
            ],
            judge: { p, report in
                for r in p.renditions where r.type == "CLOSED-CAPTIONS" {
                    if r.uri != nil {
                        report.add("closed-captions-rendition", line: r.line, "a CLOSED-CAPTIONS rendition with a URI")
                    }
                    if r.attributes["INSTREAM-ID"] == nil {
                        report.add(
                            "closed-captions-rendition", line: r.line, "a CLOSED-CAPTIONS rendition without INSTREAM-ID"
                        )
                    }
                }
            }),
        StreamCheck(
            id: "rendition-name-duplicate", title: "Rendition names are unique within a group",
            source: "RFC 8216bis §4.4.6.1.1", level: .must, severity: .warning,
            effect: "Two renditions with one name cannot be told apart in the player's menu.",
            advice: "Name every rendition of a group differently.",
            fires: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"a/en.m3u8\"\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"a/en2.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",URI=\"a/en.m3u8\"\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"Deutsch\",URI=\"a/de.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ],
            judge: { p, report in
                var seen: Set<String> = []
                for r in p.renditions {
                    guard let t = r.type, let g = r.groupID, let n = r.name else { continue }
                    if !seen.insert(t + "\u{0}" + g + "\u{0}" + n).inserted {
                        report.add("rendition-name-duplicate", line: r.line, "NAME=\"\(n)\" twice in group \(g)")
                    }
                }
            }),
        StreamCheck(
            id: "codecs-missing", title: "Every variant declares its CODECS",
            source: "Apple HLS Authoring Specification §9.1; RFC 8216bis §4.4.6.2 (SHOULD)", level: .must,
            severity: .info,
            effect:
                "Without CODECS the player downloads a variant before it knows it can play it: a slower start, and a switch to a variant it cannot decode.",
            advice:
                "Give every EXT-X-STREAM-INF a CODECS attribute listing every codec of the variant and its renditions.",
            fires: ["#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720\nv1.m3u8\n"],
            passes: ["#EXTM3U\n\(variant)\nv1.m3u8\n"],
            judge: { p, report in
                for v in p.variants where v.attributes["CODECS"] == nil {
                    report.add("codecs-missing", line: v.line, "EXT-X-STREAM-INF without CODECS")
                }
            }),
        StreamCheck(
            id: "resolution-missing", title: "Video variants declare their RESOLUTION",
            source: "Apple HLS Authoring Specification §9.2", level: .must, severity: .info,
            effect: "Without it the player cannot cap the variant to the screen size.",
            advice: "Give every video variant a RESOLUTION.",
            fires: ["#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.64001f,mp4a.40.2\"\nv1.m3u8\n"],
            passes: [
                "#EXTM3U\n\(variant)\nv1.m3u8\n",
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
            ],
            judge: { p, report in
                for v in p.variants where v.attributes["RESOLUTION"] == nil {
                    guard let codecs = v.attributes["CODECS"], hasVideo(codecs) else { continue }
                    report.add("resolution-missing", line: v.line, "a video variant without RESOLUTION")
                }
            }),
        StreamCheck(
            id: "average-bandwidth-missing", title: "Variants declare AVERAGE-BANDWIDTH",
            source: "Apple HLS Authoring Specification §9.14", level: .must, severity: .info,
            effect: "The player chooses by peak bit rate alone and may start lower than the network allows.",
            advice: "Give every EXT-X-STREAM-INF its AVERAGE-BANDWIDTH.",
            fires: [
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.64001f,mp4a.40.2\",RESOLUTION=1280x720\nv1.m3u8\n"
            ],
            passes: ["#EXTM3U\n\(variant)\nv1.m3u8\n"],
            judge: { p, report in
                for v in p.variants where v.attributes["AVERAGE-BANDWIDTH"] == nil && v.attributes["BANDWIDTH"] != nil {
                    report.add("average-bandwidth-missing", line: v.line, "EXT-X-STREAM-INF without AVERAGE-BANDWIDTH")
                }
            }),
        StreamCheck(
            id: "iframe-playlists-missing", title: "Video streams offer I-frame playlists",
            source: "Apple HLS Authoring Specification §6.1", level: .must, severity: .info,
            effect: "No scrubbing thumbnails and no fast-forward or rewind on Apple devices.",
            advice: "Add EXT-X-I-FRAME-STREAM-INF playlists for the video variants.",
            fires: ["#EXTM3U\n\(variant)\nv1.m3u8\n"],
            passes: ["#EXTM3U\n\(variant)\nv1.m3u8\n\(iframe)\n"],
            judge: { p, report in
                guard p.isMultivariant, p.iFrameVariants.isEmpty,
                    p.variants.contains(where: {
                        $0.attributes["CODECS"].map(hasVideo) ?? ($0.attributes["RESOLUTION"] != nil)
                    })
                else { return }
                report.add("iframe-playlists-missing", line: 0, "video variants without any EXT-X-I-FRAME-STREAM-INF")
            }),
        StreamCheck(
            id: "rendition-default-autoselect", title: "A DEFAULT rendition is also AUTOSELECT",
            source: "RFC 8216bis §4.4.6.1", level: .must, severity: .warning,
            effect:
                "DEFAULT=YES with AUTOSELECT=NO contradicts itself: the rendition to play without a choice is one the player may not choose.",
            advice: "Write AUTOSELECT=YES (or leave it out) on the DEFAULT rendition.",
            fires: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=NO,URI=\"a/en.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",DEFAULT=YES,AUTOSELECT=YES,URI=\"a/en.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ],
            judge: { p, report in
                for r in p.renditions where r.attributes["DEFAULT"] == "YES" && r.attributes["AUTOSELECT"] == "NO" {
                    report.add(
                        "rendition-default-autoselect", line: r.line, "EXT-X-MEDIA with DEFAULT=YES and AUTOSELECT=NO")
                }
            }),
        StreamCheck(
            id: "rendition-default-repeated", title: "At most one DEFAULT rendition in a group",
            source: "RFC 8216bis §4.4.6.1.1", level: .must, severity: .warning,
            effect: "Two defaults in one group leave it to each player which one plays.",
            advice: "Mark one rendition of each group DEFAULT=YES.",
            fires: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",DEFAULT=YES,URI=\"a/en.m3u8\"\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"Deutsch\",DEFAULT=YES,URI=\"a/de.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",DEFAULT=YES,URI=\"a/en.m3u8\"\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"Deutsch\",DEFAULT=NO,URI=\"a/de.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n"
            ],
            judge: { p, report in
                var seen: Set<String> = []
                for r in p.renditions where r.attributes["DEFAULT"] == "YES" {
                    guard let t = r.type, let g = r.groupID else { continue }
                    if !seen.insert(t + "\u{0}" + g).inserted {
                        report.add(
                            "rendition-default-repeated", line: r.line, "a second DEFAULT=YES rendition in group \(g)")
                    }
                }
            }),
        StreamCheck(
            id: "rendition-attribute-for-type", title: "FORCED and INSTREAM-ID only on their TYPE",
            source: "RFC 8216bis §4.4.6.1", level: .must, severity: .warning,
            effect:
                "FORCED means something only for SUBTITLES and INSTREAM-ID only for CLOSED-CAPTIONS: on another TYPE the rendition is malformed, and strict players refuse it.",
            advice:
                "Drop FORCED from renditions that are not SUBTITLES and INSTREAM-ID from those that are not CLOSED-CAPTIONS.",
            fires: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",FORCED=YES,URI=\"a/en.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n",
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aac\",NAME=\"English\",INSTREAM-ID=\"CC1\",URI=\"a/en.m3u8\"\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",FORCED=YES,URI=\"s/en.m3u8\"\n\(variant),SUBTITLES=\"subs\"\nv1.m3u8\n"
            ],
            judge: { p, report in
                for r in p.renditions {
                    if r.attributes["FORCED"] != nil, r.type != "SUBTITLES" {
                        report.add(
                            "rendition-attribute-for-type", line: r.line,
                            "FORCED on an EXT-X-MEDIA of TYPE \(r.type ?? "none"), not SUBTITLES")
                    }
                    if r.attributes["INSTREAM-ID"] != nil, r.type != "CLOSED-CAPTIONS" {
                        report.add(
                            "rendition-attribute-for-type", line: r.line,
                            "INSTREAM-ID on an EXT-X-MEDIA of TYPE \(r.type ?? "none"), not CLOSED-CAPTIONS")
                    }
                }
            }),
        StreamCheck(
            id: "closed-captions-none-mixed", title: "CLOSED-CAPTIONS=NONE on every variant or none",
            source: "RFC 8216bis §4.4.6.2", level: .must, severity: .warning,
            effect:
                "NONE says the stream carries no captions; beside variants that name a captions group, switching variants turns captions on and off.",
            advice: "Write CLOSED-CAPTIONS=NONE on every EXT-X-STREAM-INF, or on none of them.",
            fires: [
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"English\",INSTREAM-ID=\"CC1\"\n\(variant),CLOSED-CAPTIONS=\"cc\"\nv1.m3u8\n\(variant),CLOSED-CAPTIONS=NONE\nv2.m3u8\n"
            ],
            passes: [
                "#EXTM3U\n\(variant),CLOSED-CAPTIONS=NONE\nv1.m3u8\n\(variant),CLOSED-CAPTIONS=NONE\nv2.m3u8\n"
            ],
            judge: { p, report in
                let none = p.variants.filter { $0.attributes["CLOSED-CAPTIONS"] == "NONE" }
                guard let first = none.first, none.count < p.variants.count,
                    let other = p.variants.first(where: { $0.attributes["CLOSED-CAPTIONS"] != "NONE" })
                else { return }
                report.add(
                    "closed-captions-none-mixed", line: other.line,
                    "CLOSED-CAPTIONS=NONE on \(none.count) of \(p.variants.count) variants (first at line \(first.line)), not on this one"
                )
            }),
        StreamCheck(
            id: "session-data-attributes", title: "EXT-X-SESSION-DATA has DATA-ID and VALUE or URI, once per language",
            source: "RFC 8216bis §4.4.6.4", level: .must, severity: .warning,
            effect: "Session data without its DATA-ID, or with both or neither of VALUE and URI, cannot be read.",
            advice: "Give every EXT-X-SESSION-DATA a DATA-ID, and either a VALUE or a URI.",
            fires: [
                "#EXTM3U\n#EXT-X-SESSION-DATA:VALUE=\"x\",URI=\"d.json\"\n\(variant)\nv1.m3u8\n",
                "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\"\n\(variant)\nv1.m3u8\n",
                "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"A film\",LANGUAGE=\"en\"\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"The film\",LANGUAGE=\"en\"\n\(variant)\nv1.m3u8\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"A film\"\n\(variant)\nv1.m3u8\n",
                "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"A film\",LANGUAGE=\"en\"\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Ein Film\",LANGUAGE=\"de\"\n\(variant)\nv1.m3u8\n",
            ],
            judge: { p, report in
                var seen: Set<String> = []
                for d in p.sessionData {
                    // No two with one DATA-ID and one LANGUAGE (§4.4.6.4).
                    if let id = d.attributes["DATA-ID"],
                        !seen.insert(id + "\u{0}" + (d.attributes["LANGUAGE"] ?? "")).inserted
                    {
                        report.add(
                            "session-data-attributes", line: d.line,
                            "a second EXT-X-SESSION-DATA with DATA-ID \(id) and the same LANGUAGE")
                    }
                    if d.attributes["DATA-ID"] == nil {
                        report.add("session-data-attributes", line: d.line, "EXT-X-SESSION-DATA without DATA-ID")
                    }
                    switch (d.attributes["VALUE"] != nil, d.attributes["URI"] != nil) {
                    case (true, true):
                        report.add(
                            "session-data-attributes", line: d.line, "EXT-X-SESSION-DATA with both VALUE and URI")
                    case (false, false):
                        report.add(
                            "session-data-attributes", line: d.line, "EXT-X-SESSION-DATA with neither VALUE nor URI")
                    default: break
                    }
                }
            }),
    ]
}
