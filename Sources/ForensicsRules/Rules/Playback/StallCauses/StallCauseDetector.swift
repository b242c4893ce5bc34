import ForensicsCore

/// One way a stall can be explained: a detector looks at the stall's look-back window and says
/// whether its cause is there, with the records (and server rows) that show it. The `stall` rule
/// asks every detector in `StallCauseDetectors.all` and names the most direct cause found
/// (`StallCause` order); the others are listed as competing. Adding a cause is a case in
/// `StallCause` and one detector here.
package protocol StallCauseDetector: Sendable {
    func detect(_ context: StallContext) -> StallCauseEvidence?
}

/// What every detector sees of one stall.
package struct StallContext {
    package var session: Session
    package var stall: Session.Stall
    package var options: StallRule.Options
    /// Timeline entries from the start of the look-back window to the stall (and, for an
    /// access-log stall, to the end of its row's period), the stall itself left out.
    package var window: [TimelineEntry]
    /// Requests that started before the window and were still running when it opened.
    package var inFlight: [TimelineEntry]
    /// The session's distinct failures of media requests inside the window.
    package var mediaFailures: [Session.Failure]

    /// Server rows joined to a request with a label that names one row (not ambiguous).
    func serverRows(_ entry: TimelineEntry) -> [JoinedServerRow] {
        session.serverViews(of: entry).filter { $0.confidence != .ambiguous }
    }
}

/// A cause found, with its first record, what shows it and why.
package struct StallCauseEvidence {
    package var cause: StallCause
    package var first: Timestamp
    package var entries: [TimelineEntry]
    /// The server rows behind the cause (CDN rows joined to the entries), quoted as evidence.
    package var serverRows: [JoinedServerRow] = []
    package var why: String

    package init(
        cause: StallCause, first: Timestamp, entries: [TimelineEntry], serverRows: [JoinedServerRow] = [], why: String
    ) {
        self.cause = cause
        self.first = first
        self.entries = entries
        self.serverRows = serverRows
        self.why = why
    }
}

/// The detectors the `stall` rule asks, one per cause.
package enum StallCauseDetectors {
    package static let all: [any StallCauseDetector] = [
        SeekDetector(), SegmentErrorsDetector(), ProxyFailureDetector(), SlowContentKeyDetector(),
        StaleLivePlaylistDetector(), SlowOriginDetector(), SlowCDNEdgeDetector(), InsufficientBandwidthDetector(),
    ]
}
