import ForensicsCore

/// The records of one input file, as handed to the correlator.
public struct SourceFile: Sendable {
    public var path: String
    public var format: InputFormat
    public var records: [Record]
    public var clock: SourceClock

    public init(path: String, format: InputFormat, records: [Record], clock: SourceClock = .utc) {
        self.path = path
        self.format = format
        self.records = records
        self.clock = clock
    }
}

/// A record the correlator could not place in any session, and why.
public struct UnassignedRecord: Sendable {
    public var record: Record
    public var reason: String
}

/// The correlator's output: sessions, what fit none, and its own diagnostics.
public struct CorrelationResult: Sendable {
    public var sessions: [Session]
    public var unassigned: [UnassignedRecord]
    public var diagnostics: [Diagnostic]
}
