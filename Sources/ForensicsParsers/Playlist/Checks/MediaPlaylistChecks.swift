import ForensicsCore

/// Checks of a media playlist's segments and timing (RFC 8216bis §4.4.3, §4.4.5, §6.2.2).
enum MediaPlaylistChecks {
    static let all: [StreamCheck] = [
        StreamCheck(
            id: "target-duration-missing", title: "A media playlist has EXT-X-TARGETDURATION",
            source: "RFC 8216bis §4.4.3.1", level: .must, severity: .error,
            effect:
                "Without a target duration a player cannot time its reloads or its buffer: many refuse the playlist.",
            advice: "Write EXT-X-TARGETDURATION: the longest segment duration, rounded to the nearest integer.",
            fires: ["#EXTM3U\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns1.ts\n#EXT-X-ENDLIST\n"]),
        StreamCheck(
            id: "target-duration-not-integer", title: "EXT-X-TARGETDURATION is a decimal integer",
            source: "RFC 8216bis §4.4.3.1", level: .must, severity: .warning,
            effect: "A fractional target duration is read differently by different players (cut or rounded).",
            advice: "Write the target duration as a whole number of seconds.",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6.5\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:7\n#EXTINF:6.5,\ns1.ts\n"],
            judge: { p, report in
                guard let t = p.targetDuration, t.rounded() != t else { return }
                report.add(
                    "target-duration-not-integer", line: p.targetDurationLine,
                    "EXT-X-TARGETDURATION is \(NumberFormat.trimmed(t, decimals: 3)), not a whole number")
            }),
        StreamCheck(
            id: "extinf-exceeds-target-duration", title: "No segment is longer than the target duration",
            source: "RFC 8216bis §4.4.3.1", level: .must, severity: .warning,
            effect:
                "The player times its reloads and its live edge by the target duration: longer segments make it reload too early, run out of buffer and rebuffer.",
            advice:
                "Set EXT-X-TARGETDURATION to the longest EXTINF rounded to the nearest integer, or cut segments on the keyframes the target allows.",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:7.1,\ns1.ts\n#EXTINF:8.1,\ns2.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.49,\ns1.ts\n#EXTINF:6.0,\ns2.ts\n"],
            judge: { p, report in
                // The parser kept the longest: the segments are walked only when one is too long.
                guard let target = p.targetDuration, !p.isMultivariant,
                    let longest = p.longestSegment, longest.duration.rounded(.toNearestOrAwayFromZero) > target
                else { return }
                var over: [(line: Int, d: Double)] = []
                for i in p.segments.indices {
                    let d = p.segments.duration(at: i)
                    if d.rounded(.toNearestOrAwayFromZero) > target { over.append((p.segments.line(at: i), d)) }
                }
                guard let first = over.first else { return }
                report.add(
                    "extinf-exceeds-target-duration", line: first.line,
                    "\(over.count) segment\(over.count == 1 ? "" : "s") longer than EXT-X-TARGETDURATION \(NumberFormat.trimmed(target, decimals: 3)) once rounded (the longest \(NumberFormat.trimmed(longest.duration, decimals: 3)) s)"
                )
            }),
        StreamCheck(
            id: "no-playable-segment", title: "A media playlist lists a segment to play",
            source: "RFC 8216bis §4.1 (a playlist without segments is valid but empty)", level: .should,
            severity: .error,
            effect:
                "Nothing to play: the player fails to start (or, live, waits for a reload that may never bring one).",
            advice:
                "Put each segment URI on its own line after its EXTINF; check that the packager wrote the segments.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-ENDLIST\n"
            ],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,one\nsegment1.ts\n#EXT-X-ENDLIST\n"],
            judge: { p, report in
                guard p.hasHeader, !p.isMultivariant, p.segments.isEmpty, p.trailingPartCount == 0,
                    p.preloadHints.isEmpty, p.skip == nil
                else { return }
                let extinfs = p.defects.filter { $0.check == "extinf-without-uri" }
                report.add(
                    "no-playable-segment", line: extinfs.first?.line ?? 0,
                    extinfs.isEmpty
                        ? "a media playlist with no segment"
                        : "a media playlist with \(extinfs.count) EXTINF tags and no segment URI line (URIs written in the EXTINF titles?)"
                )
            }),
        StreamCheck(
            id: "live-window-under-three-target-durations",
            title: "A live playlist keeps three target durations of segments", source: "RFC 8216bis §6.2.2",
            level: .must, severity: .info,
            effect:
                "Segments were removed while the playlist is shorter than three target durations: the player cannot keep the three it wants behind the live edge, reloads, rebuffers and may fail over. One capture cannot tell it from a stream that started at a later sequence number (info); successive captures can (`segments-removed-under-three-target-durations`, a warning).",
            advice:
                "Keep at least three target durations (Apple: six segments) in the live window before removing any.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:11\n#EXT-X-MEDIA-SEQUENCE:4\n#EXTINF:11,\ns4.ts\n#EXTINF:11.4,\ns5.ts\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:11\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:11,\ns0.ts\n#EXTINF:11.4,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:4\n#EXTINF:6,\ns4.ts\n#EXTINF:6,\ns5.ts\n#EXTINF:6,\ns6.ts\n",
            ],
            judge: { p, report in
                guard !p.isMultivariant, !p.endList, p.playlistType != "VOD", p.mediaSequence > 0, p.skip == nil,
                    let target = p.targetDuration, target > 0, !p.segments.isEmpty
                else { return }
                let total = p.totalDuration
                // A second of slack: EXTINF values are rounded by packagers (23.9 s for 3 × 8).
                guard total + 1 < 3 * target else { return }
                report.add(
                    "live-window-under-three-target-durations", line: p.segments.line(at: 0),
                    "a live playlist of \(NumberFormat.trimmed(total, decimals: 1)) s (under 3 × \(NumberFormat.trimmed(target, decimals: 1)) s) whose first \(p.mediaSequence) segments were already removed"
                )
            }),
        StreamCheck(
            id: "daterange-attributes",
            title: "EXT-X-DATERANGE has an ID, a start, ends after it starts, and the playlist has dates",
            source: "RFC 8216bis §4.4.5.1", level: .must, severity: .warning,
            effect:
                "An interstitial or ad marker without ID or start date, or in a playlist without EXT-X-PROGRAM-DATE-TIME to place it, is dropped by the player.",
            advice:
                "Give every EXT-X-DATERANGE an ID, and a START-DATE on the first tag of each ID; END-DATE, when given, not before START-DATE and equal to START-DATE + DURATION when both are given; END-ON-NEXT=YES only with a CLASS and without DURATION or END-DATE; write EXT-X-PROGRAM-DATE-TIME.",
            fires: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\",END-DATE=\"2026-11-21T10:00:05Z\"\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\",END-DATE=\"2026-11-21T10:00:15Z\",DURATION=30.0\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\",END-ON-NEXT=YES\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.example.ad\",START-DATE=\"2026-11-21T10:00:10Z\",DURATION=5.0,END-ON-NEXT=YES\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\"\n#EXTINF:6,\ns1.ts\n#EXT-X-DATERANGE:ID=\"ad1\",END-DATE=\"2026-11-21T10:00:40Z\",DURATION=5.0\n#EXTINF:6,\ns2.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\",PLANNED-DURATION=-30\n#EXTINF:6,\ns1.ts\n",
            ],
            passes: [
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\",END-DATE=\"2026-11-21T10:00:15Z\"\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\",END-DATE=\"2026-11-21T10:00:15Z\",DURATION=5.0\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.example.ad\",START-DATE=\"2026-11-21T10:00:10Z\",END-ON-NEXT=YES\n#EXTINF:6,\ns1.ts\n",
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z\n#EXT-X-DATERANGE:ID=\"ad1\",START-DATE=\"2026-11-21T10:00:10Z\"\n#EXTINF:6,\ns1.ts\n#EXT-X-DATERANGE:ID=\"ad1\",END-DATE=\"2026-11-21T10:00:40Z\",DURATION=30.0\n#EXTINF:6,\ns2.ts\n",
            ],
            judge: { p, report in
                if let first = p.dateRanges.first, p.skip == nil, !p.hasProgramDateTime {
                    report.add(
                        "daterange-attributes", line: first.line,
                        "EXT-X-DATERANGE in a playlist without EXT-X-PROGRAM-DATE-TIME")
                }
                var started: Set<String> = []
                // A later tag of an ID (the SCTE-35 "in" with END-DATE and DURATION) ends the
                // range an earlier tag of the ID started.
                var startOf: [String: Timestamp] = [:]
                for d in p.dateRanges {
                    let own = d.attributes["START-DATE"].flatMap { TimestampParser.parse($0) }
                    let id = d.attributes["ID"] ?? ""
                    let startedBefore = started.contains(id)
                    if d.attributes["START-DATE"] != nil { started.insert(id) }
                    if let own, startOf[id] == nil { startOf[id] = own }
                    let start = own ?? startOf[id]
                    // START-DATE may be left out of a later tag of the same ID, and a delta update
                    // (EXT-X-SKIP) may repeat a range by its ID alone.
                    if d.attributes["START-DATE"] == nil, !startedBefore, p.skip == nil {
                        report.add("daterange-attributes", line: d.line, "EXT-X-DATERANGE without START-DATE")
                    } else if d.attributes["START-DATE"] != nil, own == nil {
                        report.add(
                            "daterange-attributes", line: d.line, "EXT-X-DATERANGE START-DATE does not read as a date")
                    }
                    let end = d.attributes["END-DATE"].flatMap { TimestampParser.parse($0) }
                    if let start, let end, end < start {
                        report.add(
                            "daterange-attributes", line: d.line, "EXT-X-DATERANGE END-DATE before its START-DATE")
                    }
                    // Both an end and a duration: they must agree (to the millisecond they are written in).
                    if let start, let end, let duration = d.attributes["DURATION"].flatMap(Double.init),
                        abs((end - start) - duration) > 0.001
                    {
                        report.add(
                            "daterange-attributes", line: d.line,
                            "EXT-X-DATERANGE END-DATE is not START-DATE + DURATION (\(NumberFormat.trimmed(end - start, decimals: 3)) s against \(NumberFormat.trimmed(duration, decimals: 3)) s)"
                        )
                    }
                    for name in ["DURATION", "PLANNED-DURATION"] {
                        if let v = d.attributes[name].flatMap(Double.init), v < 0 {
                            report.add(
                                "daterange-attributes", line: d.line, "EXT-X-DATERANGE \(name) is negative")
                        }
                    }
                    // END-ON-NEXT ends the range at the next of its CLASS: it needs a CLASS, and an
                    // end of its own contradicts it.
                    if d.attributes["END-ON-NEXT"] == "YES" {
                        if d.attributes["CLASS"] == nil {
                            report.add(
                                "daterange-attributes", line: d.line, "EXT-X-DATERANGE END-ON-NEXT=YES without CLASS")
                        }
                        if d.attributes["DURATION"] != nil || d.attributes["END-DATE"] != nil {
                            report.add(
                                "daterange-attributes", line: d.line,
                                "EXT-X-DATERANGE END-ON-NEXT=YES with a DURATION or END-DATE")
                        }
                    }
                }
            }),
    ]
}
