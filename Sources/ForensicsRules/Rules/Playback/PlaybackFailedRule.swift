import ForensicsCore

/// `playback-failed`: the session ended in a fatal (unrecovered) error.
public struct PlaybackFailedRule: Rule {
    public let options: NoOptions
    public init(options: NoOptions) { self.options = options }

    public static let description = RuleDescription(
        identifier: "playback-failed", name: "Playback Failed",
        summary: "The session ended in a fatal error the player did not recover from.",
        rationale: "A fatal error ends the viewer's session: the most severe outcome, to be explained before anything else.",
        kind: .playback, defaultSeverity: .critical,
        triggeringExamples: [
            RuleExample(
                "a fatal 404 on the multivariant playlist",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 404 0.100
                    0.200 error -12938 "HTTP 404: File Not Found" fatal ◀
                    """),
            RuleExample(
                "a summary that ends with an unrecovered error",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    90.00 summary stalls=0 switches=0 duration=89 fatal ◀
                    """),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "a recovered error",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    24.00 error -12938 "HTTP 404: File Not Found" recovered
                    """),
            RuleExample(
                "near miss: a failed request the player recovered from",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.700 initial-ltku variant=5M
                    24.00 segment https://cdn.example.com/a/v5/s4.ts 503 0.050 dur=6
                    90.00 summary stalls=0 switches=0 duration=89
                    """),
        ])

    public func findings(in session: Session) -> [Finding] {
        var evidence: [Finding.Evidence] = []
        var first: Timestamp?
        var text: String?
        for e in session.entries {
            switch e.record.payload {
            case .error(let err) where err.didRecover == false:
                evidence.append(Finding.Evidence(e))
                first = first ?? e.time
                text = text ?? err.shortText
            case .summary(let s):
                if let err = s.error, err.didRecover != true {
                    evidence.append(Finding.Evidence(e))
                    first = first ?? e.time
                    text = text ?? err.shortText
                }
            default:
                break
            }
        }
        guard !evidence.isEmpty else { return [] }
        return [
            finding(
                start: first, end: session.end, title: "Playback failed: \(text ?? "fatal error")",
                details: ["error": .string(text ?? "")], evidence: evidence,
                advice: "Start from the first fatal error: its domain and code (CoreMediaErrorDomain codes map to HTTP statuses, e.g. -12938 is 404) name the failing resource; check that it exists and is reachable from the viewer's network.")
        ]
    }
}
