import ForensicsCore

/// `segment-exceeds-declared-bandwidth`: the player logged CoreMedia -12318, "Segment exceeds
/// specified bandwidth for variant": a segment's bit rate is above the BANDWIDTH its variant
/// declares. The segment was downloaded (no failed request), but the player chose the variant
/// on a figure that was too low, which is how a healthy network still stalls.
///
/// Why a rule of its own: these rows are no failure (they are left out of the error counts and
/// `segment-errors`), and an error log made only of them was otherwise read as "no problem".
package struct SegmentExceedsDeclaredBandwidthRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "segment-exceeds-declared-bandwidth", name: "Segment Exceeds Declared Bandwidth",
        summary: "The player found segments above the BANDWIDTH their variant declares (CoreMedia -12318).",
        rationale: """
            AVFoundation picks variants by their declared BANDWIDTH, the peak segment bit rate (RFC 8216bis \
            §4.4.6.2). A segment above it takes longer to download than the player planned for: it may switch \
            down, or stall on a network that the declared figures said was enough.
            """,
        kind: .stream, defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(
                "the error log says a segment exceeds its variant's bandwidth",
                files: [
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(
                            at: 20, uri: "https://cdn.example.com/a/v8/s9.m4s", status: -12318,
                            comment: "Segment exceeds specified bandwidth for variant", anchor: true)
                    ])
                ]),
            RuleExample(
                "an app's print of its error log, two segments of one variant",
                files: [
                    RuleExample.File(
                        "errorlog.txt",
                        """
                        errorStatusCode: -12318 | errorDomain: CoreMediaErrorDomain | errorComment: Segment exceeds specified bandwidth for variant | URI: https://cdn.example.com/a/v8/s3.m4s | date: 2026-11-21 10:00:12.000 +0000 ◀
                        errorStatusCode: -12318 | errorDomain: CoreMediaErrorDomain | errorComment: Segment exceeds specified bandwidth for variant | URI: https://cdn.example.com/a/v8/s4.m4s | date: 2026-11-21 10:00:18.000 +0000
                        """)
                ]),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: a segment 404 is a failure, not a bandwidth declaration",
                files: [
                    ExampleFixtures.errorLog([
                        ExampleFixtures.errorRow(at: 20, uri: "https://cdn.example.com/a/v8/s9.m4s")
                    ])
                ]),
            RuleExample(
                "near miss: a stalled live playlist (-12888) says nothing of bandwidth",
                files: [ExampleFixtures.staleLivePlaylistRow()]),
        ])

    package func findings(in session: Session) -> [Finding] {
        let rows = session.errorEntries.filter { $0.error.isBandwidthAdvisory }
        guard let first = rows.first else { return [] }
        var uris: [String] = []
        for item in rows { if let u = item.uri, !uris.contains(u), uris.count < 20 { uris.append(u) } }
        return [
            finding(
                start: first.entry.time, end: rows.last?.entry.time,
                title:
                    "\(rows.count) segment\(rows.count == 1 ? "" : "s") above the bandwidth their variant declares (CoreMedia -12318)",
                explanation:
                    "the player downloaded them (no failed request), but chose the variant on a BANDWIDTH lower than these segments need",
                details: ["segments": .integer(rows.count)],
                evidence: rows.prefix(20).map(\.evidence), subject: Finding.Subject(url: uris.first, urls: uris),
                advice:
                    "Declare each variant's BANDWIDTH as its peak segment bit rate (measure it over every segment, e.g. with mediastreamvalidator), and AVERAGE-BANDWIDTH as the average; re-encode segments that burst far above the rest."
            )
        ]
    }
}
