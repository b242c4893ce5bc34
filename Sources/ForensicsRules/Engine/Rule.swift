import ForensicsCore

/// A rule: a static description, options declared once (`RuleOptions`), and a judgment of one
/// session. One rule, one file, one type; listed in `RuleRegistry`.
package protocol Rule: Sendable {
    associatedtype Options: RuleOptions
    static var description: RuleDescription { get }
    var options: Options { get }
    init(options: Options)
    func findings(in session: Session) -> [Finding]
}

extension Rule {
    package init() { self.init(options: Options()) }

    /// A finding of this rule, with its default severity unless given.
    package func finding(
        severity: Severity? = nil, start: Timestamp?, end: Timestamp?, title: String, cause: String? = nil,
        explanation: String? = nil, details: [String: DetailValue] = [:], evidence: [Finding.Evidence],
        subject: Finding.Subject = Finding.Subject(), advice: String
    ) -> Finding {
        Finding(
            ruleID: Self.description.identifier, severity: severity ?? Self.description.defaultSeverity, start: start,
            end: end, title: title, cause: cause, explanation: explanation, details: details, evidence: evidence,
            advice: advice, subject: subject)
    }
}
