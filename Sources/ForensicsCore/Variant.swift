/// A variant (rendition ladder step) as the player reports it.
public struct Variant: Hashable, Sendable, Codable {
    public var peakBitRate: Double?
    public var averageBitRate: Double?
    public var url: String?

    public init(peakBitRate: Double? = nil, averageBitRate: Double? = nil, url: String? = nil) {
        self.peakBitRate = peakBitRate
        self.averageBitRate = averageBitRate
        self.url = url
    }

    /// The bandwidth to compare variants by: peak when known, else average.
    public var bandwidth: Double? { peakBitRate ?? averageBitRate }

    public var label: String {
        if let b = bandwidth { return BitRateFormat.text(b) }
        return url ?? "unknown variant"
    }
}

public enum BitRateFormat {
    /// `20 Mbit/s`, `1.5 Mbit/s`, `800 kbit/s`.
    public static func text(_ bitsPerSecond: Double) -> String {
        if bitsPerSecond >= 1_000_000 {
            return "\(NumberFormat.trimmed(bitsPerSecond / 1_000_000, decimals: 1)) Mbit/s"
        }
        return "\(NumberFormat.trimmed(bitsPerSecond / 1000, decimals: 0)) kbit/s"
    }
}

public enum NumberFormat {
    /// A decimal with at most `decimals` digits, trailing zeros removed: deterministic, locale-free.
    public static func trimmed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "n/a" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 9e15 else { return String(value) }
        let integer = Int64(scaled)
        let negative = integer < 0
        let magnitude = integer.magnitude
        let whole = magnitude / UInt64(scale)
        var frac = String(magnitude % UInt64(scale))
        if decimals > 0 {
            frac = String(repeating: "0", count: decimals - frac.count) + frac
            while frac.hasSuffix("0") { frac.removeLast() }
        } else {
            frac = ""
        }
        return (negative ? "-" : "") + String(whole) + (frac.isEmpty ? "" : "." + frac)
    }

    /// Seconds with millisecond precision: `1.92 s`.
    public static func seconds(_ value: Double) -> String { "\(trimmed(value, decimals: 3)) s" }
}
