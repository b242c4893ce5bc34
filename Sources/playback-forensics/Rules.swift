import ArgumentParser
import ForensicsRules
import PlaybackForensics

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the rules, or describe one rule.")

    @Argument(help: "A rule identifier, e.g. slow-key-fetch.", completion: .list(RuleRegistry.descriptions.map(\.identifier)))
    var id: String?

    @Option(name: .long, help: "Rule configuration to show the effective options of.", completion: .file(extensions: ["yml", "yaml", "json"]))
    var config: String?

    func run() throws {
        let engine = try ruleEngine(config: config)
        if let id {
            guard let entry = engine.entry(id) else {
                let hint = Suggestion.closest(to: id, in: engine.entries.map(\.description.identifier), maxDistance: 3)
                    .map { " Did you mean '\($0)'?" } ?? ""
                throw ValidationError("unknown rule '\(id)'.\(hint) Run `playback-forensics rules` for the list.")
            }
            var text = RuleDocumentation.markdown(entry)
            if let config {
                // What this configuration makes of the rule, after the documentation of its defaults.
                text += "\n## Effective with `\(config)`\n\n"
                text += "* enabled: \(entry.enabled)\n"
                text += "* severity: \((entry.severityOverride ?? entry.description.defaultSeverity).rawValue)\n"
                text += "* options: `\(entry.optionsJSON)`\n"
            }
            Output.stdout(text)
            return
        }
        var lines = ["| id | kind | default severity | enabled | summary |", "| --- | --- | --- | --- | --- |"]
        for e in engine.entries {
            let d = e.description
            lines.append("| \(d.identifier) | \(d.kind.rawValue) | \((e.severityOverride ?? d.defaultSeverity).rawValue) | \(e.enabled ? "yes" : "no") | \(d.summary) |")
        }
        Output.stdout(lines.joined(separator: "\n") + "\n")
    }
}
