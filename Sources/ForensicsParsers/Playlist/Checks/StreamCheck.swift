import ForensicsCore

/// One requirement a captured HLS playlist can break, declared like a rule: a stable id, where
/// the requirement comes from (RFC 8216bis or Apple's HLS Authoring Specification), MUST or
/// SHOULD, a severity that says what breaking it does to playback, advice, and examples — a
/// playlist that breaks only it and a close one that must not — which are its tests and its docs.
///
/// A check is judged either by the parser, where a line is malformed (`judge` nil: the parser
/// reads leniently and reports the line, never inventing a segment), or by `judge` on the
/// parsed playlist.
package struct StreamCheck: Sendable {
    package enum Level: String, Sendable {
        case must = "MUST"
        case should = "SHOULD"
    }

    package var id: String
    package var title: String
    /// `RFC 8216bis §4.4.3.1`, `Apple HLS Authoring §1.x`.
    package var source: String
    package var level: Level
    package var severity: Severity
    /// What breaking it does to playback, in a sentence.
    package var effect: String
    package var advice: String
    /// Playlists that break it (each must make it fire).
    package var fires: [String]
    /// Close playlists that keep it (none may make it fire).
    package var passes: [String]
    package var judge: (@Sendable (Playlist, inout StreamCheckReport) -> Void)?

    package init(
        id: String, title: String, source: String, level: Level, severity: Severity, effect: String, advice: String,
        fires: [String], passes: [String], judge: (@Sendable (Playlist, inout StreamCheckReport) -> Void)? = nil
    ) {
        self.id = id
        self.title = title
        self.source = source
        self.level = level
        self.severity = severity
        self.effect = effect
        self.advice = advice
        self.fires = fires
        self.passes = passes
        self.judge = judge
    }
}

/// What the checks found in one playlist, each defect with its check's severity.
package struct StreamCheckReport: Sendable {
    package private(set) var defects: [StreamDefect] = []
    private var counts: [String: Int] = [:]
    /// Defects kept per check at most (a 20,000-segment playlist breaking one rule is one
    /// problem, said with a count).
    package static let maxPerCheck = 20

    package init() {}

    package mutating func add(_ id: String, line: Int, _ message: String) {
        guard let check = StreamCheckCatalogue.byID[id] else { return }
        // One more than the parser keeps: its "N more lines" summary.
        let n = counts[id, default: 0]
        guard n <= Self.maxPerCheck else { return }
        counts[id] = n + 1
        var defect = StreamDefect(check: id, line: line, message: message, severity: check.severity)
        defect.requirement = check.title
        defect.effect = check.effect
        defects.append(defect)
    }
}

/// Every stream check, in the order the docs list them.
extension StreamCheck {
    /// An example's bytes: `\xHH` written in it stands for that raw byte, so that a check of bytes
    /// no `String` holds (a playlist that is not UTF-8) has an example that fires, and its page
    /// shows the byte.
    package static func exampleBytes(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = 0
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x41 + 10
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "\\"), i + 3 < utf8.count, utf8[i + 1] == UInt8(ascii: "x"),
                let high = hex(utf8[i + 2]), let low = hex(utf8[i + 3])
            {
                out.append(high << 4 | low)
                i += 4
            } else {
                out.append(utf8[i])
                i += 1
            }
        }
        return out
    }
}

package enum StreamCheckCatalogue {
    package static let all: [StreamCheck] =
        StreamSyntaxChecks.all + MediaPlaylistChecks.all + EncryptionChecks.all + MultivariantChecks.all
        + LowLatencyChecks.all

    package static let byID: [String: StreamCheck] = Dictionary(
        all.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })

    /// The defects of a parsed playlist: the parser's, then every check's judgment.
    package static func check(_ playlist: Playlist) -> [StreamDefect] {
        var report = StreamCheckReport()
        for d in playlist.defects { report.add(d.check, line: d.line, d.message) }
        for check in all { check.judge?(playlist, &report) }
        return report.defects.sorted { ($0.line, $0.check) < ($1.line, $1.check) }
    }
}
