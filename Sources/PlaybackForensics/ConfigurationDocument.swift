import CYaml
import ForensicsCore
import Foundation

/// A rule configuration file (YAML, or JSON read as YAML) decoded within documented limits.
///
/// Why not `Yams.load`: it expands aliases by copying (a few hundred bytes of anchors grew to
/// 8 GiB), recurses once per nesting level (a 400 KB nested file overflowed the stack) and lets
/// a duplicate key win silently. Here libyaml's event stream (the parser Yams itself wraps) is
/// read with an explicit stack: aliases, anchors and tags are refused, nesting, size and node
/// count are bounded, a duplicate key is an error, and every key keeps its line so that errors
/// can name file, line and key.
public struct ConfigurationDocument: @unchecked Sendable {
    /// The limits, documented in the README (Limits).
    public enum Limits {
        public static let maxBytes = 1 << 20
        public static let maxDepth = 32
        public static let maxNodes = 100_000
    }

    /// A configuration the reader refuses: the 1-based line (when one applies) and what is wrong.
    public struct ReadError: Error, CustomStringConvertible, Equatable {
        public var line: Int?
        public var reason: String
        public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
    }

    /// The decoded value: `[String: Any]`, `[Any]`, `String`, `Int`, `Double`, `Bool` or `NSNull`.
    public let value: Any?
    /// The 1-based line of each mapping key, by its path (`rules`, `stall`, `severity` joined by
    /// `pathSeparator`, a control character no key in a configuration contains).
    public let keyLines: [String: Int]

    static let pathSeparator = "\u{1F}"

    /// The line of a key path, or of its nearest ancestor that has one.
    public func line(of path: [String]) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = keyLines[path.joined(separator: Self.pathSeparator)] { return line }
            path.removeLast()
        }
        return nil
    }

    public init(text: String) throws {
        try self.init(bytes: Array(text.utf8))
    }

    public init(bytes: [UInt8]) throws {
        guard bytes.count <= Limits.maxBytes else {
            throw ReadError(
                line: nil, reason: "the file is larger than \(Limits.maxBytes) bytes (a configuration is a few lines)")
        }
        var builder = Builder()
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw ReadError(line: nil, reason: "out of memory") }
        defer { yaml_parser_delete(&parser) }
        try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            yaml_parser_set_input_string(&parser, base, buffer.count)
            var done = false
            while !done {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let line = Int(clamping: parser.problem_mark.line) &+ 1
                    let problem = parser.problem.map { String(cString: $0) } ?? "unreadable"
                    throw ReadError(line: line, reason: "not valid YAML or JSON: \(problem)")
                }
                defer { yaml_event_delete(&event) }
                done = event.type == YAML_STREAM_END_EVENT
                try builder.take(event)
            }
        }
        value = builder.root
        keyLines = builder.keyLines
    }

    /// Builds the value from events with an explicit stack (no recursion, whatever the nesting).
    private struct Builder {
        enum Frame {
            case mapping([String: Any], pendingKey: String?, path: [String])
            case sequence([Any], path: [String])
        }
        var stack: [Frame] = []
        var root: Any?
        var documents = 0
        var nodes = 0
        var keyLines: [String: Int] = [:]

        mutating func take(_ event: yaml_event_t) throws {
            let line = Int(clamping: event.start_mark.line) &+ 1
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                guard documents == 1 else {
                    throw ReadError(line: line, reason: "more than one YAML document (one configuration a file)")
                }
            case YAML_ALIAS_EVENT:
                throw ReadError(line: line, reason: "aliases (*name) are not accepted in a configuration")
            case YAML_SCALAR_EVENT:
                let s = event.data.scalar
                try Self.refuse(anchor: s.anchor, tag: s.tag, line: line)
                let text =
                    s.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: s.length), as: UTF8.self) }
                    ?? ""
                let value: Any = s.style == YAML_PLAIN_SCALAR_STYLE ? Self.resolve(plain: text) : text
                try add(value, scalarKey: text, line: line)
            case YAML_SEQUENCE_START_EVENT:
                let s = event.data.sequence_start
                try Self.refuse(anchor: s.anchor, tag: s.tag, line: line)
                try open(.sequence([], path: try childPath(line: line)), line: line)
            case YAML_MAPPING_START_EVENT:
                let m = event.data.mapping_start
                try Self.refuse(anchor: m.anchor, tag: m.tag, line: line)
                try open(.mapping([:], pendingKey: nil, path: try childPath(line: line)), line: line)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { return }
                switch frame {
                case .mapping(let dict, _, _): try add(dict, scalarKey: nil, line: line)
                case .sequence(let array, _): try add(array, scalarKey: nil, line: line)
                }
            default:
                break
            }
        }

        static func refuse(
            anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, line: Int
        )
            throws
        {
            if anchor != nil {
                throw ReadError(line: line, reason: "anchors (&name) are not accepted in a configuration")
            }
            if let tag {
                throw ReadError(
                    line: line, reason: "tags (\(String(cString: tag).prefix(40))) are not accepted in a configuration")
            }
        }

        /// The path of a collection about to open (its parent's path plus the pending key).
        func childPath(line: Int) throws -> [String] {
            switch stack.last {
            case nil: return []
            case .mapping(_, let key, let path)?:
                guard let key else {
                    throw ReadError(line: line, reason: "a mapping key must be a plain text, not a list or mapping")
                }
                return path + [key]
            case .sequence(let array, let path)?: return path + ["\(array.count)"]
            }
        }

        mutating func open(_ frame: Frame, line: Int) throws {
            guard stack.count < Limits.maxDepth else {
                throw ReadError(line: line, reason: "nested deeper than \(Limits.maxDepth) levels")
            }
            try count(line: line)
            stack.append(frame)
        }

        mutating func count(line: Int) throws {
            nodes += 1
            guard nodes <= Limits.maxNodes else {
                throw ReadError(line: line, reason: "more than \(Limits.maxNodes) values")
            }
        }

        /// Adds a finished value to the open collection (as a key, when a mapping waits for one).
        mutating func add(_ value: Any, scalarKey: String?, line: Int) throws {
            if scalarKey != nil { try count(line: line) }
            guard let top = stack.popLast() else {
                root = value
                return
            }
            switch top {
            case .sequence(var array, let path):
                array.append(value)
                stack.append(.sequence(array, path: path))
            case .mapping(var dict, let pending, let path):
                if let key = pending {
                    dict[key] = value
                    stack.append(.mapping(dict, pendingKey: nil, path: path))
                } else {
                    guard let key = scalarKey else {
                        throw ReadError(line: line, reason: "a mapping key must be a plain text, not a list or mapping")
                    }
                    let keyPath = (path + [key]).joined(separator: ConfigurationDocument.pathSeparator)
                    guard dict[key] == nil, keyLines[keyPath] == nil else {
                        let first = keyLines[keyPath].map { " (first at line \($0))" } ?? ""
                        throw ReadError(line: line, reason: "duplicate key '\(key.prefix(80))'\(first)")
                    }
                    keyLines[keyPath] = line
                    stack.append(.mapping(dict, pendingKey: key, path: path))
                }
            }
        }

        /// A plain scalar's type as YAML 1.1 and JSON write it: null, booleans, integers, floats.
        static func resolve(plain text: String) -> Any {
            switch text {
            case "", "~", "null", "Null", "NULL": return NSNull()
            case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
            case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
            default: break
            }
            if let i = Int(text) { return i }
            if text.utf8.contains(where: {
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            }),
                let d = Double(text), d.isFinite
            {
                return d
            }
            return text
        }
    }
}
