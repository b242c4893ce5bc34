/// How bad a finding or diagnostic is. Ordered: `info < warning < error < critical`.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error, critical

    /// 0 for info up to 3 for critical (what the triage index stores and SQL sorts by).
    public var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        case .critical: 3
        }
    }

    /// The severity of a rank, nil for a number that is none.
    public init?(rank: Int) {
        guard let s = Severity.allCases.first(where: { $0.rank == rank }) else { return nil }
        self = s
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
