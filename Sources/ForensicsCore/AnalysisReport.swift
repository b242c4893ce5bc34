/// Everything one analysis found: inputs, sessions with findings, diagnostics.
public struct AnalysisReport: Sendable {
    public struct Input: Sendable {
        public var path: String
        public var format: InputFormat?
        public var records: Int
        public var diagnostics: Int
        /// What wrote the file, when its content tells (`KTVHTTPCache 1.1.x (…)`).
        public var producer: String?

        public init(path: String, format: InputFormat?, records: Int, diagnostics: Int, producer: String? = nil) {
            self.path = path
            self.format = format
            self.records = records
            self.diagnostics = diagnostics
            self.producer = producer
        }
    }

    public struct SessionResult: Sendable {
        public var session: Session
        public var findings: [Finding]

        public init(session: Session, findings: [Finding]) {
            self.session = session
            self.findings = findings
        }
    }

    public var bundle: String
    public var inputs: [Input]
    public var sessions: [SessionResult]
    public var diagnostics: [Diagnostic]
    public var unassignedRecords: Int
    /// Why the bundle was not read to the end (a bundle limit: records, bytes, time), or nil.
    public var incomplete: String?

    public init(
        bundle: String, inputs: [Input], sessions: [SessionResult], diagnostics: [Diagnostic], unassignedRecords: Int
    ) {
        self.bundle = bundle
        self.inputs = inputs
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.unassignedRecords = unassignedRecords
    }

    /// The most severe finding's severity, if any.
    public var worstSeverity: Severity? {
        sessions.flatMap(\.findings).map(\.severity).max()
    }
}
