import ForensicsCore
import ForensicsRules
import PlaybackForensics

/// Runs a rule example through the real pipeline: timeline scripts are compiled to metric-event
/// dumps, every file is ingested, correlated and judged.
struct RuleExampleRunner {
    struct Prepared {
        var files: [(name: String, bytes: [UInt8])]
        var anchor: SourceLocation?
    }

    enum Variant: String, CaseIterable {
        case plain, noise, reversedFiles, crlf, garbage
    }

    static let noiseTimeline = """
        5000.0 multivariant https://noise.example.org/other/master.m3u8 200 0.100
        5000.2 segment https://noise.example.org/other/nv/s1.ts 200 9.000 dur=2
        5010.0 initial-ltku variant=1M
        5020.0 stall
        5030.0 ltku variant=1M
        5040.0 segment https://noise.example.org/other/nv/s9.ts 404 0.050 dur=2
        """

    static func prepare(_ example: RuleExample, variant: Variant) -> Prepared? {
        var files: [(String, [String])] = []
        var anchor: SourceLocation?
        for file in example.files {
            var lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (i, line) in lines.enumerated() where line.contains(RuleExample.anchorMarker) {
                lines[i] = String(
                    line.replacingOccurrences(of: " \(RuleExample.anchorMarker)", with: "")
                        .replacingOccurrences(of: "\(RuleExample.anchorMarker)", with: ""))
                anchor = SourceLocation(file: compiledName(file.name), line: i + 1)
            }
            if file.name.hasSuffix(".timeline") {
                lines = TimelineScript.compile(lines.joined(separator: "\n")).split(
                    separator: "\n", omittingEmptySubsequences: false
                ).map(String.init)
                if lines.last == "" { lines.removeLast() }
            }
            files.append((compiledName(file.name), lines))
        }
        switch variant {
        case .plain:
            break
        case .noise:
            guard example.files.contains(where: { $0.name.hasSuffix(".timeline") }) else { return nil }
            let noise = TimelineScript.compile(noiseTimeline, sessionID: "NOISE-SESSION")
            files.append(("noise.jsonl", noise.split(separator: "\n").map(String.init)))
        case .reversedFiles:
            files.reverse()
        case .crlf:
            break
        case .garbage:
            // A garbage line before every second line of the metric dumps; the anchor moves with it.
            var changed = false
            for i in files.indices where files[i].0.hasSuffix(".jsonl") {
                var out: [String] = []
                var newAnchor = anchor
                for (k, line) in files[i].1.enumerated() {
                    if k % 2 == 1 { out.append("garbage \u{1}{not json") }
                    if anchor?.file == files[i].0, anchor?.line == k + 1 {
                        newAnchor = SourceLocation(file: files[i].0, line: out.count + 1)
                    }
                    out.append(line)
                }
                files[i].1 = out
                anchor = newAnchor
                changed = true
            }
            if !changed { return nil }
        }
        let separator = variant == .crlf ? "\r\n" : "\n"
        return Prepared(
            files: files.map { ($0.0, Array(($0.1.joined(separator: separator) + separator).utf8)) }, anchor: anchor)
    }

    static func compiledName(_ name: String) -> String {
        name.hasSuffix(".timeline") ? String(name.dropLast(9)) + ".jsonl" : name
    }

    /// The findings of the given rule in the example's session(s) (never the noise session's).
    static func findings(ruleID: String, _ prepared: Prepared) -> [Finding] {
        let report = Analyzer().analyze(files: prepared.files)
        return report.sessions.filter { $0.session.id != "NOISE-SESSION" }.flatMap(\.findings).filter {
            $0.ruleID == ruleID
        }
    }
}

import ForensicsTestSupport
import Foundation
