/// How bad a finding or diagnostic is. Ordered: `info < warning < error < critical`.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error, critical

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        case .critical: 3
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
