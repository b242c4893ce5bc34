import ForensicsCore

/// `segment-errors`: repeated errors on media requests, grouped per host and status — the table
/// to hand a CDN partner.
package struct SegmentErrorsRule: Rule {
    package struct Options: RuleOptions {
        package var minimumCount: Int = 3

        package init() {}

        package static var declarations: [RuleOption<Options>] {
            [
                .count("minimum-count", \.minimumCount, "errors per host and status needed to report the group")
            ]
        }
    }

    package let options: Options
    package init(options: Options) { self.options = options }

    package static let description = RuleDescription(
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
            RuleExample(
                "error log only: three segment 404s from one host",
                files: [
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(at: 444, uri: "https://cdn.example.com/a/v20/s74.m4s", anchor: true),
                        ExampleFixtures.errorRow(at: 448, uri: "https://cdn.example.com/a/v15/s75.m4s"),
                        ExampleFixtures.errorRow(at: 449, uri: "https://cdn.example.com/a/v15/s75.m4s"),
                    ])
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: three error-log rows -12888 (a live playlist unchanged) are no failed media requests",
                files: ExampleFixtures.staleLiveLogs(anchor: false)),
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
            RuleExample(
                "near miss: error log only, two segment 404s",
                files: [
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(at: 444, uri: "https://cdn.example.com/a/v20/s74.m4s"),
                        ExampleFixtures.errorRow(at: 448, uri: "https://cdn.example.com/a/v15/s75.m4s"),
                    ])
                ]),
        ])

    package func findings(in session: Session) -> [Finding] {
        struct Group: Hashable, Comparable {
            var host: String
            var status: String
            static func < (a: Group, b: Group) -> Bool { (a.host, a.status) < (b.host, b.status) }
        }
        // One failure per request, however many sources saw it (the session's failure list).
        var groups: [Group: [Session.Failure]] = [:]
        for f in session.analysis.failures {
            let fromErrorLog: Bool
            if case .errorLog = session.entries[f.index].record.payload {
                fromErrorLog = true
            } else {
                fromErrorLog = false
            }
            guard f.isMedia || fromErrorLog && (f.kind == .other || f.kind == nil), let url = f.url else { continue }
            let host = URLCanonicalizer.host(URLCanonicalizer.canonical(url)) ?? "unknown host"
            groups[Group(host: host, status: f.statusText), default: []].append(f)
        }
        var out: [Finding] = []
        for (key, list) in groups.sorted(by: { $0.key < $1.key }) where list.count >= options.minimumCount {
            let entries = list.map { session.entries[$0.index] }
            var details: [String: DetailValue] = [
                "host": .string(key.host), "status": .string(key.status), "count": .integer(list.count),
                "urls": .strings(Array(Set(list.compactMap(\.url))).sorted().prefix(20).map { $0 }),
            ]
            var evidence = entries.prefix(20).flatMap { Finding.Evidence.all($0) }
            var subject = Finding.Subject(
                host: key.host, status: key.status,
                urls: Array(Set(list.compactMap(\.url))).sorted().prefix(20).map { $0 })
            // With CDN rows joined: whose fault, with the rows the CDN partner asks for.
            let server = ServerSide.verdict(entries, in: session)
            if let server {
                details["server_side"] = .strings(server.owners.map(\.rawValue))
                evidence += server.rows.prefix(20).map(Finding.Evidence.init(serverRow:))
                subject.servedBy(server.rows.compactMap(\.serverRequest))
            }
            out.append(
                finding(
                    severity: list.count >= 10 ? .error : nil, start: entries.first?.time,
                    end: entries.compactMap { $0.endTime ?? $0.time }.max(),
                    title:
                        "\(list.count) media request\(list.count == 1 ? "" : "s") to \(key.host) failed with \(key.status)",
                    explanation: server?.sentence, details: details,
                    evidence: evidence,
                    subject: subject,
                    advice:
                        "Hand this to the CDN/origin owner of this host (see the host detail): the failing URLs, times and status are in the evidence. Check origin health, cache errors and whether the content was published."
                ))
        }
        return out
    }
}
