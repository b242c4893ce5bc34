import ForensicsCore

/// `proxy-failure`: the local caching proxy reported a failure in the window.
struct ProxyFailureDetector: StallCauseDetector {
    static let failureKinds: Set<ProxyEvent.Kind> = [
        .downloadInvalidResponse, .networkFailed, .responseFailed, .serverStartFailed, .serverRestart,
        .serverRestartFailed, .readerFailed, .sourceManagerFailure,
    ]

    func detect(_ c: StallContext) -> StallCauseEvidence? {
        let failures = c.window.filter { e in
            guard let p = e.record.proxyEvent else { return false }
            if p.kind == .downloadComplete, let err = p.error, err.code != -999 { return true }
            return Self.failureKinds.contains(p.kind)
        }
        guard let f = failures.first, let t = f.time else { return nil }
        return StallCauseEvidence(
            cause: .proxyFailure, first: t, entries: failures,
            why: "the local caching proxy reported \(failures.count) failure\(failures.count == 1 ? "" : "s")")
    }
}
