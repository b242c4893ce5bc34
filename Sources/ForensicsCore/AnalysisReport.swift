/// Everything one analysis found: inputs, sessions with findings, diagnostics.
public struct AnalysisReport: Sendable {
    public struct Input: Sendable {
        public var path: String
        public var format: InputFormat?
        public var records: Int
        public var diagnostics: Int
        /// What wrote the file, when its content tells (`KTVHTTPCache 1.1.x (…)`).
        public var producer: String?
        /// Why the file was not read (`Markdown text`, `CDN access log — CloudFront`, `encrypted
        /// zip member`…), or nil for a file a format read.
        public var notRead: NotRead?
        /// A server log read through the bundle's filter: every row it held (`records` are the
        /// kept ones).
        public var rowsRead: Int?

        public init(
            path: String, format: InputFormat?, records: Int, diagnostics: Int, producer: String? = nil,
            notRead: NotRead? = nil
        ) {
            self.path = path
            self.format = format
            self.records = records
            self.diagnostics = diagnostics
            self.producer = producer
            self.notRead = notRead
        }
    }

    public struct SessionResult: Sendable {
        public var session: Session
        public var findings: [Finding]
        /// What this session's evidence could not show, each a reason without the session's name
        /// ("stalls and startup time cannot be judged: …"). Kept with the session, so that
        /// narrowing to other sessions leaves them out; the bundle verdict groups equal reasons
        /// across sessions.
        public var gaps: [String] = []
        /// The worst finding that narrowing (`--min-severity`, `--since`, `--until`) left out of
        /// `findings`: a display filter changes what is shown, not what was found, so the verdict
        /// still counts it.
        public var hiddenWorst: Severity?

        /// The worst finding of the session, shown or narrowed away.
        public var worstSeverity: Severity? {
            [findings.map(\.severity).max(), hiddenWorst].compactMap { $0 }.max()
        }

        public init(session: Session, findings: [Finding], gaps: [String] = []) {
            self.session = session
            self.findings = findings
            self.gaps = gaps
        }
    }

    public var bundle: String
    public var inputs: [Input]
    public var sessions: [SessionResult]
    public var diagnostics: [Diagnostic]
    public var unassignedRecords: Int
    /// Why the bundle was not read to the end (a bundle limit: records, bytes, time), or nil.
    public var incomplete: String?
    /// What the analysis itself could not judge (a captured media playlist with no playable
    /// segment, …): reasons for `verdict`.
    public var caveats: [String] = []
    /// Server rows (CDN and origin logs) read, and how many joined no session: other viewers'
    /// rows, or requests the bundle does not show.
    /// Set when narrowing (`--session`, `--since`, `--until`) left out sessions the bundle has:
    /// when it left none, why, in a sentence (the report then says so, never "no session could be
    /// built"); when it left some, the selection's scope and what the left-out sessions hold.
    public var narrowedAway: String?
    public var serverRows = 0
    public var unjoinedServerRows = 0

    public init(
        bundle: String, inputs: [Input], sessions: [SessionResult], diagnostics: [Diagnostic], unassignedRecords: Int
    ) {
        self.bundle = bundle
        self.inputs = inputs
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.unassignedRecords = unassignedRecords
    }

    /// The most severe finding's severity, if any (narrowed-away findings included).
    public var worstSeverity: Severity? {
        sessions.compactMap(\.worstSeverity).max()
    }
}
