import Foundation
import Testing

/// The README's excerpts of the tool's output are the output: each block under an
/// `<!-- excerpt: ARGUMENTS -->` marker (`(on a terminal)` runs it under a pseudo-terminal) must
/// appear line for line, in order, in what the tool prints today (`…` stands for lines left out).
@Suite struct ReadmeExcerptTests {
    struct Excerpt {
        var arguments: String
        var terminal: Bool
        var lines: [String]
    }

    static func excerpts() throws -> [Excerpt] {
        let readme = try String(contentsOf: CLIRunner.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        var out: [Excerpt] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            i += 1
            guard line.hasPrefix("<!-- excerpt: "), line.hasSuffix(" -->") else { continue }
            var arguments = String(line.dropFirst("<!-- excerpt: ".count).dropLast(" -->".count))
            let terminal = arguments.hasSuffix(" (on a terminal)")
            if terminal { arguments = String(arguments.dropLast(" (on a terminal)".count)) }
            guard i < lines.count, lines[i].hasPrefix("```") else {
                Issue.record("README: the excerpt marker `\(line)` is not followed by a fenced block")
                continue
            }
            i += 1
            var block: [String] = []
            while i < lines.count, lines[i] != "```" {
                block.append(lines[i])
                i += 1
            }
            out.append(Excerpt(arguments: arguments, terminal: terminal, lines: block))
        }
        return out
    }

    @Test func everyExcerptIsWhatTheToolPrints() throws {
        let excerpts = try Self.excerpts()
        #expect(excerpts.count >= 2, "the quick start's summary and the report excerpt")
        for e in excerpts {
            let output =
                e.terminal
                ? try TerminalSummaryTests.onTerminal(e.arguments, noColor: true)
                : try CLIRunner.run(e.arguments.split(separator: " ").map(String.init)).stdout
            let printed = output.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
            var at = 0
            for line in e.lines where line != "…" && !line.isEmpty {
                guard let found = printed[at...].firstIndex(of: line) else {
                    Issue.record("README excerpt of `\(e.arguments)` is stale: the tool no longer prints\n\(line)")
                    break
                }
                at = found + 1
            }
        }
    }
}
