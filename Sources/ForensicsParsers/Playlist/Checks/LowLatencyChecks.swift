import ForensicsCore

/// Checks of Low-Latency HLS tags (RFC 8216bis §4.4.3.7–§4.4.3.8, §4.4.4.9, §4.4.5.3).
enum LowLatencyChecks {
    static let head = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n"

    static let all: [StreamCheck] = [
        StreamCheck(
            id: "part-inf-missing", title: "A playlist with parts declares EXT-X-PART-INF",
            source: "RFC 8216bis §4.4.3.7", level: .must, severity: .error,
            effect:
                "Without a part target duration the player cannot time part reloads: low-latency playback falls back or fails.",
            advice: "Write EXT-X-PART-INF:PART-TARGET=<the longest part duration>.",
            fires: ["\(head)#EXT-X-PART:DURATION=1,URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n"],
            passes: [
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1,URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n"
            ],
            judge: { p, report in
                guard p.partInf == nil, let part = p.segments.partTags.first else { return }
                report.add("part-inf-missing", line: part.line, "EXT-X-PART without EXT-X-PART-INF")
            }),
        StreamCheck(
            id: "part-exceeds-part-target", title: "No part is longer than the part target duration",
            source: "RFC 8216bis §4.4.4.9", level: .must, severity: .warning,
            effect:
                "The player times part reloads by PART-TARGET: longer parts make it wait at the live edge and stall.",
            advice: "Cut parts no longer than PART-TARGET, or raise PART-TARGET.",
            fires: [
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1.5,URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n"
            ],
            passes: [
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1.0,URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n"
            ],
            judge: { p, report in
                guard let target = p.partInf?.decimal("PART-TARGET") else { return }
                for part in p.segments.partTags {
                    if let d = part.duration, d > target + 1e-9 {
                        report.add(
                            "part-exceeds-part-target", line: part.line,
                            "a part of \(NumberFormat.trimmed(d, decimals: 3)) s over PART-TARGET \(NumberFormat.trimmed(target, decimals: 3)) s"
                        )
                        return
                    }
                }
            }),
        StreamCheck(
            id: "hold-back-too-small", title: "HOLD-BACK and PART-HOLD-BACK leave room for reloads",
            source: "RFC 8216bis §4.4.3.8", level: .must, severity: .warning,
            effect:
                "A player holding back less than three target durations (two part targets, low latency) runs out of media between reloads and stalls.",
            advice:
                "HOLD-BACK at least 3 × EXT-X-TARGETDURATION; PART-HOLD-BACK at least 2 × PART-TARGET (Apple's authoring spec §14.3: 3 ×), and present whenever EXT-X-PART-INF is.",
            fires: [
                "\(head)#EXT-X-SERVER-CONTROL:HOLD-BACK=6\n#EXTINF:4,\ns1.m4s\n",
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-PART:DURATION=1,URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n",
            ],
            passes: [
                "\(head)#EXT-X-SERVER-CONTROL:HOLD-BACK=12\n#EXTINF:4,\ns1.m4s\n",
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1,URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n",
            ],
            judge: { p, report in
                if let hold = p.serverControl?.decimal("HOLD-BACK"), let t = p.targetDuration, hold < 3 * t {
                    report.add(
                        "hold-back-too-small", line: p.serverControlLine,
                        "HOLD-BACK=\(NumberFormat.trimmed(hold, decimals: 3)) under 3 × the target duration (\(NumberFormat.trimmed(3 * t, decimals: 3)))"
                    )
                }
                guard let partTarget = p.partInf?.decimal("PART-TARGET") else { return }
                if let partHold = p.serverControl?.decimal("PART-HOLD-BACK") {
                    if partHold < 2 * partTarget {
                        report.add(
                            "hold-back-too-small", line: p.serverControlLine,
                            "PART-HOLD-BACK=\(NumberFormat.trimmed(partHold, decimals: 3)) under 2 × PART-TARGET (\(NumberFormat.trimmed(2 * partTarget, decimals: 3)))"
                        )
                    }
                } else {
                    report.add(
                        "hold-back-too-small", line: p.partInfLine,
                        "EXT-X-PART-INF without PART-HOLD-BACK in EXT-X-SERVER-CONTROL")
                }
            }),
        StreamCheck(
            id: "preload-hint-type-invalid", title: "EXT-X-PRELOAD-HINT is of TYPE PART or MAP with a URI",
            source: "RFC 8216bis §4.4.5.3, §6.3.8", level: .must, severity: .info,
            effect:
                "A hint of another TYPE is ignored by the player (§6.3.8, for compatibility), one without URI cannot be used: the next part is requested late.",
            advice: "Write TYPE=PART or TYPE=MAP and the URI.",
            fires: [
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXTINF:4,\ns1.m4s\n#EXT-X-PRELOAD-HINT:TYPE=SEGMENT,URI=\"p2.m4s\"\n"
            ],
            passes: [
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXTINF:4,\ns1.m4s\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p2.m4s\"\n"
            ],
            judge: { p, report in
                for h in p.preloadHints {
                    let type = h.attributes["TYPE"]
                    if type != "PART" && type != "MAP" || h.attributes["URI"] == nil {
                        report.add(
                            "preload-hint-type-invalid", line: h.line,
                            "EXT-X-PRELOAD-HINT with TYPE=\(type ?? "none") \(h.attributes["URI"] == nil ? "and no URI" : "")"
                        )
                    }
                }
            }),
        StreamCheck(
            id: "part-duration-missing", title: "Every EXT-X-PART has its DURATION",
            source: "RFC 8216bis §4.4.4.9", level: .must, severity: .warning,
            effect:
                "A part without a duration cannot be placed on the timeline: players skip it or stop at the live edge.",
            advice: "Write DURATION on every EXT-X-PART.",
            fires: [
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n"
            ],
            passes: [
                "\(head)#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n#EXT-X-PART:DURATION=1,URI=\"p1.m4s\"\n#EXTINF:4,\ns1.m4s\n"
            ]),
        StreamCheck(
            id: "skip-boundary-too-small", title: "CAN-SKIP-UNTIL is at least six target durations",
            source: "RFC 8216bis §4.4.3.8", level: .must, severity: .warning,
            effect:
                "A skip boundary under six target durations lets a delta update leave out segments a player still needs: it falls back to full reloads or loses its place.",
            advice: "Set CAN-SKIP-UNTIL to at least six times EXT-X-TARGETDURATION.",
            fires: ["\(head)#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=6.0\n#EXTINF:4,\ns1.m4s\n"],
            passes: ["\(head)#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24.0\n#EXTINF:4,\ns1.m4s\n"],
            judge: { p, report in
                guard let target = p.targetDuration, target > 0,
                    let skip = p.serverControl?["CAN-SKIP-UNTIL"].flatMap(Double.init), skip < 6 * target
                else { return }
                report.add(
                    "skip-boundary-too-small", line: p.serverControlLine,
                    "CAN-SKIP-UNTIL=\(NumberFormat.trimmed(skip, decimals: 3)) under six target durations (\(NumberFormat.trimmed(6 * target, decimals: 3)) s)"
                )
            }),
    ]
}
