import ArgumentParser
import PlaybackForensics

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the rules, or describe one rule.")

    @Argument(help: "A rule identifier, e.g. slow-key-fetch.", completion: .list(RuleSet.identifiers))
    var id: String?

    @Option(
        name: .long, help: "Rule configuration to show the effective options of.",
        completion: .file(extensions: ["yml", "yaml", "json"]))
    var config: String?

    func run() throws {
        let rules = try ruleSet(config: config)
        if let id {
            guard let rule = rules.rule(id) else {
                let hint =
                    Suggestion.closest(to: id, in: rules.rules.map(\.identifier), maxDistance: 3)
                    .map { " Did you mean '\($0)'?" } ?? ""
                throw ValidationError("unknown rule '\(id)'.\(hint) Run `playback-forensics rules` for the list.")
            }
            var text = rule.documentation
            if let config {
                // What this configuration makes of the rule, after the documentation of its defaults.
                text += "\n## Effective with `\(config)`\n\n"
                text += "* enabled: \(rule.enabled)\n"
                text += "* severity: \(rule.severity.rawValue)\n"
                text += "* options: `\(rule.optionsJSON)`\n"
            }
            Output.stdout(text)
            return
        }
        var lines = ["| id | kind | default severity | enabled | summary |", "| --- | --- | --- | --- | --- |"]
        for r in rules.rules {
            lines.append(
                "| \(r.identifier) | \(r.kind) | \(r.severity.rawValue) | \(r.enabled ? "yes" : "no") | \(r.summary) |")
        }
        Output.stdout(lines.joined(separator: "\n") + "\n")
    }
}
