import ForensicsCore

/// Checks of `EXT-X-KEY` and `EXT-X-SESSION-KEY` (RFC 8216bis §4.4.4.4, §4.4.6.5, §5).
enum EncryptionChecks {
    static let methods: Set<String> = ["NONE", "AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR"]

    static let all: [StreamCheck] = [
        StreamCheck(
            id: "key-method-unknown", title: "EXT-X-KEY has a known METHOD", source: "RFC 8216bis §4.4.4.4",
            level: .must, severity: .error,
            effect: "A player that does not know the method cannot decrypt the segments: playback fails.",
            advice: "Use METHOD=NONE, AES-128, SAMPLE-AES or SAMPLE-AES-CTR.",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-256,URI=\"k\"\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:6,\ns1.ts\n"],
            judge: { p, report in
                for k in p.segments.keyTags + p.sessionKeys where !methods.contains(k.method) {
                    report.add("key-method-unknown", line: k.line, "METHOD=\(k.method) is not a method HLS defines")
                }
            }),
        StreamCheck(
            id: "key-uri-missing", title: "An encryption key names its URI", source: "RFC 8216bis §4.4.4.4",
            level: .must, severity: .error,
            effect: "No key to fetch: the encrypted segments cannot be decrypted.",
            advice: "Give EXT-X-KEY a URI unless METHOD=NONE.",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=NONE\n#EXTINF:6,\ns1.ts\n"]),
        StreamCheck(
            id: "key-aes128-drm-keyformat", title: "AES-128 keys are in the identity key format",
            source: "RFC 8216bis §4.4.4.4, §5.1", level: .must, severity: .error,
            effect:
                "Full-segment AES-128 takes the key as its 16 raw bytes (KEYFORMAT \"identity\"); a DRM system's key format is ignored by players that know only identity, which then cannot decrypt.",
            advice:
                "For AES-128 drop KEYFORMAT (or write \"identity\"); use SAMPLE-AES or SAMPLE-AES-CTR with a DRM key format.",
            fires: [
                "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"skd://k\",KEYFORMAT=\"urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed\"\n#EXTINF:6,\ns1.ts\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"https://k.example/k\",KEYFORMAT=\"identity\"\n#EXTINF:6,\ns1.ts\n"
            ],
            judge: { p, report in
                for k in p.segments.keyTags where k.method == "AES-128" {
                    guard let format = k.keyFormat, format != "identity" else { continue }
                    report.add(
                        "key-aes128-drm-keyformat", line: k.line,
                        "METHOD=AES-128 with KEYFORMAT=\"\(format)\": players that know only identity ignore the key")
                }
            }),
        StreamCheck(
            id: "key-none-with-attributes", title: "METHOD=NONE carries no other attribute",
            source: "RFC 8216bis §4.4.4.4", level: .must, severity: .warning,
            effect: "Players differ on whether such segments are encrypted.",
            advice: "Write EXT-X-KEY:METHOD=NONE alone.",
            fires: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=NONE,URI=\"k\"\n#EXTINF:6,\ns1.ts\n"],
            passes: ["#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=NONE\n#EXTINF:6,\ns1.ts\n"],
            judge: { p, report in
                for k in p.segments.keyTags where k.method == "NONE" {
                    if k.uri != nil || k.iv != nil || k.keyFormat != nil || k.keyFormatVersions != nil {
                        report.add("key-none-with-attributes", line: k.line, "METHOD=NONE with URI, IV or KEYFORMAT")
                    }
                }
            }),
        StreamCheck(
            id: "key-iv-malformed", title: "An IV is a 128-bit hexadecimal number", source: "RFC 8216bis §4.4.4.4",
            level: .must, severity: .error,
            effect: "An IV that does not read decrypts every segment wrong: playback fails or shows garbage.",
            advice: "Write IV=0x followed by 32 hexadecimal digits.",
            fires: [
                "#EXTM3U\n#EXT-X-VERSION:2\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x1234\n#EXTINF:6,\ns1.ts\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-VERSION:2\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x0123456789abcdef0123456789ABCDEF\n#EXTINF:6,\ns1.ts\n"
            ],
            judge: { p, report in
                for k in p.segments.keyTags + p.sessionKeys {
                    // A variable not substituted (`{$iv}`, imported from elsewhere) is not judged.
                    guard let iv = k.iv, !iv.contains("{$") else { continue }
                    let digits = iv.hasPrefix("0x") || iv.hasPrefix("0X") ? iv.dropFirst(2) : Substring("")
                    if digits.count != 32 || !digits.allSatisfy(\.isHexDigit) {
                        report.add(
                            "key-iv-malformed", line: k.line, "IV=\(iv.prefix(40)) is not 0x and 32 hexadecimal digits")
                    }
                }
            }),
        StreamCheck(
            id: "session-key-method-none", title: "EXT-X-SESSION-KEY is never METHOD=NONE",
            source: "RFC 8216bis §4.4.6.5", level: .must, severity: .warning,
            effect: "A session key that is no key makes the player preload nothing and may confuse key delivery.",
            advice: "Remove the EXT-X-SESSION-KEY, or give the real method and key.",
            fires: [
                "#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=NONE\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.64001f,mp4a.40.2\"\nv1.m3u8\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI=\"skd://k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.64001f,mp4a.40.2\"\nv1.m3u8\n"
            ],
            judge: { p, report in
                for k in p.sessionKeys where k.method == "NONE" {
                    report.add("session-key-method-none", line: k.line, "EXT-X-SESSION-KEY with METHOD=NONE")
                }
            }),
        StreamCheck(
            id: "map-iv-missing", title: "An AES-128 media initialization section has an IV",
            source: "RFC 8216bis §4.4.4.5", level: .must, severity: .warning,
            effect:
                "An EXT-X-MAP has no Media Sequence Number to stand in for the IV: under METHOD=AES-128 without an IV players cannot decrypt it, and the stream does not start.",
            advice: "Give the EXT-X-KEY that applies to the EXT-X-MAP an IV attribute.",
            fires: [
                "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:6,\ns1.m4s\n"
            ],
            passes: [
                "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x0123456789abcdef0123456789ABCDEF\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:6,\ns1.m4s\n",
                "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:6,\ns1.m4s\n",
            ]),
    ]
}
