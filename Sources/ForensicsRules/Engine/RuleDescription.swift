import ForensicsCore

/// The single source of truth for a rule's identity, documentation and tests (after SwiftLint's
/// `RuleDescription`): `playback-forensics rules`, `Documentation/Rules/ID.md` and the generic
/// example test are all generated from it.
public struct RuleDescription: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case startup
        case playback
        case proxy
    }

    /// Kebab-case, stable forever (it is API: JSON reports and configs name it).
    public var identifier: String
    public var name: String
    public var summary: String
    public var rationale: String
    public var kind: Kind
    public var defaultSeverity: Severity
    public var triggeringExamples: [RuleExample]
    public var nonTriggeringExamples: [RuleExample]

    public init(
        identifier: String, name: String, summary: String, rationale: String, kind: Kind, defaultSeverity: Severity,
        triggeringExamples: [RuleExample], nonTriggeringExamples: [RuleExample]
    ) {
        self.identifier = identifier
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.kind = kind
        self.defaultSeverity = defaultSeverity
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
    }
}

/// A short bundle that must (or must not) make a rule fire. Files named `*.timeline` are written
/// in the compact timeline script (`TimelineScript`) and compiled to a metric-event dump; other
/// files are given as is. A line marked with `◀` is the record the finding must be anchored on
/// (it must be among the finding's evidence); the marker is removed before parsing.
public struct RuleExample: Sendable {
    public struct File: Sendable {
        public var name: String
        public var text: String

        public init(_ name: String, _ text: String) {
            self.name = name
            self.text = text
        }
    }

    public var title: String
    public var files: [File]
    /// For stall findings: the cause the finding must name.
    public var expectedCause: String?
    public var expectedSeverity: Severity?

    public init(_ title: String, files: [File], cause: String? = nil, severity: Severity? = nil) {
        self.title = title
        self.files = files
        self.expectedCause = cause
        self.expectedSeverity = severity
    }

    /// An example made of one timeline script.
    public init(_ title: String, timeline: String, cause: String? = nil, severity: Severity? = nil) {
        self.init(title, files: [File("events.timeline", timeline)], cause: cause, severity: severity)
    }

    public static let anchorMarker: Character = "◀"
}
