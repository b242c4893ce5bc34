/// An HLS attribute list (`NAME=VALUE,NAME="quoted, value"`), in written order.
///
/// The tokenizer is quote-aware (commas and `=` inside quotes belong to the value) and tolerant:
/// spaces after commas, a trailing comma and lower-case names are accepted and reported through
/// `deviations` so the parser can turn them into spec-violation diagnostics.
package struct AttributeList: Hashable, Sendable {
    package struct Attribute: Hashable, Sendable {
        package var name: String
        /// The value without its quotes.
        package var value: String
        package var quoted: Bool
    }

    package var attributes: [Attribute]
    package var deviations: [String]

    package init(attributes: [Attribute] = [], deviations: [String] = []) {
        self.attributes = attributes
        self.deviations = deviations
    }

    package init(parsing text: Substring) {
        var text = text
        self = text.withUTF8 { AttributeList(bytes: $0) }
    }

    /// Tokenizes the attribute list in place: names and values are the only strings built.
    init(bytes chars: UnsafeBufferPointer<UInt8>) {
        var attributes: [Attribute] = []
        var deviations: [String] = []
        var i = 0
        let n = chars.count
        func text(_ from: Int, _ to: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: chars[from..<to]).trimmingBlanks(), as: UTF8.self)
        }
        while i < n {
            while i < n, chars[i] == 32 || chars[i] == 9 {
                if !attributes.isEmpty, deviations.isEmpty { deviations.append("whitespace in attribute list") }
                i += 1
            }
            guard i < n else { break }
            let nameStart = i
            while i < n, chars[i] != 61, chars[i] != 44 { i += 1 }
            let name = text(nameStart, i)
            if i >= n || chars[i] == 44 {
                // A name with no value: keep it, as an enumerated empty value.
                if !name.isEmpty {
                    attributes.append(Attribute(name: name, value: "", quoted: false))
                    deviations.append("attribute \(name) has no value")
                }
                i += 1
                continue
            }
            i += 1  // '='
            while i < n, chars[i] == 32 { i += 1 }
            var value: String
            var quoted = false
            if i < n, chars[i] == 34 {
                quoted = true
                i += 1
                let vStart = i
                while i < n, chars[i] != 34 { i += 1 }
                value = String(decoding: UnsafeBufferPointer(rebasing: chars[vStart..<i]), as: UTF8.self)
                if i >= n { deviations.append("unterminated quoted string in \(name)") } else { i += 1 }
                while i < n, chars[i] != 44 { i += 1 }
            } else {
                let vStart = i
                while i < n, chars[i] != 44 { i += 1 }
                value = text(vStart, i)
                if value.isEmpty, !name.isEmpty { deviations.append("attribute \(name) has no value") }
            }
            if name.isEmpty {
                deviations.append("attribute without a name")
            } else {
                attributes.append(Attribute(name: name, value: value, quoted: quoted))
            }
            i += 1  // ','
        }
        // RFC 8216bis §4.2: no attribute name twice in one list (which value holds is anyone's
        // guess). Names in a set: a hostile line of many attributes stays linear.
        var seen: Set<String> = []
        var repeated: [String] = []
        for a in attributes where !seen.insert(a.name).inserted && !repeated.contains(a.name) && repeated.count < 8 {
            repeated.append(a.name)
        }
        for name in repeated { deviations.append("attribute \(name) given more than once") }
        self.attributes = attributes
        self.deviations = deviations
    }

    package subscript(name: String) -> String? {
        attributes.first(where: { $0.name == name })?.value
    }

    package func integer(_ name: String) -> Int64? {
        guard let v = self[name] else { return nil }
        if let i = Int64(v) { return i }
        // Some encoders write BANDWIDTH as a float; accept its integer part.
        if let d = Double(v), d.isFinite, abs(d) < 9e18 { return Int64(d) }
        return nil
    }

    package func decimal(_ name: String) -> Double? {
        self[name].flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
    }

    package func flag(_ name: String) -> Bool { self[name]?.uppercased() == "YES" }

    /// `RESOLUTION=1920x1080`.
    package func resolution(_ name: String = "RESOLUTION") -> (width: Int, height: Int)? {
        guard let v = self[name] else { return nil }
        let parts = v.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        return (w, h)
    }

    mutating func substitute(_ apply: (String) -> String) {
        for i in attributes.indices where attributes[i].quoted {
            attributes[i].value = apply(attributes[i].value)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
