import ForensicsCore

/// `segment-errors`: repeated errors on media requests, grouped per host and status — the table
/// to hand a CDN partner.
public struct SegmentErrorsRule: Rule {
    public struct Options: Codable, Sendable, Equatable {
        public var minimumCount: Double = 3
        enum CodingKeys: String, CodingKey { case minimumCount = "minimum-count" }
    }

    public static let defaultOptions = Options()
    public static let optionDocs = ["minimum-count": "errors per host and status needed to report the group (3)"]
    public let options: Options
    public init(options: Options) { self.options = options }

    public static let description = RuleDescription(
        identifier: "segment-errors", name: "Segment Errors",
        summary: "Repeated HTTP or network errors on media requests, grouped per host and status.",
        rationale: """
            One failed segment is retried and forgotten; several on one host with one status point \
            at a CDN or origin problem that a partner can look up with the URLs and times given.
            """,
        kind: .playback, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "three 503s from one CDN host",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://edge1.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6 ◀
                    10.20 segment https://edge1.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6
                    10.50 segment https://edge1.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6
                    """),
            RuleExample(
                "timeouts without a status",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://edge2.cdn.example.com/a/v8/s2.ts - 30.0 dur=6 error=-1001 ◀
                    40.00 segment https://edge2.cdn.example.com/a/v8/s3.ts - 30.0 dur=6 error=-1001
                    70.00 segment https://edge2.cdn.example.com/a/v8/s4.ts - 30.0 dur=6 error=-1001
                    """),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: two errors",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://edge1.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6
                    10.20 segment https://edge1.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6
                    """),
            RuleExample(
                "three errors on three hosts",
                timeline: """
                    0.700 initial-ltku variant=8M
                    10.00 segment https://edge1.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6
                    10.20 segment https://edge2.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6
                    10.50 segment https://edge3.cdn.example.com/a/v8/s2.ts 503 0.050 dur=6
                    """),
        ])

    public func findings(in session: Session) -> [Finding] {
        var groups: [String: [(TimelineEntry, MediaRequest)]] = [:]
        for item in session.failedMediaRequests {
            let host = URLCanonicalizer.host(URLCanonicalizer.canonical(item.request.url)) ?? "unknown host"
            let status = item.request.effectiveStatus.map { "HTTP \($0)" } ?? item.request.error.map { "\($0.domain ?? "error") \($0.code.map(String.init) ?? "")" } ?? "error"
            groups["\(host)|\(status)", default: []].append((item.entry, item.request))
        }
        var out: [Finding] = []
        for (key, list) in groups.sorted(by: { $0.key < $1.key }) where Double(list.count) >= options.minimumCount {
            let parts = key.split(separator: "|", maxSplits: 1).map(String.init)
            let host = parts.first ?? ""
            let status = parts.count > 1 ? parts[1] : ""
            out.append(
                finding(
                    severity: list.count >= 10 ? .error : nil, start: list.first?.0.time, end: list.last?.0.endTime,
                    title: "\(list.count) media requests to \(host) failed with \(status)",
                    details: [
                        "host": .string(host), "status": .string(status), "count": .integer(list.count),
                        "urls": .strings(Array(Set(list.map { $0.1.url })).sorted().prefix(20).map { $0 }),
                    ],
                    evidence: list.prefix(20).flatMap { Finding.Evidence.all($0.0) },
                    advice: "Hand this to the CDN/origin owner of \(host): the failing URLs, times and status are in the evidence. Check origin health, cache errors and whether the content was published."))
        }
        return out
    }
}
