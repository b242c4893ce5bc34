/// Something the tool could not read, or read with doubts. Diagnostics are counted and reported,
/// never dropped: a user must be able to see what part of their bundle was not used.
public struct Diagnostic: Hashable, Sendable, Codable {
    public var location: SourceLocation
    public var severity: Severity
    public var message: String

    public init(_ location: SourceLocation, _ severity: Severity, _ message: String) {
        self.location = location
        self.severity = severity
        self.message = message
    }
}
