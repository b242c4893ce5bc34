import Foundation
import PlaybackForensics
import Yams

/// Reads a rule configuration file (YAML or JSON — JSON is read as YAML) into a rule set. Here,
/// not in the library: the CLI is the only part that reads files other than bundles.
enum ConfigurationLoader {
    static func load(path: String) throws -> RuleSet {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError.invalid("cannot read configuration file \(path)")
        }
        return try load(text: String(decoding: data, as: UTF8.self))
    }

    static func load(text: String) throws -> RuleSet {
        let value: Any?
        do {
            value = try Yams.load(yaml: text)
        } catch {
            throw ConfigurationError.invalid("configuration is not valid YAML/JSON: \(error)")
        }
        guard let value else { return RuleSet() }
        guard let dict = value as? [String: Any] else {
            throw ConfigurationError.invalid("configuration must be a mapping with a 'rules' key")
        }
        return try RuleSet(configuration: dict)
    }
}
