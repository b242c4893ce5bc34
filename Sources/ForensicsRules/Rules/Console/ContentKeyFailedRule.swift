import ForensicsCore

/// `content-key-failed`: the content key could not be had — a key server that refused or failed
/// the request, or FairPlay Streaming failing on the device (`NSOSStatusErrorDomain` -42xxx, often
/// under AVFoundation -11800) — whichever source says so: the device console, the error log, the
/// requests.
package struct ContentKeyFailedRule: Rule {
    package let options: NoOptions
    package init(options: NoOptions) { self.options = options }

    package static let description = RuleDescription(
        identifier: "content-key-failed", name: "Content Key Failed",
        summary: "A content-key request failed: the key server refused it, or FairPlay failed on the device.",
        rationale: """
            Without its key no segment of an encrypted item can be decrypted: a key that cannot be had ends \
            playback however healthy the CDN is, and its cause lies with the key server or the device's \
            FairPlay exchange, not with the stream. Error when no key request succeeded after the last \
            failure, warning when one did.
            """,
        kind: .playback, defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(
                "FairPlay fails in the console, retried, then given up",
                files: [
                    ExampleFixtures.console([
                        ExampleFixtures.consoleLine(
                            at: 1, level: "Default",
                            "AVContentKeySession: content key request for skd://keys.example.com/a1"),
                        ExampleFixtures.consoleLine(
                            at: 1.2,
                            #"content key request failed, retrying (1/2): Error Domain=AVFoundationErrorDomain Code=-11800 "The operation could not be completed" UserInfo={NSLocalizedFailureReason=An unknown error occurred (-42669), NSUnderlyingError=0x283d8c6c0 {Error Domain=NSOSStatusErrorDomain Code=-42669 "(null)"}}"#,
                            anchor: true),
                        ExampleFixtures.consoleLine(
                            at: 2.5,
                            #"content key request failed (2/2), giving up: Error Domain=AVFoundationErrorDomain Code=-11800 "The operation could not be completed" UserInfo={NSUnderlyingError=0x283d8c7e0 {Error Domain=NSOSStatusErrorDomain Code=-42669 "(null)"}}"#
                        ),
                    ])
                ]),
            RuleExample(
                "the key server answers 403",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.200 key https://keys.example.com/key/a1 403 0.080 ◀
                    """),
            RuleExample(
                "a key refused once, fetched on the retry: a warning",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.200 key https://keys.example.com/key/a1 503 0.080 ◀
                    0.400 key https://keys.example.com/key/a1 200 0.090
                    0.900 initial-ltku variant=5M
                    """, severity: .warning),
        ],
        nonTriggeringExamples: [
            RuleExample(
                "near miss: the console tells of a content-key request that succeeded",
                files: [
                    ExampleFixtures.console([
                        ExampleFixtures.consoleLine(
                            at: 1, level: "Default",
                            "AVContentKeySession: content key request for skd://keys.example.com/a1"),
                        ExampleFixtures.consoleLine(
                            at: 1.3, level: "Default", "AVContentKeySession: content key response processed"),
                    ])
                ]),
            RuleExample(
                "near miss: a key fetched fine, a segment failed",
                timeline: """
                    0.000 multivariant https://cdn.example.com/a/master.m3u8 200 0.100
                    0.200 key https://keys.example.com/key/a1 200 0.080
                    0.400 segment https://cdn.example.com/a/v5/s1.ts 404 0.050 dur=6
                    """),
        ])

    package func findings(in session: Session) -> [Finding] {
        var failures: [(index: Int, text: String, error: ErrorInfo?)] = []
        for item in session.requestEntries where item.request.kind == .contentKey {
            let r = item.request
            if let s = r.effectiveStatus, s >= 400 {
                failures.append((item.index, "HTTP \(s) from \(URLCanonicalizer.withoutQuery(r.url))", r.error))
            } else if r.effectiveStatus == nil, let e = r.error {
                failures.append((item.index, e.shortText, e))
            }
        }
        // An error-log row folded into a failed key request is that request, already counted.
        let counted = Set(failures.map(\.index))
        for item in session.errorEntries where !counted.contains(item.index) {
            let e = item.error
            let onKeyURI = item.uri.map { MediaRequest.guessKind(url: $0) == .contentKey } ?? false
            let keyLine = item.value.view.consoleLine?.topic == .contentKey
            guard e.isContentKeyError || onKeyURI || (keyLine && e.didRecover != true) else { continue }
            // A console line about the key that only carries a success code is no failure.
            failures.append((item.index, e.chainText.isEmpty ? e.shortText : e.chainText, e))
        }
        guard !failures.isEmpty else { return [] }
        failures.sort { $0.index < $1.index }
        let last = failures[failures.count - 1].index
        let recovered = session.requestEntries.contains { item in
            item.index > last && item.request.kind == .contentKey
                && (item.request.effectiveStatus.map { (200..<300).contains($0) } ?? false)
        }
        let gaveUp = session.entries[last...].contains { $0.record.consoleLine?.endsPlayback == true }
        let first = failures[0]
        let chain = first.error?.chain ?? []
        let meanings = chain.compactMap { e in
            e.code.flatMap { ErrorCodeCatalogue.lookup(code: $0, domain: e.domain).first?.sentence(withAdvice: false) }
        }
        let fairPlay = chain.contains { ErrorInfo.isFairPlayCode($0.code) }
        var explanation =
            "\(failures.count) failed content-key \(failures.count == 1 ? "request" : "requests or errors"), the first: \(first.text)."
        if gaveUp { explanation += " The app gave up after the last one." }
        if recovered { explanation += " A later key request succeeded." }
        if fairPlay {
            explanation +=
                " Codes -42xxx of NSOSStatusErrorDomain are FairPlay Streaming's, raised on the device while it makes the key request (SPC) or reads the key server's answer (CKC)."
        }
        if !meanings.isEmpty { explanation += " " + meanings.joined(separator: " ") }
        let t = session.entries[first.index].time
        return [
            finding(
                severity: recovered ? .warning : nil, start: t, end: session.entries[last].time,
                title: "Content key request failed: \(first.text)",
                explanation: explanation.hasSuffix(".") ? String(explanation.dropLast()) : explanation,
                details: [
                    "failures": .integer(failures.count), "gave_up": .bool(gaveUp), "recovered": .bool(recovered),
                ],
                evidence: failures.prefix(20).map { Finding.Evidence(session, $0.index) },
                advice: fairPlay
                    ? "A FairPlay error on the device: check that the app uses the right FPS certificate for this key server, that the key server's CKC answers this SPC for this asset (its logs for the request), and the key's policy (HDCP, lease and rental limits, offline keys); log the key server's response for one failing request."
                    : "Check the key server for these requests: its status and reason, the token or session it expected, and its reachability from the viewer's network; retry with backoff only on 5xx and timeouts."
            )
        ]
    }
}
