import Foundation
import PlaybackForensics

/// Reads a rule configuration file (YAML or JSON — JSON is read as YAML) into a rule set. Here,
/// not in the library: the CLI is the only part that reads files other than bundles. The text is
/// decoded within limits by `ConfigurationDocument`.
enum ConfigurationLoader {
    /// A configuration file the tool refuses: its path, the line and key when known, and why.
    struct FileError: Error, CustomStringConvertible {
        var path: String
        var line: Int?
        var reason: String
        var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(reason)" }
    }

    static func load(path: String) throws -> RuleSet {
        let bytes = try read(path: path)
        let document: ConfigurationDocument
        do {
            document = try ConfigurationDocument(bytes: bytes)
        } catch let error as ConfigurationDocument.ReadError {
            throw FileError(path: path, line: error.line, reason: error.reason)
        }
        do {
            return try ruleSet(document)
        } catch let error as ConfigurationError {
            throw FileError(path: path, line: line(of: error, in: document), reason: error.description)
        }
    }

    static func load(text: String) throws -> RuleSet {
        let document: ConfigurationDocument
        do {
            document = try ConfigurationDocument(text: text)
        } catch let error as ConfigurationDocument.ReadError {
            throw ConfigurationError.invalid("configuration is not accepted: \(error)")
        }
        return try ruleSet(document)
    }

    static func ruleSet(_ document: ConfigurationDocument) throws -> RuleSet {
        guard let value = document.value, !(value is NSNull) else { return RuleSet() }
        guard let dict = value as? [String: Any] else {
            throw ConfigurationError.invalid("configuration must be a mapping with a 'rules' key")
        }
        return try RuleSet(configuration: dict)
    }

    /// The line of the key an error names.
    static func line(of error: ConfigurationError, in document: ConfigurationDocument) -> Int? {
        switch error {
        case .unknownTopLevelKey(let key): document.line(of: [key])
        case .unknownRule(let rule): document.line(of: ["rules", rule])
        case .unknownOption(let rule, let key), .invalidValue(let rule, let key, _):
            document.line(of: ["rules", rule] + (key.isEmpty ? [] : [key]))
        case .invalid: nil
        }
    }

    /// The file's bytes, at most one more than the limit (a device or a huge file is never read whole).
    static func read(path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileError(path: path, line: nil, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileError(path: path, line: nil, reason: "not a regular file")
        }
        let limit = ConfigurationDocument.Limits.maxBytes
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.read(fd, base + filled, buffer.count - filled)
            }
            if n > 0 {
                filled += n
            } else if n < 0, errno == EINTR {
                continue
            } else if n < 0 {
                throw FileError(path: path, line: nil, reason: String(cString: strerror(errno)))
            } else {
                break
            }
        }
        guard filled <= limit else {
            throw FileError(
                path: path, line: nil, reason: "larger than \(limit) bytes (a configuration is a few lines)")
        }
        return Array(bytes[..<filled])
    }
}
