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
        // A rate change opens the window only when nothing else does, and its time need not be
        // when loading began (the app may call play() once the item is ready). Where the
        // likely-to-keep-up states the player's own startup time and it is clearly longer than
        // such a window, the player's figure is the startup: a 6.5 s startup is not 0 s because
        // the rate changed at the same instant.
        if let begin = startupBegin, let end = startupEnd, session.entries.indices.contains(begin.index),
            session.entries.indices.contains(end.index),
            session.entries[begin.index].record.playerEvent?.kind == .rateChange,
            let ended = session.entries[end.index].record.playerEvent, ended.kind == .initialLikelyToKeepUp,
            let taken = ended.timeTaken, taken.isFinite, taken < 86_400,
            taken - (end.time.secondsSince1970 - begin.time.secondsSince1970) > max(0.5, 0.25 * taken)
        {
            startupBegin = nil
        }
        startup = StartupBreakdown(session, begin: startupBegin, end: startupEnd)
        stalls = session.computedStalls
        failures = session.computedFailures
        variantSwitches = session.computedVariantSwitches
    }
}
