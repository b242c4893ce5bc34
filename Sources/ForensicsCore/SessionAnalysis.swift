/// What the correlator derives from a session's timeline once, for the KPIs, every rule and every
/// report to read: the startup window and where its time went, the stalls, the failures and the
/// variant switches. Computing them once keeps one story per report (a rule and the report's
/// table cannot disagree about the startup) and keeps each rule from walking the timeline again.
public struct SessionAnalysis: Sendable {
    /// From the first request (or play) to the first likely-to-keep-up, by timeline index.
    public var startupBegin: (index: Int, time: Timestamp)?
    public var startupEnd: (index: Int, time: Timestamp)?
    /// The startup window split into playlist, key, segment and idle time; nil without request
    /// timing or without both ends of the window.
    public var startup: StartupBreakdown?
    public var stalls: [Session.Stall]
    public var failures: [Session.Failure]
    /// Nil when no source shows variants at all (unknown, not "no switch").
    public var variantSwitches: [Session.VariantSwitch]?

    public init() {
        stalls = []
        failures = []
    }

    /// Derives the analysis of a session whose timeline is complete.
    public init(_ session: Session) {
        startupBegin = session.computedStartupBegin
        startupEnd = session.computedStartupEnd
        startup = StartupBreakdown(session, begin: startupBegin, end: startupEnd)
        stalls = session.computedStalls
        failures = session.computedFailures
        variantSwitches = session.computedVariantSwitches
    }
}
