import Foundation
import ForensicsRules
import Yams

/// Loads a rule configuration file (YAML or JSON — JSON is read as YAML) into a rule engine.
public enum ConfigurationLoader {
    public static func load(path: String) throws -> RuleEngine {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError.invalid("cannot read configuration file \(path)")
        }
        return try load(text: String(decoding: data, as: UTF8.self))
    }

    public static func load(text: String) throws -> RuleEngine {
        let value: Any?
        do {
            value = try Yams.load(yaml: text)
        } catch {
            throw ConfigurationError.invalid("configuration is not valid YAML/JSON: \(error)")
        }
        guard let value else { return RuleEngine() }
        guard let dict = value as? [String: Any] else {
            throw ConfigurationError.invalid("configuration must be a mapping with a 'rules' key")
        }
        return try RuleEngine(configuration: dict)
    }
}
