import Foundation

/// Parses `--timezone` values: `UTC`, `Z`, `+01:00`, `-0530`, `+8`, or a zone name
/// (`Europe/Berlin`, `America/New_York`, `CET`, `EST`).
public enum TimezoneOption {
    /// A zone by its tz database name or a common abbreviation.
    public static func named(_ text: String) -> TimeZone? {
        TimeZone(identifier: text) ?? TimeZone(abbreviation: text.uppercased())
    }

    public static func offsetSeconds(_ text: String) -> Int? {
        let t = text.uppercased()
        if t == "UTC" || t == "Z" || t == "GMT" { return 0 }
        guard let sign = t.first, sign == "+" || sign == "-" else { return nil }
        let digits = t.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber), digits.count <= 4 else { return nil }
        var hours = 0
        var minutes = 0
        if digits.count <= 2 {
            hours = Int(digits) ?? 0
        } else {
            hours = Int(digits.prefix(digits.count - 2)) ?? 0
            minutes = Int(digits.suffix(2)) ?? 0
        }
        guard hours <= 14, minutes < 60 else { return nil }
        let total = hours * 3600 + minutes * 60
        return sign == "-" ? -total : total
    }
}
