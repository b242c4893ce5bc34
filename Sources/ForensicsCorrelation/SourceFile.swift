import ForensicsCore

/// The records of one input file, as handed to the correlator.
package struct SourceFile: Sendable {
    package var path: String
    package var format: InputFormat
    package var records: [Record]
    package var clock: SourceClock
    /// The device's zone (seconds east of UTC), when the file's own time stamps tell it (an NSLog
    /// console prefix, `2026-11-21 18:00:00.123456+0800 App[…]`): the same device's local-time
    /// logs are then in that zone.
    package var deviceZone: Int?
    /// What the format declares it is: whether its rows make sessions or are joined to them,
    /// how its clock and its view of a request rank.
    package var semantics: SourceSemantics
    /// A server log read through a filter: every row it held, kept or not.
    package var coverage: ServerLogCoverage?

    package init(
        path: String, format: InputFormat, semantics: SourceSemantics, records: [Record], clock: SourceClock = .utc,
        deviceZone: Int? = nil
    ) {
        self.path = path
        self.format = format
        self.records = records
        self.clock = clock
        self.deviceZone = deviceZone
        self.semantics = semantics
    }
}

/// A record the correlator could not place in any session, and why.
package struct UnassignedRecord: Sendable {
    package var record: Record
    package var reason: String
}

/// The correlator's output: sessions, what fit none, and its own diagnostics.
package struct CorrelationResult: Sendable {
    package var sessions: [Session]
    package var unassigned: [UnassignedRecord]
    package var diagnostics: [Diagnostic]
    /// Server rows read (every viewer's), and how many joined no session's request.
    package var serverRows = 0
    package var unjoinedServerRows = 0
}
