import Foundation

/// The subset of JSON Schema (2020-12) that `Documentation/playback-forensics.schema.json` uses:
/// `$ref` to `#/$defs/…`, `type` (one or several), `properties`, `required`,
/// `additionalProperties` (false or a schema), `items`, `enum`, `const`, `anyOf`. A keyword it
/// does not know is an error, so the schema cannot silently outgrow the check. Test-only: no
/// schema validator is among the local packages, and the outputs are read with Foundation's
/// `JSONSerialization` (booleans are told from numbers by their Objective-C type `c`).
struct JSONSchemaValidator {
    let root: [String: Any]

    init(schemaFile: URL) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: schemaFile)) as? [String: Any] else {
            throw Problem(path: "", message: "the schema is not an object")
        }
        root = object
    }

    struct Problem: Error, CustomStringConvertible {
        var path: String
        var message: String
        var description: String { "\(path.isEmpty ? "/" : path): \(message)" }
    }

    static let known: Set<String> = [
        "$ref", "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
        "$schema", "$id", "title", "description", "$defs",
    ]

    /// Every problem of `value` against `#/$defs/<definition>` (empty when it is valid).
    func validate(_ value: Any, definition: String) -> [Problem] {
        var problems: [Problem] = []
        check(value, against: ["$ref": "#/$defs/\(definition)"], path: "", into: &problems)
        return problems
    }

    func check(_ value: Any, against schema: [String: Any], path: String, into problems: inout [Problem]) {
        for key in schema.keys where !Self.known.contains(key) {
            problems.append(
                Problem(path: path, message: "schema keyword '\(key)' is not supported by the test validator"))
        }
        if let ref = schema["$ref"] as? String {
            let name = ref.replacingOccurrences(of: "#/$defs/", with: "")
            guard let defs = root["$defs"] as? [String: Any], let target = defs[name] as? [String: Any] else {
                problems.append(Problem(path: path, message: "unknown reference \(ref)"))
                return
            }
            check(value, against: target, path: path, into: &problems)
        }
        if let anyOf = schema["anyOf"] as? [[String: Any]] {
            let fits = anyOf.contains { option in
                var scratch: [Problem] = []
                check(value, against: option, path: path, into: &scratch)
                return scratch.isEmpty
            }
            if !fits { problems.append(Problem(path: path, message: "matches none of anyOf")) }
        }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [(types as? String) ?? ""]
            let actual = Self.typeName(value)
            let fits = allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
            if !fits {
                problems.append(
                    Problem(path: path, message: "is \(actual), expected \(allowed.joined(separator: " or "))"))
                return
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.same($0, value) }) {
            problems.append(Problem(path: path, message: "\(value) is not one of \(options)"))
        }
        if let constant = schema["const"], !Self.same(constant, value) {
            problems.append(Problem(path: path, message: "\(value) is not \(constant)"))
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append(Problem(path: path, message: "lacks required '\(key)'"))
            }
            for (key, member) in object {
                if let sub = properties[key] as? [String: Any] {
                    check(member, against: sub, path: path + "/" + key, into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if let allowed = additional as? Bool, !allowed, Self.typeName(additional) == "boolean" {
                        problems.append(Problem(path: path, message: "has '\(key)', which the schema does not declare"))
                    } else if let sub = additional as? [String: Any] {
                        check(member, against: sub, path: path + "/" + key, into: &problems)
                    }
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (i, element) in array.enumerated() {
                check(element, against: items, path: path + "/\(i)", into: &problems)
            }
        }
    }

    static func typeName(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if value is String { return "string" }
        if value is [Any] { return "array" }
        if value is [String: Any] { return "object" }
        if let n = value as? NSNumber {
            let kind = String(cString: n.objCType)
            if kind == "c" { return "boolean" }
            if kind == "d" || kind == "f" { return n.doubleValue.rounded() == n.doubleValue ? "integer" : "number" }
            return "integer"
        }
        return "unknown"
    }

    static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (x as String, y as String): return x == y
        case let (x as NSNumber, y as NSNumber): return typeName(x) == typeName(y) && x == y
        default: return false
        }
    }
}
