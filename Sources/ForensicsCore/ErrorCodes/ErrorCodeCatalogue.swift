/// What an error code means, with where that is known from: the offline table a person with
/// nothing but a number needs (`explain -12642`), and what reports print next to a code.
///
/// Each entry names its source and how sure it is: Apple documents `NSURLError` and `AVError`;
/// CoreMedia's and FairPlay's negative codes are known only from the text AVPlayer logs next to
/// them and from public reports quoting it. A code not in the table is unknown — never guessed.
public struct ErrorCodeEntry: Sendable, Hashable {
    public enum Confidence: String, Sendable, Hashable {
        /// In Apple's documentation or headers.
        case documented
        /// The text the player itself logs with the code, quoted in public reports.
        case observed
    }

    public var domain: String
    public var code: Int
    public var name: String?
    public var meaning: String
    /// What usually causes it, and what to do.
    public var advice: String
    /// Where the meaning comes from (a URL or document).
    public var source: String
    public var confidence: Confidence

    public init(
        _ domain: String, _ code: Int, _ name: String?, meaning: String, advice: String, source: String,
        confidence: Confidence
    ) {
        self.domain = domain
        self.code = code
        self.name = name
        self.meaning = meaning
        self.advice = advice
        self.source = source
        self.confidence = confidence
    }

    /// The entry as a report sentence: `CoreMediaErrorDomain -12642 (name): meaning [advice]
    /// (source: …, observed)`.
    public func sentence(withAdvice: Bool) -> String {
        "\(domain) \(code)\(name.map { " (\($0))" } ?? ""): \(meaning)\(withAdvice ? " " + advice : "") (source: \(source), \(confidence.rawValue))"
    }
}

public enum ErrorCodeCatalogue {
    public static let all: [ErrorCodeEntry] =
        URLLoadingErrorCodes.all + AVFoundationErrorCodes.all + CoreMediaErrorCodes.all

    /// The domain's usual name for an alias (`NSURLError` and `kCFErrorDomainCFNetwork` codes are one table).
    public static func canonicalDomain(_ domain: String) -> String {
        switch domain.lowercased() {
        case "nsurlerrordomain", "nsurlerror", "urlerror", "kcferrordomaincfnetwork": "NSURLErrorDomain"
        case "avfoundationerrordomain", "averror", "avfoundation": "AVFoundationErrorDomain"
        case "coremediaerrordomain", "coremedia": "CoreMediaErrorDomain"
        case "nsosstatuserrordomain", "osstatus", "fairplay": "NSOSStatusErrorDomain"
        default: domain
        }
    }

    /// The entries for a code, in one domain when given, else in every domain.
    public static func lookup(code: Int, domain: String? = nil) -> [ErrorCodeEntry] {
        let d = domain.map(canonicalDomain)
        return all.filter { $0.code == code && (d == nil || $0.domain == d) }
    }

    /// A phrase for a report: `NSURLErrorDomain -1009 (notConnectedToInternet: …)`, or nil when
    /// the code is not in the catalogue.
    public static func phrase(code: Int, domain: String?) -> String? {
        guard let e = lookup(code: code, domain: domain).first else { return nil }
        return "\(e.name.map { "\($0): " } ?? "")\(e.meaning)"
    }
}

extension ErrorCodeCatalogue {
    /// `Documentation/ErrorCodes.md`: coverage by domain and confidence, then every entry.
    public static func markdown() -> String {
        var out = [
            "# Error codes",
            "",
            "Generated from `Sources/ForensicsCore/ErrorCodes/`; do not edit (regenerate with `UPDATE_ERROR_CODE_DOCS=1 swift test --filter ExplainCommandTests`).",
            "`playback-forensics explain CODE` prints one entry; reports add the entry to a failure's explanation.",
            "A code not listed is unknown: the tool says so and never guesses. *documented*: Apple's documentation or headers; *observed*: the text AVPlayer logs with the code, as public reports quote it (the same code has been seen with other texts).",
            "",
            "| domain | codes | documented | observed |",
            "| --- | ---: | ---: | ---: |",
        ]
        var domains: [String] = []
        for e in all where !domains.contains(e.domain) { domains.append(e.domain) }
        for d in domains {
            let list = all.filter { $0.domain == d }
            out.append(
                "| \(d) | \(list.count) | \(list.filter { $0.confidence == .documented }.count) | \(list.filter { $0.confidence == .observed }.count) |"
            )
        }
        out += [
            "", "| domain | code | name | meaning | advice | source | confidence |",
            "| --- | ---: | --- | --- | --- | --- | --- |",
        ]
        for e in all {
            out.append(
                "| \(e.domain) | \(e.code) | \(e.name ?? "") | \(e.meaning.replacingOccurrences(of: "|", with: "\\|")) | \(e.advice.replacingOccurrences(of: "|", with: "\\|")) | \(e.source) | \(e.confidence.rawValue) |"
            )
        }
        return out.joined(separator: "\n") + "\n"
    }
}
