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

    /// The rules with their defaults.
    package init() {
        entries = RuleRegistry.all.map { RuleEngine.entry($0, overrides: [:]) }.compactMap { try? $0.get() }
    }

    /// The rules configured by a decoded config document: `{"rules": {"rule-id": {"enabled": false,
    /// "severity": "error", "<option>": value}}}`. Errors name the rule and the key.
    package init(configuration: [String: Any]) throws {
        var rulesSection: [String: Any] = [:]
        for (key, value) in configuration {
            guard key == "rules" else { throw ConfigurationError.unknownTopLevelKey(key) }
            guard let dict = value as? [String: Any] else { throw ConfigurationError.invalid("'rules' must be a mapping") }
            rulesSection = dict
        }
        let known = Set(RuleRegistry.all.map { $0.description.identifier })
        for id in rulesSection.keys.sorted() where !known.contains(id) {
            throw ConfigurationError.unknownRule(id)
        }
        var entries: [Entry] = []
        for type in RuleRegistry.all {
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let defaultsData = try encoder.encode(R.defaultOptions)
        var options = (try JSONSerialization.jsonObject(with: defaultsData) as? [String: Any]) ?? [:]
        let defaultJSON = String(decoding: defaultsData, as: UTF8.self)
        for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "enabled":
                guard let b = value as? Bool else { throw ConfigurationError.invalidValue(rule: id, key: key, reason: "must be true or false") }
                enabled = b
            case "severity":
                guard let s = (value as? String).flatMap(Severity.init(rawValue:)) else {
                    throw ConfigurationError.invalidValue(rule: id, key: key, reason: "must be one of info, warning, error, critical")
                }
                severity = s
            default:
                guard let current = options[key] else { throw ConfigurationError.unknownOption(rule: id, key: key) }
                if Self.numericValue(current) != nil {
                    guard let number = Self.numericValue(value) else {
                        throw ConfigurationError.invalidValue(rule: id, key: key, reason: "must be a number")
                    }
                    options[key] = number
                } else {
                    options[key] = value
                }
            }
        }
        let data = try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys])
        let decoded: R.Options
        do {
            decoded = try JSONDecoder().decode(R.Options.self, from: data)
        } catch {
            throw ConfigurationError.invalidValue(rule: id, key: "", reason: "\(error)")
        }
        let rule = R(options: decoded)
        let effective = String(decoding: (try? encoder.encode(decoded)) ?? data, as: UTF8.self)
        return Entry(
            description: R.description, enabled: enabled, severityOverride: severity, optionsJSON: effective,
            defaultOptionsJSON: defaultJSON, optionDocs: R.optionDocs,
            run: { session in rule.findings(in: session) })
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
