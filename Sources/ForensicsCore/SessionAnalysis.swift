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
        // A rate change opens the window only when nothing else does. One at (or within half a
        // second of) the first likely-to-keep-up is the item's rate turning to 1 as playback
        // starts, not the play request: that window says nothing of the startup, which is then
        // the player's own figure (`timeTaken`, the summary's) or unknown — never 0 s (probes K,
        // L). A play request pressed earlier opens a window that stands, whatever `timeTaken`
        // counts from (an item loaded ahead of the press).
        if let begin = startupBegin, let end = startupEnd, session.entries.indices.contains(begin.index),
            session.entries[begin.index].record.playerEvent?.kind == .rateChange,
            end.time.secondsSince1970 - begin.time.secondsSince1970 < 0.5
        {
            startupBegin = nil
        }
        startup = StartupBreakdown(session, begin: startupBegin, end: startupEnd)
        stalls = session.computedStalls
        failures = session.computedFailures
        variantSwitches = session.computedVariantSwitches
    }
}
