import ForensicsCore

/// What makes two findings in different sessions "the same problem" for a fleet: the rule, the
/// stall cause, the CDN host and status — or, where no host owns it, the asset and variant the
/// finding is about.
///
/// Why these fields and where they come from: an operations team hands a problem to whoever owns
/// it — a CDN partner (host, status), a packaging team (asset, variant), the app team (a stall
/// cause, a startup phase). Every field is read from what the rule already reported (its typed
/// `subject` and its stall cause), never guessed: a rule that names no host groups without one.
package struct ProblemKey: Sendable, Hashable, Comparable, Codable {
    package var ruleID: String
    package var cause: String?
    package var host: String?
    package var status: String?
    /// The session's asset (the multivariant playlist, without query) when the finding names a
    /// variant of it: which rendition of which asset is broken.
    package var asset: String?
    /// The variant's bandwidth (bits/s) when the rule names one.
    package var variant: Int?
    /// The CDN POP that served the requests behind the finding, and their cache result, from
    /// joined server rows ("one POP bad": its sessions are one problem, apart from the others').
    package var pop: String?
    package var cache: String?

    package init(
        ruleID: String, cause: String? = nil, host: String? = nil, status: String? = nil, asset: String? = nil,
        variant: Int? = nil, pop: String? = nil, cache: String? = nil
    ) {
        self.ruleID = ruleID
        self.cause = cause
        self.host = host
        self.status = status
        self.asset = asset
        self.variant = variant
        self.pop = pop
        self.cache = cache
    }

    /// The key of `finding`, found in `session` (for its asset); `redact` cleans every text that
    /// comes from the logs (a host or an asset path can carry a token). Read from the finding's
    /// typed `subject`, never from its free-form details.
    package init(_ finding: Finding, in session: Session, redact: (String) -> String = { $0 }) {
        ruleID = finding.ruleID
        cause = finding.cause
        let subject = finding.subject
        if let s = subject.status, !s.isEmpty { status = s }
        if let h = subject.host, !h.isEmpty {
            host = h
        } else {
            host = Self.host(of: subject)
        }
        pop = subject.pop.map(redact)
        cache = subject.cacheResult
        // A problem a host owns (its failures, its status) is one fix at that host, whatever the
        // asset or variant: they are the problem's spread (`spread`), not part of it.
        if host == nil { (asset, variant) = Self.spread(finding, in: session, redact: redact) }
        host = host.map(redact)
        status = status.map(redact)
    }

    /// The asset and the variant a finding is about, when it names a variant: the session's asset
    /// (the multivariant playlist, without query) and the variant's bandwidth.
    package static func spread(
        _ finding: Finding, in session: Session, redact: (String) -> String = { $0 }
    ) -> (asset: String?, variant: Int?) {
        guard let variant = finding.subject.variantBandwidth else { return (nil, nil) }
        let asset = session.assetURL.map { redact(URLCanonicalizer.withoutQuery(URLCanonicalizer.canonical($0))) }
        return (asset, variant)
    }

    /// The host of the finding's one resource, or of its URL list when every URL is on one host.
    static func host(of subject: Finding.Subject) -> String? {
        if let url = subject.url, let h = URLCanonicalizer.host(URLCanonicalizer.canonical(url)) { return h }
        if !subject.urls.isEmpty {
            let hosts = Set(subject.urls.compactMap { URLCanonicalizer.host(URLCanonicalizer.canonical($0)) })
            if hosts.count == 1 { return hosts.first }
        }
        return nil
    }

    /// One line, the same for the same key on every machine (the index's primary key).
    package var text: String {
        var parts = [ruleID]
        if let cause { parts.append("cause=\(cause)") }
        if let host { parts.append("host=\(host)") }
        if let status { parts.append("status=\(status)") }
        if let asset { parts.append("asset=\(asset)") }
        if let variant { parts.append("variant=\(variant)") }
        if let pop { parts.append("pop=\(pop)") }
        if let cache { parts.append("cache=\(cache)") }
        return parts.joined(separator: " ")
    }

    package static func < (a: ProblemKey, b: ProblemKey) -> Bool { a.text < b.text }
}
