import Foundation
import ForensicsTestSupport
import Testing

@testable import ForensicsParsers

/// The playlist parser against the shared conformance corpus.
@Suite struct PlaylistCorpusTests {
    static let videojs = TestPaths.corpus.appendingPathComponent("playlists/videojs-m3u8-parser")

    /// videojs fixtures whose expected output we deliberately do not match, each with the reason.
    static let documentedExceptions: [String: String] = [:]

    /// Fixtures with URI lines that have no valid EXTINF before them: videojs makes each a
    /// segment (its duration taken from the target duration); we do not invent one (a stray line
    /// is a `uri-without-extinf` defect), so only videojs' other segments are compared.
    static let noPhantomSegments: Set<String> = [
        "extinf", "liveMissingSegmentDuration", "missingExtinf", "missingSegmentDuration", "multipleTargetDurations",
    ]

    /// For each URI line of `text`, in order, whether an EXTINF with a duration that reads is before it.
    static func urisWithExtinf(_ text: String) -> [Bool] {
        var out: [Bool] = []
        var pending = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst(8).split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                pending = value.first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } != nil
            } else if !line.hasPrefix("#") {
                out.append(pending)
                pending = false
            }
        }
        return out
    }

    /// Fixtures where only the segment durations differ, on purpose.
    /// - zeroDuration: videojs replaces `#EXTINF:0` with 0.01 s; we keep the declared 0 (what the
    ///   server said is what a forensics tool must show) and report it as a diagnostic.
    static let durationExceptions: Set<String> = ["zeroDuration"]

    /// Many suites read `../shared/corpus`; when the checkout is not next to it, this says so
    /// once, in words, instead of a file-not-found per fixture.
    @Test func theSharedCorpusIsNextToTheRepository() {
        var isDirectory: ObjCBool = false
        let found =
            FileManager.default.fileExists(atPath: TestPaths.corpus.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
        #expect(
            found,
            "the team's corpus is not at \(TestPaths.corpus.path): clone the repository next to shared/ (the tests read ../shared/corpus)"
        )
    }

    @Test func everyCorpusPlaylistParsesWithoutCrashing() throws {
        let files = TestPaths.files(under: TestPaths.corpus.appendingPathComponent("playlists"), withExtension: "m3u8")
        #expect(files.count >= 100)
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            let result = PlaylistParser(
                file: url.lastPathComponent, url: "https://example.com/p/\(url.lastPathComponent)"
            ).parse(text: text)
            // Each playlist yields what it lists: a segment per `#EXTINF`, a variant per
            // `#EXT-X-STREAM-INF`; each one more or fewer is explained by a diagnostic of its own
            // about that tag (a diagnostic about something else explains nothing).
            let lines = text.split(whereSeparator: \.isNewline)
            let extinf = lines.filter { $0.hasPrefix("#EXTINF:") }.count
            let streamInf = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.count
            func about(_ tag: String) -> Int { result.diagnostics.filter { $0.message.contains(tag) }.count }
            let segments = result.playlist.segments.count
            #expect(
                abs(extinf - segments) <= about("EXTINF"),
                "\(url.lastPathComponent): \(extinf) #EXTINF, \(segments) segments, \(about("EXTINF")) said why")
            let variants = result.playlist.variants.filter { !$0.isIFrame }.count
            #expect(
                abs(streamInf - variants) <= about("STREAM-INF"),
                "\(url.lastPathComponent): \(streamInf) #EXT-X-STREAM-INF, \(variants) variants, \(about("STREAM-INF")) said why"
            )
        }
    }

    static var videojsPairs: [String] {
        TestPaths.files(under: videojs, withExtension: "json").map { $0.deletingPathExtension().lastPathComponent }
    }

    @Test(arguments: videojsPairs)
    func matchesVideojsExpectations(name: String) throws {
        if let reason = Self.documentedExceptions[name] {
            withKnownIssue("documented exception: \(reason)") { Issue.record("skipped") }
            return
        }
        let text = try String(contentsOf: Self.videojs.appendingPathComponent(name + ".m3u8"), encoding: .utf8)
        let data = try Data(contentsOf: Self.videojs.appendingPathComponent(name + ".json"))
        let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let playlist = PlaylistParser(file: name + ".m3u8").parse(text: text).playlist
        var segments = expected["segments"] as? [[String: Any]] ?? []
        if Self.noPhantomSegments.contains(name) {
            let real = Self.urisWithExtinf(text)
            segments = segments.enumerated().filter { $0.offset < real.count && real[$0.offset] }.map(\.element)
        }
        #expect(playlist.segments.count == segments.count, "segment count")
        for (ours, theirs) in zip(playlist.segments, segments) {
            #expect(ours.uri == theirs["uri"] as? String, "uri")
            if let d = (theirs["duration"] as? NSNumber)?.doubleValue, !Self.durationExceptions.contains(name) {
                #expect(abs(ours.duration - d) < 1e-9, "duration of \(ours.uri)")
            }
        }
        let variants = expected["playlists"] as? [[String: Any]] ?? []
        #expect(playlist.variants.count == variants.count, "variant count")
        if let td = (expected["targetDuration"] as? NSNumber)?.doubleValue {
            #expect(playlist.targetDuration == td, "target duration")
        }
        if let ms = (expected["mediaSequence"] as? NSNumber)?.int64Value {
            #expect(playlist.mediaSequence == ms, "media sequence")
        }
    }
}
