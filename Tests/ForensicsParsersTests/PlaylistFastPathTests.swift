import ForensicsCore
import Foundation
import Testing

@testable import ForensicsParsers

/// The byte-level playlist parser takes shortcuts for speed; each must give exactly what the
/// general path (Foundation's URL resolution, the standard library's number parsing) gives.
@Suite struct PlaylistFastPathTests {
    static let bases = [
        "https://cdn.example.com/live/event/v20/index.m3u8",
        "https://cdn.example.com/live/index.m3u8?token=abc%3D&exp=1700000000",
        "http://127.0.0.1:8080/request.m3u8?url=aHR0cHM6Ly9leGFtcGxl",
        "https://cdn.example.com/",
        "https://cdn.example.com",
        "https://cdn.example.com/a/./b/index.m3u8",
        "https://cdn.example.com/a/../b/index.m3u8",
        "https://CDN.Example.com/A/index.m3u8",
        "https://user@cdn.example.com/a/index.m3u8",
        "https://cdn.example.com/a/index.m3u8#frag",
        "https://cdn.example.com/a b/index.m3u8",
        "ftp://cdn.example.com/a/index.m3u8",
    ]

    static let references = [
        "segment_00001.m4s", "v20/s74.m4s", "/live/s74.m4s", "s1.ts?token=abc&sig=x%2Fy", "s1.ts?a=b?c",
        "../v2/s2.ts", "./s2.ts", "a/./b.ts", "a/../b.ts", "..", ".", "...", "..a/b.ts", "a/..b.ts",
        "//other.example.com/s.ts", "?only=query", "#frag", "s.ts#frag", "s%zz.ts", "s%2.ts", "s%41.ts",
        "a b.ts", "a:b.ts", "ünï.ts", "s.ts?q=1#f", "", "/", "a//b.ts", "~user/(1)!$&'*+,;=@.ts",
        "https://abs.example.com/x.ts", "skd://key-1", "data:text/plain,hi",
    ]

    @Test(arguments: bases)
    func fastResolutionAgreesWithFoundation(base: String) {
        let resolver = URIResolver(base: base)
        for reference in Self.references {
            #expect(
                resolver.resolve(reference) == URIResolver.resolveWithFoundation(reference, against: base),
                "\(reference) against \(base)")
        }
    }

    @Test func plainReferencesAreRecognised() {
        #expect(URIResolver.isPlainReference("segment_00001.m4s"))
        #expect(URIResolver.isPlainReference("/live/s74.m4s?token=a%3D"))
        #expect(!URIResolver.isPlainReference("../v2/s2.ts"))
        #expect(!URIResolver.isPlainReference("//host/s.ts"))
        #expect(!URIResolver.isPlainReference("s%zz.ts"))
        #expect(!URIResolver.isPlainReference("s.ts#frag"))
    }

    @Test func decimalsMatchTheStandardLibrary() {
        var samples = [
            "6.006", "2", "2.000", "10.", ".5", "+5", "-1", "1e1", "0x10", "nan", "inf", "", ".", "..", "1.2.3",
            "0.1000000000000000055511151231257827", "9.99999999999999999999", "123456789012345", "1234567890123456",
            "0.3", "00000000000000000000000000000001.5", "4.00008", "0.33334", "٣", "1_0", "9007199254740993",
            "0.0000000000000000000001", "0.00000000000000000000001",
        ]
        // Random plain decimals of every length the fast path accepts and just beyond.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let intDigits = Int.random(in: 0...9, using: &generator)
            let fracDigits = Int.random(in: 0...9, using: &generator)
            let digits = (0..<(intDigits + fracDigits)).map { _ in String(Int.random(in: 0...9, using: &generator)) }
            samples.append(digits[..<intDigits].joined() + "." + digits[intDigits...].joined())
        }
        for text in samples {
            var copy = text
            let fast = copy.withUTF8 { DecimalScanner.double($0) }
            let reference = Double(text)
            #expect(
                fast?.bitPattern == reference?.bitPattern || (fast?.isNaN == true && reference?.isNaN == true),
                "\(text)")
            let integer = copy.withUTF8 { DecimalScanner.int64($0) }
            #expect(integer == Int64(text), "\(text)")
        }
    }

    @Test func tagNamesAreRecognisedExactly() {
        for tag in PlaylistTag.allCases {
            let n = tag.name
            let bytes = UnsafeBufferPointer(start: n.utf8Start, count: n.utf8CodeUnitCount)
            #expect(PlaylistTag(name: bytes) == tag)
        }
        for other in ["#EXTINFO", "#EXT-X-KEYS", "#ext-x-key", "#EXT-X-CUE-OUT", "#EXT", ""] {
            var copy = other
            #expect(copy.withUTF8 { PlaylistTag(name: $0) } == nil, "\(other)")
        }
    }

    @Test func extinfIsRecognisedAsOneWord() {
        for (line, expected) in [
            ("#EXTINF:2.000,", true), ("#EXTINF:", true), ("#EXTINF,2", false), ("#extinf:2", false),
            ("#EXT-X-KEY:METHOD=NONE", false), ("#EXTINFO:2", false), ("segment.ts", false),
        ] {
            var copy = line
            #expect(copy.withUTF8 { $0.count >= 8 && PlaylistParser.State.startsWithExtinf($0) } == expected, "\(line)")
        }
    }

    /// Rows hold what every segment has; a title, date-time, byte range or bitrate lives in a side
    /// table. Segments with and without them, interleaved, must each read back their own.
    @Test func rarerFieldsReadBackPerSegment() {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:6.006,first title
            a.ts
            #EXTINF:6,
            b.ts
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T00:00:12.000Z
            #EXT-X-BYTERANGE:100@5
            #EXTINF:5.5,
            c.ts
            #EXT-X-BYTERANGE:50
            #EXTINF:4,
            c.ts
            #EXT-X-BITRATE:800
            #EXT-X-DISCONTINUITY
            #EXTINF:3,t
            d.ts
            #EXT-X-GAP
            #EXTINF:2,
            e.ts
            """
        let segments = Array(
            PlaylistParser(file: "p.m3u8", url: "https://h.example/v/p.m3u8").parse(text: text).playlist.segments)
        #expect(segments.map(\.uri) == ["a.ts", "b.ts", "c.ts", "c.ts", "d.ts", "e.ts"])
        #expect(segments.map(\.title) == ["first title", nil, nil, nil, "t", nil])
        #expect(segments.map(\.programDateTime) == [nil, nil, "2026-11-21T00:00:12.000Z", nil, nil, nil])
        #expect(
            segments.map(\.byteRange) == [
                nil, nil, ByteRange(offset: 5, length: 100), ByteRange(offset: 105, length: 50), nil, nil,
            ])
        // EXT-X-BITRATE applies to the segments after it until the next one.
        #expect(segments.map(\.bitrate) == [nil, nil, nil, nil, 800, 800])
        #expect(segments.map(\.discontinuity) == [false, false, false, false, true, false])
        #expect(segments.map(\.gap) == [false, false, false, false, false, true])
        #expect(segments.map(\.duration) == [6.006, 6, 5.5, 4, 3, 2])
        #expect(segments.map(\.line) == [4, 6, 10, 13, 17, 20])
        #expect(segments.first?.resolvedURI == "https://h.example/v/a.ts")
        // The size the row's doc comment promises; growing it costs page faults on every playlist.
        #expect(MemoryLayout<Playlist.SegmentList.Row>.stride == 48)
    }

    /// The eight-bytes-at-a-time control pre-check never misses a line the byte loop would
    /// flag, at any position and with any neighbours (a mutation that drops one of its three
    /// tests fails here).
    @Test func theControlPreCheckMissesNothing() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        let printable = Array("#EXTINF:6.006,title/segment_0001.ts?x=1".utf8)
        for length in 0..<40 {
            for _ in 0..<200 {
                var line = (0..<length).map { _ in printable[Int(next()) % printable.count] }
                if length > 0 {
                    // One byte of any value, somewhere: the exact loop decides.
                    line[Int(next()) % length] = next()
                }
                let exact = line.contains { (b: UInt8) -> Bool in b < 0x20 || b == 0x7F || b == 0xC2 }
                let quick = line.withUnsafeBufferPointer { PlaylistParser.State.mayHaveControl($0) }
                #expect(!exact || quick, "\(line)")
            }
        }
        let clean = Array("#EXTINF:6.006,Zoë — 東京 (no control)".utf8)
        #expect(!clean.withUnsafeBufferPointer { PlaylistParser.State.mayHaveControl($0) })
    }
}
