/// Text and attribute values for the HTML and SVG the reports write (and the JUnit XML).
package enum XMLText {
    /// XML/HTML text and attribute values; other control characters (but line feed and tab) as spaces.
    package static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c.value < 0x20 && c != "\n" && c != "\t" ? " " : c)
            }
        }
        return out
    }
}
