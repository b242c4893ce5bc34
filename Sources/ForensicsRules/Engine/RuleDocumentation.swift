/// Renders a rule's documentation page from its description, options and examples — the same
/// text for `playback-forensics rules ID` and `Documentation/Rules/ID.md`.
package enum RuleDocumentation {
    package static func markdown(_ entry: RuleEngine.Entry) -> String {
        let d = entry.description
        var out: [String] = []
        out.append("# \(d.name) (`\(d.identifier)`)")
        out.append("")
        out.append(d.summary)
        out.append("")
        out.append("* Kind: \(d.kind.rawValue)")
        out.append("* Default severity: \(d.defaultSeverity.rawValue)")
        out.append("")
        out.append("## Why it matters")
        out.append("")
        out.append(d.rationale)
        out.append("")
        out.append("## Configuration")
        out.append("")
        if entry.optionDocs.isEmpty {
            out.append("Only `enabled` and `severity`.")
        } else {
            out.append("| option | meaning (default) |")
            out.append("| --- | --- |")
            for (key, doc) in entry.optionDocs.sorted(by: { $0.key < $1.key }) { out.append("| `\(key)` | \(doc) |") }
        }
        out.append("")
        out.append(
            "Defaults as JSON: `\(entry.defaultOptionsJSON)`. Every rule also takes `enabled` (true/false) and `severity`."
        )
        out.append("")
        out.append("```yaml")
        out.append("rules:")
        out.append("  \(d.identifier):")
        out.append("    enabled: true")
        out.append("    severity: \(d.defaultSeverity.rawValue)")
        out.append("```")
        out.append("")
        out.append(contentsOf: examples("Triggering examples", d.triggeringExamples))
        out.append(contentsOf: examples("Non-triggering examples", d.nonTriggeringExamples))
        return out.joined(separator: "\n") + "\n"
    }

    static func examples(_ heading: String, _ list: [RuleExample]) -> [String] {
        var out = ["## \(heading)", ""]
        for e in list {
            var title = "### \(e.title)"
            if let c = e.expectedCause { title += " (cause: `\(c)`)" }
            if let s = e.expectedSeverity { title += " (severity: \(s.rawValue))" }
            out.append(title)
            out.append("")
            for f in e.files {
                if e.files.count > 1 || !f.name.hasSuffix(".timeline") {
                    out.append("`\(f.name)`:")
                    out.append("")
                }
                out.append("```")
                out.append(f.text)
                out.append("```")
                out.append("")
            }
        }
        return out
    }
}
