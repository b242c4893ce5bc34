/// Nearest-rank percentiles, deterministic for the same values.
package enum TriageStatistics {
    package static func percentile(_ values: [Double], _ p: Double) -> Double? {
        let s = values.filter(\.isFinite).sorted()
        guard !s.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(s.count)).rounded(.up))
        return s[min(max(rank, 1), s.count) - 1]
    }
}
