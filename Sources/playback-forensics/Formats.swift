import ArgumentParser
import PlaybackForensics

struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats", abstract: "List the input formats with sample lines.")

    func run() throws {
        var out: [String] = []
        for d in FormatCatalog.all {
            out.append("\(d.format.rawValue) — \(d.displayName)")
            out.append("  \(d.summary)")
            out.append("  \(d.semanticsLine)")
            for s in d.samples {
                out.append("  sample:")
                for line in s.split(separator: "\n", omittingEmptySubsequences: false) { out.append("    \(line)") }
            }
            out.append("")
        }
        out.append("Read only with their layout given (--cdn-log-format KIND=LAYOUT):")
        for k in ServerLogLayout.kinds {
            out.append("\(k.format.rawValue) — \(k.displayName)")
            out.append("  --cdn-log-format \(k.kind)=LAYOUT: \(k.help)")
        }
        out.append("")
        Output.stdout(out.joined(separator: "\n"))
    }
}
