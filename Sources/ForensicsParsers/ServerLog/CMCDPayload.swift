import Foundation

/// Common Media Client Data (CTA-5004 v1, CTA-5004-B v2) as a request carries it: comma-separated
/// `key=value` pairs, a bare key meaning true, strings in double quotes. Read leniently (a
/// duplicated key keeps its first value, stray quotes are dropped, anything unreadable skipped)
/// and what was not conformant is counted, never a reason to drop the row.
package struct CMCDPayload: Sendable, Equatable {
    package var values: [String: String] = [:]
    /// Pairs that broke the grammar (an empty key, a duplicate, an unbalanced quote).
    package var nonConformant = 0

    package init() {}

    package init(_ text: Substring) {
        var key = ""
        var value = ""
        var inValue = false
        var quoted = false
        func finish() {
            let k = key.trimmingCharacters(in: " ")
            key = ""
            defer {
                value = ""
                inValue = false
            }
            guard !k.isEmpty, k.count <= 64 else {
                if !k.isEmpty || !value.isEmpty { nonConformant += 1 }
                return
            }
            if values[k] != nil {
                nonConformant += 1
                return
            }
            values[k] = inValue ? String(value.prefix(1024)) : "true"
        }
        var escaped = false
        for c in text {
            if quoted {
                // A string's `\"` and `\\` are its characters (RFC 8941 strings).
                if escaped {
                    value.append(c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    quoted = false
                } else {
                    value.append(c)
                }
                continue
            }
            switch c {
            case ",": finish()
            case "=" where !inValue: inValue = true
            case "\"" where inValue: quoted = true
            default:
                if inValue { value.append(c) } else { key.append(c) }
            }
        }
        if quoted { nonConformant += 1 }
        finish()
    }

    /// The `CMCD` parameter of a query (percent-decoded), if there is one.
    package static func fromQuery(_ query: Substring) -> CMCDPayload? {
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].lowercased() == "cmcd" else { continue }
            let decoded = kv[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(kv[1])
            return CMCDPayload(Substring(decoded))
        }
        return nil
    }

    /// A key's number: a CMCD v1 integer or decimal, or the first member of a v2 inner list
    /// (`bl=(5000)`); nil when absent or not a finite number.
    package func number(_ key: String) -> Double? {
        guard let text = values[key] else { return nil }
        var v = Substring(text)
        if v.first == "(" {
            v = v.dropFirst().prefix { $0 != ")" && $0 != " " }
        }
        guard let n = Double(v), n.isFinite else { return nil }
        return n
    }

    /// One key from a column of its own; a value already there is kept.
    package mutating func set(_ key: String, _ value: String) {
        guard values[key] == nil, !value.isEmpty else { return }
        values[key] = String(value.prefix(1024))
    }

    /// Folds another payload in (the four CMCD headers, or a header beside a query).
    package mutating func merge(_ other: CMCDPayload) {
        nonConformant += other.nonConformant
        for (k, v) in other.values where values[k] == nil { values[k] = v }
    }
}
