/// A problem in a configuration file, naming the rule and key.
public enum ConfigurationError: Error, CustomStringConvertible, Equatable {
    case unknownTopLevelKey(String)
    case unknownRule(String)
    case unknownOption(rule: String, key: String)
    case invalidValue(rule: String, key: String, reason: String)
    case invalid(String)

    public var description: String {
        switch self {
        case .unknownTopLevelKey(let k): "unknown top-level key '\(k)' (expected 'rules')"
        case .unknownRule(let id): "unknown rule '\(id)' (see `playback-forensics rules`)"
        case .unknownOption(let rule, let key): "rule '\(rule)': unknown option '\(key)'"
        case .invalidValue(let rule, let key, let reason):
            key.isEmpty ? "rule '\(rule)': \(reason)" : "rule '\(rule)': option '\(key)' \(reason)"
        case .invalid(let reason): reason
        }
    }
}
