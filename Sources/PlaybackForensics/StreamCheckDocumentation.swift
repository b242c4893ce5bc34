import ForensicsParsers
import ForensicsRules

/// `Documentation/StreamChecks.md`, generated from the check declarations (a test keeps it
/// fresh): the catalogue's size and sources, then every check with its examples.
package enum StreamCheckDocumentation {
    package static func markdown() -> String {
        let single = StreamCheckCatalogue.all
        let series = PlaylistSeriesChecks.all
        var out = [
            "# Stream checks",
            "",
            "Generated from the check declarations (`Sources/ForensicsParsers/Playlist/Checks/`, `Sources/ForensicsRules/StreamChecks/`); do not edit.",
            "Regenerate with `UPDATE_STREAM_CHECK_DOCS=1 swift test --filter StreamSeriesCheckTests`.",
            "",
            "`playback-forensics check PATH…` runs them on playlists, folders, archives and HAR captures (exit 2 at or above `--fail-on`, `--report text|json|junit`, `--ignore ID`);",
            "in `analyze`, defects at warning or above in the playlists a session used are the `stream-defects` rule's findings.",
            "Severity says what breaking the requirement does to playback: error — it fails or cannot play that media; warning — it stalls, rebuffers or loses a feature; info — no effect on Apple's players (an authoring recommendation, a harmless deviation).",
            "",
            "## Coverage",
            "",
            "| source | checks | MUST | SHOULD |",
            "| --- | ---: | ---: | ---: |",
        ]
        var bySource: [String: (n: Int, must: Int, should: Int)] = [:]
        for c in single {
            let key = c.source.hasPrefix("Apple") ? "Apple HLS Authoring Specification" : "RFC 8216bis"
            var v = bySource[key] ?? (0, 0, 0)
            v.n += 1
            if c.level == .must { v.must += 1 } else { v.should += 1 }
            bySource[key] = v
        }
        var s = bySource["RFC 8216bis, series of captures"] ?? (0, 0, 0)
        for c in series {
            s.n += 1
            if c.level == "MUST" { s.must += 1 } else { s.should += 1 }
        }
        bySource["RFC 8216bis, series of captures"] = s
        for (k, v) in bySource.sorted(by: { $0.key < $1.key }) {
            out.append("| \(k) | \(v.n) | \(v.must) | \(v.should) |")
        }
        // Which requirement sections the checks judge, each with its checks.
        var bySection: [String: [String]] = [:]
        func sections(_ source: String) -> [String] {
            source.split(separator: ";").flatMap { piece in
                let document = piece.trimmingCharacters(in: " ").hasPrefix("Apple") ? "Apple §" : "RFC 8216bis §"
                return piece.split(separator: "§").dropFirst().map { part in
                    document + part.prefix { $0.isNumber || $0 == "." }.trimmingCharacters(in: ["."])
                }
            }
        }
        for c in single { for section in sections(c.source) { bySection[section, default: []].append(c.id) } }
        for c in series { for section in sections(c.source) { bySection[section, default: []].append(c.id) } }
        out += ["", "| section | checks |", "| --- | --- |"]
        func order(_ a: String, _ b: String) -> Bool {
            let x = a.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            let y = b.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return a.hasPrefix("Apple") != b.hasPrefix("Apple") ? !a.hasPrefix("Apple") : x.lexicographicallyPrecedes(y)
        }
        for (section, ids) in bySection.sorted(by: { order($0.key, $1.key) }) {
            out.append("| \(section) | \(ids.map { "`\($0)`" }.joined(separator: ", ")) |")
        }
        out += [
            "",
            "Not judgeable from a capture, and not checked: what needs the media segments themselves (EXTINF against the real media duration, keyframe at segment start for `EXT-X-INDEPENDENT-SEGMENTS`, codec strings against the bitstream, BANDWIDTH against measured segment bit rates), the server's timing of reloads it was not seen to serve, and blocking-reload behaviour (`_HLS_msn`) without the requests.",
            "",
            "| id | title | source | level | severity |",
            "| --- | --- | --- | --- | --- |",
        ]
        for c in single {
            out.append(
                "| [`\(c.id)`](#\(c.id)) | \(c.title) | \(c.source) | \(c.level.rawValue) | \(c.severity.rawValue) |")
        }
        for c in series {
            out.append(
                "| [`\(c.id)`](#\(c.id)) | \(c.title) (series) | \(c.source) | \(c.level) | \(c.severity.rawValue) |")
        }
        func block(_ text: String) -> [String] {
            ["```m3u8"] + text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast() + [
                "```"
            ]
        }
        for c in single {
            out += [
                "", "## \(c.id)", "", "**\(c.title)** — \(c.source), \(c.level.rawValue), \(c.severity.rawValue).", "",
                c.effect, "", "Advice: \(c.advice)", "", "Fires on:", "",
            ]
            for e in c.fires { out += block(e) }
            out += ["", "Must not fire on:", ""]
            for e in c.passes { out += block(e) }
        }
        for c in series {
            out += [
                "", "## \(c.id)", "",
                "**\(c.title)** — \(c.source), \(c.level), \(c.severity.rawValue); judged on successive captures of one live playlist.",
                "", c.effect, "", "Advice: \(c.advice)", "", "Fires on the captures:", "",
            ]
            for e in c.fires { for (t, p) in e { out += ["At \(t) s:", ""] + block(p) + [""] } }
            out += ["Must not fire on the captures:", ""]
            for e in c.passes { for (t, p) in e { out += ["At \(t) s:", ""] + block(p) + [""] } }
        }
        return out.joined(separator: "\n") + "\n"
    }
}
