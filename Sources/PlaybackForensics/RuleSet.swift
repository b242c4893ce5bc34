import ForensicsRules

/// The rules an analysis runs, with their configuration (thresholds, severities, enabled). The
/// configuration comes in decoded (the CLI reads the YAML or JSON file): `{"rules": {"rule-id":
/// {"enabled": false, "severity": "error", "<option>": value}}}`.
public struct RuleSet: Sendable {
    /// One rule as configured: identity, documentation and effective settings.
    public struct Rule: Sendable {
        public var identifier: String
        public var name: String
        public var kind: String
        public var summary: String
        public var defaultSeverity: Severity
        public var severity: Severity
        public var enabled: Bool
        /// The effective options as JSON (`{"slow-seconds":0.5}`).
        public var optionsJSON: String
        let entry: RuleEngine.Entry

        /// The rule's documentation page (Markdown): rationale, options, examples. Rendered when
        /// asked for (`rules ID`), not for every rule of a listing.
        public var documentation: String { RuleDocumentation.markdown(entry) }
    }

    let engine: RuleEngine

    /// Every rule with its defaults.
    public init() { engine = RuleEngine() }

    /// The rules configured by a decoded configuration; errors name the rule and the key.
    public init(configuration: [String: Any]) throws { engine = try RuleEngine(configuration: configuration) }

    package init(engine: RuleEngine) { self.engine = engine }

    public var rules: [Rule] { engine.entries.map(Self.rule) }

    public func rule(_ identifier: String) -> Rule? { engine.entry(identifier).map(Self.rule) }

    /// Every rule identifier, in catalogue order (for completion and suggestions).
    public static var identifiers: [String] { RuleRegistry.descriptions.map(\.identifier) }

    static func rule(_ e: RuleEngine.Entry) -> Rule {
        Rule(
            identifier: e.description.identifier, name: e.description.name, kind: e.description.kind.rawValue,
            summary: e.description.summary, defaultSeverity: e.description.defaultSeverity,
            severity: e.severityOverride ?? e.description.defaultSeverity, enabled: e.enabled,
            optionsJSON: e.optionsJSON, entry: e)
    }
}
