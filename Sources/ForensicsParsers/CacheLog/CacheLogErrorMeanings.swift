import ForensicsCore

/// Names KTVHTTPCache's own error codes by the version the log shows: one meaning when the
/// evidence settles it, every meaning with its releases when it does not.
enum CacheLogErrorMeanings {
    static func apply(_ version: KTVHTTPCacheVersionEvidence, to records: inout [Record]) {
        for i in records.indices {
            guard case .proxy(var event) = records[i].payload, var error = event.error,
                let meaning = meaning(of: error, version)
            else { continue }
            if error.description == nil || error.description == "(null)" || error.description == "" {
                error.description = meaning
            } else if error.description != meaning {
                error.description = (error.description ?? "") + " (" + meaning + ")"
            }
            event.error = error
            records[i].payload = .proxy(event)
        }
    }

    static func meaning(of error: ErrorInfo, _ version: KTVHTTPCacheVersionEvidence) -> String? {
        if let domain = error.domain, let m = KTVHTTPCacheRelease.meaning(ofDomain: domain) { return m }
        guard error.domain == nil || error.domain == "KTVHTTPCache error", let code = error.code else { return nil }
        return version.meaning(ofCode: code)
    }
}
