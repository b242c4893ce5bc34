import ForensicsCore

/// A rule: a static description, typed options with documented defaults, and a judgment of one
/// session. One rule, one file, one type.
package protocol Rule: Sendable {
    associatedtype Options: Codable, Sendable, Equatable
    static var description: RuleDescription { get }
    static var defaultOptions: Options { get }
    /// One line per option: `key: meaning (default value)`, for the docs.
    static var optionDocs: [String: String] { get }
    var options: Options { get }
    init(options: Options)
    func findings(in session: Session) -> [Finding]
}

extension Rule {
    package init() { self.init(options: Self.defaultOptions) }

    /// A finding of this rule, with its default severity unless given.
    func finding(
        severity: Severity? = nil, start: Timestamp?, end: Timestamp?, title: String, cause: String? = nil,
        explanation: String? = nil, details: [String: DetailValue] = [:], evidence: [Finding.Evidence], advice: String
    ) -> Finding {
        Finding(
            ruleID: Self.description.identifier, severity: severity ?? Self.description.defaultSeverity, start: start,
            end: end, title: title, cause: cause, explanation: explanation, details: details, evidence: evidence,
            advice: advice)
    }
}

/// Options for rules that have none.
package struct NoOptions: Codable, Sendable, Equatable {
    package init() {}
}

extension Rule where Options == NoOptions {
    package static var defaultOptions: NoOptions { NoOptions() }
    package static var optionDocs: [String: String] { [:] }
}
