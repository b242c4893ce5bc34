import Foundation
import ForensicsCore

/// Runs the enabled rules over sessions, applying the configuration (thresholds, severities,
/// enable/disable). Findings come out in a deterministic order: start time, then rule id.
package struct RuleEngine: Sendable {
    package struct Entry: Sendable {
        package var description: RuleDescription
        package var enabled: Bool
        package var severityOverride: Severity?
        /// The effective options, as JSON (for `rules ID` and the docs).
        package var optionsJSON: String
        package var defaultOptionsJSON: String
        package var optionDocs: [String: String]
        let run: @Sendable (Session) -> [Finding]
    }

    package private(set) var entries: [Entry]

    /// The rules with their defaults (`rules`: the registry's, or a caller's own list).
    package init(rules: [any Rule.Type] = RuleRegistry.all) {
        entries = rules.map { RuleEngine.entry($0, overrides: [:]) }.compactMap { try? $0.get() }
    }

    /// The rules configured by a decoded config document: `{"rules": {"rule-id": {"enabled": false,
    /// "severity": "error", "<option>": value}}}`. Errors name the rule and the key.
    package init(configuration: [String: Any], rules: [any Rule.Type] = RuleRegistry.all) throws {
        var rulesSection: [String: Any] = [:]
        for (key, value) in configuration {
            guard key == "rules" else { throw ConfigurationError.unknownTopLevelKey(key) }
            guard let dict = value as? [String: Any] else {
                throw ConfigurationError.invalid("'rules' must be a mapping")
            }
            rulesSection = dict
        }
        let known = Set(rules.map { $0.description.identifier })
        for id in rulesSection.keys.sorted() where !known.contains(id) {
            throw ConfigurationError.unknownRule(id)
        }
        var entries: [Entry] = []
        for type in rules {
            let id = type.description.identifier
            var overrides: [String: Any] = [:]
            if let raw = rulesSection[id] {
                guard let dict = raw as? [String: Any] else {
                    throw ConfigurationError.invalidValue(rule: id, key: "", reason: "must be a mapping of options")
                }
                overrides = dict
            }
            entries.append(try RuleEngine.entry(type, overrides: overrides).get())
        }
        self.entries = entries
    }

    static func entry(_ type: any Rule.Type, overrides: [String: Any]) -> Result<Entry, ConfigurationError> {
        Result { try makeEntry(type, overrides: overrides) }.mapError {
            ($0 as? ConfigurationError) ?? .invalid("\($0)")
        }
    }

    private static func makeEntry<R: Rule>(_ type: R.Type, overrides: [String: Any]) throws -> Entry {
        let id = R.description.identifier
        var enabled = true
        var severity: Severity?
        var options = R.Options()
        for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "enabled":
                guard let b = value as? Bool else {
                    throw ConfigurationError.invalidValue(rule: id, key: key, reason: "must be true or false")
                }
                enabled = b
            case "severity":
                guard let s = (value as? String).flatMap(Severity.init(rawValue:)) else {
                    throw ConfigurationError.invalidValue(
                        rule: id, key: key, reason: "must be one of info, warning, error, critical")
                }
                severity = s
            default:
                guard let option = R.Options.declarations.first(where: { $0.key == key }) else {
                    throw ConfigurationError.unknownOption(rule: id, key: key)
                }
                guard let number = Self.numericValue(value) else {
                    throw ConfigurationError.invalidValue(rule: id, key: key, reason: "must be a number")
                }
                if let problem = option.set(number, in: &options) {
                    throw ConfigurationError.invalidValue(rule: id, key: key, reason: problem)
                }
            }
        }
        // A warning threshold above its error threshold leaves values between them judged by
        // neither: the rule never fires there, a false all-clear (probe P). Both given so: refused.
        // One given: it stands, and the other follows it (`warning-seconds: 10` alone means
        // nothing under 10 s, so the error threshold rises with it).
        for warning in R.Options.declarations where warning.key.hasPrefix("warning-") {
            let errorKey = "error-" + warning.key.dropFirst("warning-".count)
            guard let error = R.Options.declarations.first(where: { $0.key == errorKey }),
                error.value(in: options) < warning.value(in: options)
            else { continue }
            switch (overrides[warning.key] != nil, overrides[errorKey] != nil) {
            case (true, false): _ = error.set(warning.value(in: options), in: &options)
            case (false, true): _ = warning.set(error.value(in: options), in: &options)
            default:
                throw ConfigurationError.invalidValue(
                    rule: id, key: errorKey,
                    reason:
                        "\(errorKey) (\(error.text(in: options))) must be at least \(warning.key) (\(warning.text(in: options))), or values between them are judged by neither"
                )
            }
        }
        let rule = R(options: options)
        let defaults = R.Options()
        return Entry(
            description: R.description, enabled: enabled, severityOverride: severity,
            optionsJSON: Self.json(options), defaultOptionsJSON: Self.json(defaults),
            optionDocs: Dictionary(
                uniqueKeysWithValues: R.Options.declarations.map { ($0.key, "\($0.doc) (\($0.text(in: defaults)))") }),
            run: { session in rule.findings(in: session) })
    }

    /// Options as a JSON object, keys sorted: `{"slow-seconds":0.5,"startup-share":0.4}`.
    static func json<O: RuleOptions>(_ options: O) -> String {
        let fields = O.declarations.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.text(in: options))" }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A configuration value as a number: Int, Double or a non-Boolean NSNumber.
    static func numericValue(_ value: Any) -> Double? {
        if value is Bool { return nil }
        if let i = value as? Int { return Double(i) }
        if let d = value as? Double { return d }
        if let n = value as? NSNumber, String(cString: n.objCType) != "c" { return n.doubleValue }
        return nil
    }

    package func entry(_ id: String) -> Entry? { entries.first { $0.description.identifier == id } }

    /// Every enabled rule's findings for a session, sorted by start time then rule id.
    package func evaluate(_ session: Session) -> [Finding] {
        var out: [Finding] = []
        for e in entries where e.enabled {
            var findings = e.run(session)
            if let s = e.severityOverride {
                for i in findings.indices { findings[i].severity = s }
            }
            out.append(contentsOf: findings)
        }
        return out.sorted(by: Finding.reportOrder)
    }
}
