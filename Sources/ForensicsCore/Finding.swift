/// One judgment of a rule about a session: what went wrong, how bad, why we think so, what to do.
public struct Finding: Sendable, Hashable {
    /// What the finding is about, as types the fleet view groups by (who owns the problem: a CDN
    /// partner by host, status and POP; a packaging team by variant). Rules fill what they know;
    /// triage reads it, never the rule's free-form `details`.
    public struct Subject: Sendable, Hashable {
        public var host: String?
        /// An HTTP status, or a group of them as the rule names it (`404`, `5xx`, `-1009`).
        public var status: String?
        /// The one resource the finding is about.
        public var url: String?
        /// The resources, when the finding is about several.
        public var urls: [String]
        /// The variant's bandwidth (bits/s) the finding is about.
        public var variantBandwidth: Int?
        /// The CDN POP or edge that served the requests behind the finding (from joined server rows).
        public var pop: String?
        /// The cache result (normalised) of those requests, when they share one.
        public var cacheResult: String?

        public init(
            host: String? = nil, status: String? = nil, url: String? = nil, urls: [String] = [],
            variantBandwidth: Int? = nil, pop: String? = nil, cacheResult: String? = nil
        ) {
            self.host = host
            self.status = status
            self.url = url
            self.urls = urls
            self.variantBandwidth = variantBandwidth
            self.pop = pop
            self.cacheResult = cacheResult
        }

        /// Sets the POP and cache result the server rows behind the finding share (none when
        /// they differ: a fleet groups by one place, never by a guess).
        public mutating func servedBy(_ rows: [ServerRequest]) {
            let pops = Set(rows.compactMap(\.pop))
            let results = Set(rows.map(\.cacheResult).filter { $0 != .unknown })
            pop = pops.count == 1 ? pops.first : nil
            cacheResult = results.count == 1 ? results.first?.rawValue : nil
        }

        /// A bandwidth from a measured value: nil unless finite, positive and below 1 Tbit/s.
        public static func bandwidth(_ v: Double?) -> Int? {
            guard let v, v.isFinite, v > 0, v < 1e12 else { return nil }
            return Int(v.rounded())
        }
    }

    public struct Evidence: Sendable, Hashable {
        public var location: SourceLocation
        public var time: Timestamp?
        public var summary: String
        /// Where the record sits on the session's timeline, when the rule took it from there (the
        /// report opens its excerpt at this entry instead of searching for the record).
        public var timelineIndex: Int?

        public init(location: SourceLocation, time: Timestamp?, summary: String, timelineIndex: Int? = nil) {
            self.location = location
            self.time = time
            self.summary = summary
            self.timelineIndex = timelineIndex
        }

        public init(_ entry: TimelineEntry) {
            self.init(
                location: entry.location, time: entry.time, summary: entry.record.summary, timelineIndex: entry.index)
        }

        /// The session's timeline entry at `index`, remembered by its position.
        public init(_ session: Session, _ index: Int) {
            let entry = session.entries[index]
            self.init(location: entry.location, time: entry.time, summary: entry.record.summary, timelineIndex: index)
        }

        /// A server row joined to a request: its own file and line, its time on the session's
        /// clock, and what it says (the CDN's request id first among its facts).
        public init(serverRow: JoinedServerRow) {
            self.init(
                location: serverRow.record.location, time: serverRow.alignedStart,
                summary:
                    "\(serverRow.record.summary) [\(serverRow.confidence.rawValue) join by \(serverRow.key.rawValue)]",
                timelineIndex: serverRow.entryIndex)
        }

        /// The entry and every other source's view of the same request (HAR entry, proxy line),
        /// so a finding names each record it relied on.
        public static func all(_ entry: TimelineEntry) -> [Evidence] {
            [Evidence(entry)]
                + entry.otherViews.map {
                    Evidence(location: $0.location, time: entry.time, summary: $0.summary, timelineIndex: entry.index)
                }
        }
    }

    public var ruleID: String
    public var severity: Severity
    public var start: Timestamp?
    public var end: Timestamp?
    public var title: String
    public var cause: String?
    /// Why the rule concluded what it did, in one sentence (the report's "Why:"; `explanation`
    /// among the JSON report's details).
    public var explanation: String?
    public var details: [String: DetailValue]
    public var evidence: [Evidence]
    public var advice: String
    public var subject: Subject

    public init(
        ruleID: String, severity: Severity, start: Timestamp?, end: Timestamp?, title: String, cause: String? = nil,
        explanation: String? = nil, details: [String: DetailValue] = [:], evidence: [Evidence], advice: String,
        subject: Subject = Subject()
    ) {
        self.subject = subject
        self.explanation = explanation
        self.ruleID = ruleID
        self.severity = severity
        self.start = start
        self.end = end
        self.title = title
        self.cause = cause
        self.details = details
        // A record a rule names twice (the first request is also the slowest) is one piece of
        // evidence: a report listing the same row twice reads as two requests.
        var seen = Set<Evidence>()
        self.evidence = evidence.filter { seen.insert($0).inserted }
        self.advice = advice
    }
}

/// A rule-specific value in a finding's `details` (thresholds, measured values).
public enum DetailValue: Sendable, Hashable {
    case number(Double)
    case integer(Int)
    case string(String)
    case bool(Bool)
    case strings([String])
    case null

    public static func seconds(_ v: Double?) -> DetailValue { v.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
}

extension Finding {
    /// Most severe first, then `reportOrder`: how reports and the index list a session's findings.
    public static func severityFirst(_ a: Finding, _ b: Finding) -> Bool {
        a.severity != b.severity ? a.severity > b.severity : reportOrder(a, b)
    }

    /// Start time (findings without one last), then rule id, then title.
    public static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
        let ta = a.start?.secondsSince1970 ?? .infinity
        let tb = b.start?.secondsSince1970 ?? .infinity
        if ta != tb { return ta < tb }
        if a.ruleID != b.ruleID { return a.ruleID < b.ruleID }
        return a.title < b.title
    }
}

extension Finding {
    /// A `stall` finding the rule put down to a seek outside the buffer: a wait the viewer asked
    /// for, counted apart from stalls (key figures, charts). One predicate, so the figures, the
    /// Markdown chart and the HTML picture decide alike.
    public var isSeekWait: Bool { ruleID == "stall" && cause == "seek" }
}
