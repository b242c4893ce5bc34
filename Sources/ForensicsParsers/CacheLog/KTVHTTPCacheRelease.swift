/// The KTVHTTPCache releases whose log output differs, oldest first (from the library's public
/// source at each tag: `KTVHCLog.h`, the `KTVHCLog…(…)` call sites and `KTVHCError.h`).
///
/// Why a version matters: the library's own error codes changed meaning twice — 1.0.3 inserted
/// "unsupported content" at -192701, and 3.0.0 renumbered every code — so `-192701` is "not enough
/// disk space" in 1.0.0–1.0.2 and 3.x but "unsupported Content-Type" in 1.0.3–2.0.1.
package enum KTVHTTPCacheRelease: Int, CaseIterable, Comparable, Sendable, Codable {
    /// 1.0.0–1.0.2: lowercase messages without pointers, per-error domains, two error codes.
    case v1_0_0
    /// 1.0.3–1.0.4: as above, with "unsupported content" (-192701) and disk space moved to -192702.
    case v1_0_3
    /// 1.1.0–1.1.7: `%p, Capitalised` templates, domain `KTVHTTPCache error`, `KTVHCHTTPURL`.
    case v1_1
    /// 2.0.0–2.0.1: `KTVHCMacro`, background stop / foreground restart of the server, port 80.
    case v2
    /// 3.0.0–3.1.0: renumbered error codes, `Accept request`, `KTVHTTPCachePlaceHolder` URLs.
    case v3

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The release line's name as users say it.
    package var name: String {
        switch self {
        case .v1_0_0: "1.0.0–1.0.2"
        case .v1_0_3: "1.0.3–1.0.4"
        case .v1_1: "1.1.x"
        case .v2: "2.x"
        case .v3: "3.x"
        }
    }

    /// The day its first tag was published (`yyyy-MM-dd`): a log written before it cannot be this release.
    package var firstPublished: String {
        switch self {
        case .v1_0_0: "2017-12-06"
        case .v1_0_3: "2018-05-19"
        case .v1_1: "2018-05-25"
        case .v2: "2019-03-06"
        case .v3: "2024-01-13"
        }
    }

    /// What one of the library's own error codes means in this release (nil: not a code it has).
    package func meaning(ofCode code: Int) -> String? {
        switch self {
        case .v1_0_0:
            switch code {
            case -192700: return "response unavailable: HTTP status error or not HTTP"
            case -192701: return "not enough disk space"
            default: return nil
            }
        case .v1_0_3, .v1_1:
            switch code {
            case -192700: return "response unavailable: HTTP status error or not HTTP"
            case -192701: return "unsupported Content-Type"
            case -192702: return "not enough disk space"
            default: return nil
            }
        case .v2:
            switch code {
            case -192700: return "response unavailable: HTTP status error or not HTTP"
            case -192701: return "unsupported Content-Type"
            case -192702: return "not enough disk space"
            case -192703: return "file exception"
            default: return nil
            }
        case .v3:
            switch code {
            case -192700: return "file exception"
            case -192701: return "not enough disk space"
            case -192702: return "response is not HTTP"
            case -192703: return "origin HTTP status error"
            case -192704: return "unacceptable Content-Type"
            case -192705: return "bad Content-Length"
            default: return nil
            }
        }
    }

    /// 1.0.x named each error by its domain (`KTVHCErrorDomainResponseUnavailable`).
    package static func meaning(ofDomain domain: String) -> String? {
        switch domain {
        case "KTVHCErrorDomainResponseUnavailable": "response unavailable: HTTP status error or not HTTP"
        case "KTVHCErrorDomainUnsupportTheContent": "unsupported Content-Type"
        case "KTVHCErrorDomainNotEnoughDiskSpace": "not enough disk space"
        default: nil
        }
    }

    /// A contiguous run of releases as text: `1.1.x`, `1.1.x–2.x`, `1.0.0–1.0.2 or 3.x`.
    package static func text(_ releases: Set<KTVHTTPCacheRelease>) -> String {
        let sorted = releases.sorted()
        var runs: [[KTVHTTPCacheRelease]] = []
        for r in sorted {
            if let last = runs.last?.last, last.rawValue + 1 == r.rawValue {
                runs[runs.count - 1].append(r)
            } else {
                runs.append([r])
            }
        }
        return runs.map { run in
            guard let first = run.first, let last = run.last else { return "" }
            if first == last { return first.name }
            let from = first.name.split(separator: "–").first.map(String.init) ?? first.name
            let to = last.name.split(separator: "–").last.map(String.init) ?? last.name
            return "\(from)–\(to)"
        }.joined(separator: " or ")
    }
}

/// What a log says about the library version that wrote it: the releases still possible, and why.
///
/// Every clue narrows the candidates (tags, templates, URL shapes, error domains and the shape
/// of an error's userInfo, and the log's date, which rules out releases published after it). A
/// clue that would leave no candidate is noted and ignored: a patched fork can mix templates.
package struct KTVHTTPCacheVersionEvidence: Sendable {
    package private(set) var candidates: Set<KTVHTTPCacheRelease> = Set(KTVHTTPCacheRelease.allCases)
    /// The clues that narrowed the candidates, in the order seen (one per distinct clue).
    package private(set) var reasons: [String] = []
    /// The earliest date seen in the log (`yyyy-MM-dd`).
    package private(set) var earliestDate: String?
    private var seen: Set<String> = []

    package init() {}

    /// The version when the evidence settles it to one release line.
    package var settled: KTVHTTPCacheRelease? { candidates.count == 1 ? candidates.first : nil }

    mutating func narrow(to allowed: Set<KTVHTTPCacheRelease>, because reason: String) {
        guard seen.insert(reason).inserted else { return }
        let next = candidates.intersection(allowed)
        if next.isEmpty {
            reasons.append("\(reason) (contradicts the other clues; ignored)")
        } else if next != candidates {
            candidates = next
            reasons.append(reason)
        }
    }

    mutating func observe(date: String) {
        if earliestDate.map({ date < $0 }) ?? true { earliestDate = date }
    }

    /// Applies the date clue: releases published after the log's earliest date are ruled out.
    mutating func applyDate() {
        guard let date = earliestDate else { return }
        let allowed = Set(KTVHTTPCacheRelease.allCases.filter { $0.firstPublished <= date })
        guard allowed != Set(KTVHTTPCacheRelease.allCases) else { return }
        narrow(to: allowed, because: "the log is dated \(date)")
    }

    /// The meaning of one of the library's error codes under the candidates: one meaning when
    /// they agree, else every meaning with the releases it belongs to and why it is open.
    package func meaning(ofCode code: Int) -> String? {
        var byMeaning: [(meaning: String, releases: Set<KTVHTTPCacheRelease>)] = []
        for r in candidates.sorted() {
            guard let m = r.meaning(ofCode: code) else { continue }
            if let i = byMeaning.firstIndex(where: { $0.meaning == m }) {
                byMeaning[i].releases.insert(r)
            } else {
                byMeaning.append((m, [r]))
            }
        }
        guard !byMeaning.isEmpty else { return nil }
        if byMeaning.count == 1 { return byMeaning.first?.meaning }
        let options = byMeaning.map { "\($0.meaning) in \(KTVHTTPCacheRelease.text($0.releases))" }
        return options.joined(separator: ", or ") + " — the log does not show which version wrote it"
    }

    /// `KTVHTTPCache 1.1.x (KTVHCHTTPURL entries; the log is dated 2019-04-23)`.
    package var summary: String {
        let version =
            candidates.count == KTVHTTPCacheRelease.allCases.count
            ? "version unknown" : KTVHTTPCacheRelease.text(candidates)
        let why = reasons.filter { !$0.hasSuffix("ignored)") }
        return "KTVHTTPCache \(version)" + (why.isEmpty ? "" : " (\(why.joined(separator: "; ")))")
    }
}
