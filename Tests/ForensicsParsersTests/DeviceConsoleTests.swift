import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsParsers

/// The device console in each shape Apple's tools write it, from the documentation of `log show`
/// (default, compact, syslog, json, ndjson styles), `NSLog`'s prefix, Console.app's copy, the
/// device syslog and Xcode 15's metadata line; `NSError`'s description; and files that are not a
/// console however many error words they hold.
@Suite struct DeviceConsoleTests {
    static let nsError =
        #"Error Domain=AVFoundationErrorDomain Code=-11800 "The operation could not be completed" UserInfo={NSLocalizedFailureReason=An unknown error occurred (-42669), NSLocalizedDescription=The operation could not be completed, NSUnderlyingError=0x283d8c6c0 {Error Domain=NSOSStatusErrorDomain Code=-42669 "(null)"}}"#

    func records(_ name: String, _ text: String) -> (format: InputFormat?, records: [Record], outcome: Ingestor.Outcome)
    {
        let o = ingest(name, text)
        return (o.format, o.result?.records ?? [], o)
    }

    func lines(_ rs: [Record]) -> [ConsoleLine] { rs.compactMap(\.consoleLine) }

    @Test func anNSErrorIsReadWithItsUnderlyingChain() throws {
        let e = try #require(NSErrorDescription.parse(Substring("failed: " + Self.nsError)))
        #expect(e.domain == "AVFoundationErrorDomain" && e.code == -11800)
        #expect(e.underlying.map(\.code) == [-42669] && e.underlying.first?.domain == "NSOSStatusErrorDomain")
        #expect(e.chainText == "AVFoundationErrorDomain -11800 ← NSOSStatusErrorDomain -42669")
        #expect(e.isContentKeyError)
        // Apple's -11867 over CoreMedia -12880, the description from NSDescription of the inner one.
        let nested = try #require(
            NSErrorDescription.parse(
                #"Error Domain=AVFoundationErrorDomain Code=-11867 "See -[AVPlayerItem errorLog] for 2 events" UserInfo={NSLocalizedDescription=Playback Stopped, NSUnderlyingError=0x60c000444b90 {Error Domain=CoreMediaErrorDomain Code=-12880 "Can not proceed after removing variants" UserInfo={NSDescription=Can not proceed after removing variants}}, NSDebugDescription=See -[AVPlayerItem errorLog] for 2 events}"#
            ))
        #expect(nested.chain.map(\.code) == [-11867, -12880])
        #expect(nested.statesPlaybackEnded == false && nested.underlying[0].statesPlaybackEnded)
        // Not an NSError: no ` Code=` and a number after the domain.
        #expect(NSErrorDescription.parse("Error Domain=Foo Code=bar") == nil)
        #expect(NSErrorDescription.parse("see the Error Domain=field in the docs") == nil)
    }

    @Test func logShowDefaultStyle() throws {
        let text = """
            Filtering the log data using "process == "mediaplaybackd""
            Timestamp                       Thread     Type        Activity             PID    TTL  
            2026-11-21 11:00:02.250000+0100 0x2a1f     Error       0x0                  412    0    mediaplaybackd: (MediaToolbox) [com.apple.coremedia:player] <<<< FigPlayer >>>> item failed: \(Self.nsError)
            2026-11-21 11:00:02.260000+0100 0x2a1f     Default     0x0                  412    0    mediaplaybackd: (MediaToolbox) <<<< FigPlayer >>>> a message
            \tcontinued on a second line
            2026-11-21 11:00:02.270000+0100 0x99       Default     0x0                  77     0    SpringBoard: [com.apple.springboard:x] unrelated
            --------------------------------------------------------------------------------------------------------------------
            Log      - Default:          2, Info:                0, Debug:             0, Error:          1, Fault:          0
            """
        let r = records("console.log", text)
        #expect(r.format == .deviceConsole)
        let ls = lines(r.records)
        #expect(ls.count == 2, "SpringBoard's line is context, not a record")
        let first = try #require(ls.first)
        #expect(first.process == "mediaplaybackd" && first.library == "MediaToolbox" && first.level == "error")
        #expect(first.subsystem == "com.apple.coremedia" && first.category == "player")
        #expect(first.endsPlayback && first.error?.didRecover == false && first.topic == .contentKey)
        #expect(r.records[0].time == TimestampParser.parse("2026-11-21T10:00:02.25Z"))
        #expect(ls[1].text.contains("continued on a second line"))
        #expect(r.outcome.result?.deviceZone == 3600)
    }

    @Test func logShowCompactStyleHasNoZone() throws {
        let text = """
            Timestamp               Ty Process[PID:TID]
            2026-11-21 10:00:02.250 E  My Player[59972:780a15] (AVFCore) [com.apple.avfoundation:player] AVPlayerItem failed: \(Self.nsError)
            2026-11-21 10:00:02.300 Df My Player[59972:780a15] (libffi.dylib) Hello
            """
        let r = records("compact.log", text)
        #expect(r.format == .deviceConsole)
        let line = try #require(lines(r.records).first)
        #expect(line.process == "My Player" && line.level == "error" && line.subsystem == "com.apple.avfoundation")
        #expect(r.outcome.result?.clock == .deviceLocalZoneUnknown)
        #expect(r.records.count == 1)
    }

    @Test func logShowSyslogStyle() throws {
        let text = """
            Timestamp                       (process)[PID]
            2026-11-21 11:00:02.250000+0100  localhost mediaserverd[412]: (MediaToolbox) <<<< FigStreamPlayer >>>> fpfs_ReportErrorMessage: CoreMediaErrorDomain -12642 Playlist parse error
            """
        let r = records("syslog.log", text)
        #expect(r.format == .deviceConsole)
        let line = try #require(lines(r.records).first)
        #expect(line.process == "mediaserverd" && line.error?.code == -12642)
        #expect(line.error?.domain == "CoreMediaErrorDomain" && line.topic == .playlist)
    }

    @Test func logShowJSONAndNDJSON() throws {
        let event =
            #"{"traceID":78134079258628,"messageType":"Error","eventType":"logEvent","subsystem":"com.apple.coremedia","category":"player","threadID":17657416,"timestamp":"2026-11-21 02:00:02.250000-0800","eventMessage":"<<<< FigPlayer >>>> item failed: Error Domain=CoreMediaErrorDomain Code=-12642 \"Playlist parse error\" UserInfo={NSDescription=Playlist parse error}","processImagePath":"\/usr\/libexec\/mediaplaybackd","processID":412,"senderImagePath":"\/System\/Library\/PrivateFrameworks\/MediaToolbox.framework\/MediaToolbox"}"#
        let ndjson = records("console.ndjson", event + "\n" + #"{"count":1,"finished":1}"# + "\n")
        #expect(ndjson.format == .deviceConsole)
        let line = try #require(lines(ndjson.records).first)
        #expect(line.process == "mediaplaybackd" && line.library == "MediaToolbox" && line.level == "error")
        #expect(line.error?.code == -12642 && ndjson.records.count == 1)
        #expect(ndjson.records[0].time == TimestampParser.parse("2026-11-21T10:00:02.25Z"))
        let json = records(
            "console.json", "Filtering the log data using \"process == \\\"mediaplaybackd\\\"\"\n[\n" + event + "\n]\n")
        #expect(json.format == .deviceConsole && json.records.count == 1)
        #expect(json.records.first?.location.line == 3)
    }

    @Test func xcodeNSLogConsoleAppCopyAndDeviceSyslog() throws {
        let nslog = records(
            "xcode.txt",
            "2026-11-21 18:00:00.123456+0800 Player[1234:56789] [Playback] Playback failed: \(Self.nsError)\n")
        #expect(nslog.format == .deviceConsole)
        #expect(lines(nslog.records).first?.process == "Player" && lines(nslog.records).first?.endsPlayback == true)
        let copy = records(
            "copy.txt",
            "default\t08:14:05.225845+0200\tDRMPlayer\t<<<< AVError >>>> AVLocalizedErrorWithUnderlyingOSStatus: Returning error (AVFoundationErrorDomain / -11800) status (-42669)\n"
        )
        #expect(copy.format == .deviceConsole)
        let e = try #require(lines(copy.records).first?.error)
        #expect(e.domain == "AVFoundationErrorDomain" && e.code == -11800 && e.underlying.first?.code == -42669)
        #expect(copy.records.first?.time == nil, "a Console.app copy has no date")
        let syslog = records(
            "device.log",
            "Apr  7 15:50:08 iPhone mediaserverd(AudioToolbox)[4584] <Error>: <<<< FigPlayer >>>> err=-12642 Playlist parse error\n"
        )
        #expect(syslog.format == .deviceConsole && lines(syslog.records).first?.library == "AudioToolbox")
        #expect(lines(syslog.records).first?.error?.code == -12642)
    }

    @Test func xcodeMetadataFollowsItsMessage() throws {
        let text = """
            <<<< FigPlayer >>>> item failed: \(Self.nsError)
            Type: Error | Timestamp: 2026-11-21 11:00:02.250000+01:00 | Process: Player | Library: AVFCore | Subsystem: com.apple.avfoundation | Category: player | TID: 0xd0467
            Loaded the view
            Type: Info | Timestamp: 2026-11-21 11:00:03.000000+01:00 | Library: UIKitCore | Subsystem: com.apple.UIKit | Category:  | TID: 0xd0467
            """
        let r = records("xcode-metadata.txt", text)
        #expect(r.format == .deviceConsole)
        let line = try #require(lines(r.records).first)
        #expect(line.process == "Player" && line.library == "AVFCore" && line.level == "error")
        #expect(r.records.count == 1 && r.records[0].time == TimestampParser.parse("2026-11-21T10:00:02.25Z"))
    }

    @Test func anAppsPrintOfItsErrorLogIsErrorLogRows() throws {
        let text = """
            AVPlayerItem error log (2 events):
            errorStatusCode: -12642 | errorDomain: CoreMediaErrorDomain | errorComment: #EXT-X-PART Partial Segment duration 2.002 exceeds PART-TARGET 1.001 | URI: https://live.example.com/ll/v3/index.m3u8 | date: 2026-11-22 20:03:11.208 +0000 | playbackSessionID: 5D1C2A1E
            errorStatusCode: -12880 | errorDomain: Optional("CoreMediaErrorDomain") | errorComment: Can not proceed after removing variants | URI: nil
            """
        let all = records("errors.txt", text)
        #expect(all.format == .deviceConsole)
        // The heading line is kept as context (it names the player); the events are rows.
        let rows = all.records.filter { if case .errorLog = $0.payload { return true } else { return false } }
        let r = (format: all.format, records: rows)
        #expect(r.records.count == 2 && all.records.count == 3)
        #expect(r.records.map(\.location.line) == [2, 3])
        guard case .errorLog(let e, let uri) = r.records[0].payload else {
            Issue.record("not an error-log row")
            return
        }
        #expect(
            e.code == -12642 && e.domain == "CoreMediaErrorDomain" && uri == "https://live.example.com/ll/v3/index.m3u8"
        )
        #expect(e.description == "#EXT-X-PART Partial Segment duration 2.002 exceeds PART-TARGET 1.001")
        #expect(
            r.records[0].sessionID == "5D1C2A1E"
                && r.records[0].time == TimestampParser.parse("2026-11-22T20:03:11.208Z"))
        guard case .errorLog(let e2, let uri2) = r.records[1].payload else { return }
        #expect(e2.domain == "CoreMediaErrorDomain" && e2.statesPlaybackEnded && uri2 == nil)
    }

    @Test func whatIsNotAConsoleIsNotReadAsOne() {
        // A README quoting a console line and an NSError in a fenced block.
        let readme = """
            # Playback fails

            ```
            2026-11-21 18:00:00.123456+0800 Player[1234:56789] Playback failed: \(Self.nsError)
            ```
            errorStatusCode and errorDomain are AVPlayerItemErrorLogEvent properties.
            """
        #expect(ingest("README.md", readme).format == nil)
        // Prose naming the properties once each, not a print of an event.
        #expect(ingest("notes.txt", "We log errorStatusCode somewhere.\nThe errorDomain too.\n").format == nil)
        // A server's access log with an error number in it.
        let nginx =
            #"203.0.113.9 - - [21/Nov/2026:11:00:04 +0100] "GET /v/seg12.ts?err=-12642 HTTP/1.1" 404 0 "-" "AppleCoreMedia/1.0""#
        #expect(ingest("access.log", nginx + "\n").format != .deviceConsole)
        // A KTVHTTPCache console shares the NSLog head, and stays the proxy's log.
        let ktv =
            "2026-11-21 18:00:00.123456+0800 App[1:2] KTVHCHTTPServer         :   0x2811c4f60, start server\n"
        #expect(ingest("ktv.log", ktv).format == .cacheLog)
        // A console with nothing about playback is claimed and listed as not read, with why.
        let quiet = ingest("quiet.log", "2026-11-21 18:00:00.123456+0800 App[1:2] Loaded the settings view\n")
        #expect(quiet.format == .deviceConsole && quiet.notRead?.reason.contains("no line about playback") == true)
        #expect(quiet.result?.records.isEmpty == true)
    }

    @Test func aUnifiedLogArchiveIsNamedWithTheCommand() {
        let o = Ingestor().ingest(
            BundleMember(
                path: "sysdiagnose/system_logs.logarchive/Persist/0001.tracev3", open: { MemoryByteSource([0, 1]) }))
        #expect(o.notRead?.reason.contains("log show --archive 'sysdiagnose/system_logs.logarchive'") == true)
        #expect(o.notRead?.hidesEvidence == true)
    }

    @Test func anNSErrorCodeIsNotRedactedButAnAuthorizationCodeIs() {
        let r = Redactor()
        #expect(
            r.clean("Error Domain=CoreMediaErrorDomain Code=-12642 \"Playlist parse error\"").contains("Code=-12642"))
        #expect(!r.clean("https://id.example.com/cb?code=8812734").contains("8812734"))
        #expect(!r.clean("callback Code=8812734").contains("8812734"))
    }

    @Test func aPreambleWithBracketsBeforeTheJSONArrayIsSkippedByLine() throws {
        let text = """
            Filtering the log data using "subsystem CONTAINS[c] "coremedia""
            [{"messageType":"Error","timestamp":"2026-11-21 10:00:02.250000+0000","eventMessage":"<<<< FigPlayer >>>> err=-12642 Playlist parse error","processImagePath":"/usr/libexec/mediaplaybackd"}]
            """
        let r = records("console.json", text)
        #expect(r.format == .deviceConsole)
        #expect(r.records.count == 1 && r.records.first?.location.line == 2)
        #expect(r.outcome.result?.producer?.hasPrefix("log show (json)") == true)
    }

    @Test func anEntryIsBoundedInLinesAndBytes() throws {
        let long = String(repeating: "x", count: 4000)
        let text =
            "2026-11-21 18:00:00.123456+0800 Player[1:2] AVPlayer dump follows\n"
            + Array(repeating: long, count: 150).joined(separator: "\n") + "\n"
        let line = try #require(lines(records("dump.txt", text).records).first)
        #expect(line.text.utf8.count <= DeviceConsoleFormat.maxEntryBytes)
        // A long run of digits and dashes after `error` is no code, and costs one pass.
        let hostile =
            "2026-11-21 18:00:00.123456+0800 Player[1:2] AVPlayer error "
            + String(repeating: "1", count: 100_000) + String(repeating: "-", count: 100_000)
        #expect(lines(records("hostile.txt", hostile).records).first?.error == nil)
    }

    @Test func anNSErrorCodeIsKeptOnlyRightAfterItsDomain() {
        let r = Redactor()
        #expect(r.clean("Error Domain=KTVHTTPCache error Code=-192703 \"(null)\"").contains("Code=-192703"))
        let leak =
            "Error Domain=NSURLErrorDomain Code=-1011 \"bad\" UserInfo={NSErrorFailingURLKey=https://sso.example.com/cb?Code=482913}"
        let cleaned = r.clean(leak)
        #expect(cleaned.contains("Code=-1011") && !cleaned.contains("482913"))
    }

    @Test func aWholeUnifiedLogArchiveIsOneInput() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pf-logarchive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let archive = root.appendingPathComponent("system_logs.logarchive")
        try FileManager.default.createDirectory(
            at: archive.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        for n in 1...3 {
            try Data([0, 1, 2]).write(to: archive.appendingPathComponent("Persist/000\(n).tracev3"))
        }
        var diagnostics: [Diagnostic] = []
        let inFolder = try Ingestor().ingestBundle(path: root.path, diagnostics: &diagnostics)
        #expect(inFolder.map(\.path) == ["system_logs.logarchive"])
        let given = try Ingestor().ingestBundle(path: archive.path, diagnostics: &diagnostics)
        #expect(given.map(\.path) == ["system_logs.logarchive"] && given.first?.notRead?.hidesEvidence == true)
    }
}
