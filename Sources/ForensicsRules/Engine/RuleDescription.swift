import ForensicsCore

/// The single source of truth for a rule's identity, documentation and tests (after SwiftLint's
/// `RuleDescription`): `playback-forensics rules`, `Documentation/Rules/ID.md` and the generic
/// example test are all generated from it.
package struct RuleDescription: Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        case startup
        case playback
        case proxy
        /// The stream itself (the playlists), whatever the player did.
        case stream
    }

    /// Kebab-case, stable forever (it is API: JSON reports and configs name it).
    package var identifier: String
    package var name: String
    package var summary: String
    package var rationale: String
    package var kind: Kind
    package var defaultSeverity: Severity
    package var triggeringExamples: [RuleExample]
    package var nonTriggeringExamples: [RuleExample]

    package init(
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
package struct RuleExample: Sendable {
    package struct File: Sendable {
        package var name: String
        package var text: String

        package init(_ name: String, _ text: String) {
            self.name = name
            self.text = text
        }
    }

    package var title: String
    package var files: [File]
    /// For stall findings: the cause the finding must name.
    package var expectedCause: String?
    package var expectedSeverity: Severity?

    package init(_ title: String, files: [File], cause: String? = nil, severity: Severity? = nil) {
        self.title = title
        self.files = files
        self.expectedCause = cause
        self.expectedSeverity = severity
    }

    /// An example made of one timeline script.
    package init(_ title: String, timeline: String, cause: String? = nil, severity: Severity? = nil) {
        self.init(title, files: [File("events.timeline", timeline)], cause: cause, severity: severity)
    }

    package static let anchorMarker: Character = "◀"

    /// Where example times count from: 2026-11-21T10:00:00Z (`0.000` in a timeline script).
    package static let baseTime = 1_795_255_200.0

    /// A string as a JSON literal, for fixtures written as JSON (metric events, HAR).
    package static func jsonString(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}
