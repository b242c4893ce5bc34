/// Finds the elements of one array inside a JSON document without decoding it, so each element
/// can be decoded on its own and keep the line where it starts.
///
/// The array is named by a key path: `[]` is a top-level array, `["events"]` the metric dump's
/// `{"events": [...]}` form, `["log", "entries"]` a HAR file. String values at the top level are
/// reported in `topLevelStrings` (the dump's document-wide `sessionID`).
struct JSONDocumentScanner {
    struct Element {
        var range: Range<Int>
        var line: Int
    }

    struct Result {
        var elements: [Element] = []
        var topLevelStrings: [String: String] = [:]
        var error: String?
    }

    /// Nesting deeper than this is refused (hostile input), with an error instead of recursion.
    static let maxDepth = 512

    static func scan(_ b: [UInt8], arrayPaths: [[String]]) -> Result {
        var result = Result()
        let n = b.count
        var i = n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF ? 3 : 0
        var line = 1
        var inString = false
        var escape = false
        var targetDepth: Int?
        var elementStart: Int?
        var elementLine = 0
        // Per open container: is it an object, does it expect a key next, the current key.
        var isObject: [Bool] = []
        var expectingKey: [Bool] = []
        var keys: [String?] = []
        var stringStart = 0
        var stringRole = 0  // 0 other, 1 key, 2 top-level value

        func path() -> [String]? {
            var p: [String] = []
            for (k, o) in zip(keys, isObject) {
                guard o else { return nil }
                guard let k else { return nil }
                p.append(k)
            }
            return p
        }

        while i < n {
            let c = b[i]
            if c == 10 { line += 1 }
            if inString {
                if escape {
                    escape = false
                } else if c == 92 {
                    escape = true
                } else if c == 34 {
                    inString = false
                    let text = stringRole == 0 ? nil : String(decoding: b[stringStart..<i], as: UTF8.self)
                    if stringRole == 1, let text {
                        keys[keys.count - 1] = text
                    } else if stringRole == 2, let text, let key = keys.first ?? nil {
                        result.topLevelStrings[key] = text
                    }
                }
                i += 1
                continue
            }
            let depth = isObject.count
            if depth == targetDepth, elementStart == nil, c > 32, c != 44, c != 93 {
                elementStart = i
                elementLine = line
            }
            switch c {
            case 34:
                inString = true
                stringStart = i + 1
                if depth > 0, isObject[depth - 1], expectingKey[depth - 1] {
                    stringRole = 1
                } else {
                    stringRole = depth == 1 && isObject[0] ? 2 : 0
                }
            case 58:
                if depth > 0 { expectingKey[depth - 1] = false }
            case 44:
                if depth == targetDepth, let s = elementStart {
                    result.elements.append(Element(range: s..<i, line: elementLine))
                    elementStart = nil
                }
                if depth > 0, isObject[depth - 1] {
                    expectingKey[depth - 1] = true
                    keys[depth - 1] = nil
                }
            case 91, 123:
                if targetDepth == nil, c == 91, let p = path(), arrayPaths.contains(p) {
                    targetDepth = depth + 1
                }
                isObject.append(c == 123)
                expectingKey.append(c == 123)
                keys.append(nil)
                if isObject.count > maxDepth {
                    result.error = "JSON nested deeper than \(maxDepth) levels at line \(line)"
                    return result
                }
            case 93, 125:
                if depth == targetDepth, let s = elementStart {
                    result.elements.append(Element(range: s..<i, line: elementLine))
                    elementStart = nil
                }
                guard depth > 0 else {
                    result.error = "unbalanced JSON at line \(line)"
                    return result
                }
                if depth == targetDepth { targetDepth = -1 }
                isObject.removeLast()
                expectingKey.removeLast()
                keys.removeLast()
            default:
                break
            }
            i += 1
        }
        if !isObject.isEmpty || inString {
            result.error = "JSON document ends early (truncated?) at line \(line)"
            if let s = elementStart { result.elements.append(Element(range: s..<n, line: elementLine)) }
        } else if targetDepth == nil {
            result.error =
                "no \(arrayPaths.map { $0.isEmpty ? "top-level array" : $0.joined(separator: ".") }.joined(separator: " or ")) found"
        }
        return result
    }
}
