import Testing

@testable import ForensicsParsers

/// `headerValue` compares names as ASCII bytes and lower-cases as Unicode only a name with a
/// non-ASCII byte: it must answer exactly what lower-casing every key answered.
@Suite struct HeaderValueTests {
    static func reference(_ headers: [String: String], _ name: String) -> String? {
        let lower = name.lowercased()
        return headers.keys.filter { $0.lowercased() == lower }.min().flatMap { headers[$0] }
    }

    static let cases: [[String: String]] = [
        ["Content-Type": "video/mp4"],
        ["content-type": "a", "Content-Type": "b", "CONTENT-TYPE": "c"],
        ["Content-Typ": "short", "Content-Types": "long"],
        ["Content-Type\u{212A}": "kelvin", "content-typek": "k"],
        ["\u{212A}ey": "kelvin key", "KEY": "upper"],
        ["Cöntent-Type": "umlaut", "x": "y"],
        [:],
    ]

    @Test(arguments: cases)
    func matchesLowerCasingEveryKey(headers: [String: String]) {
        for name in ["content-type", "Content-Type", "key", "content-typek", "cöntent-type", "", "x"] {
            #expect(headers.headerValue(name) == Self.reference(headers, name), "\(name) in \(headers)")
        }
    }
}
