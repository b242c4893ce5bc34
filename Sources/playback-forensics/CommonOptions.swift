import ArgumentParser
import Foundation
import PlaybackForensics

/// Options shared by the commands that read bundles.
struct InputOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Force a format for every file instead of recognising it (\(FormatCatalog.all.map(\.format.rawValue).joined(separator: ", "))).",
        completion: .list(FormatCatalog.all.map(\.format.rawValue)))
    var logFormat: String?

    // `.unconditional`: `--timezone -05:00` reads the value although it starts with `-`.
    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Time zone of sources that write local time without an offset (access/error logs): +01:00, -05:00, or a zone name such as Europe/Berlin or CET (daylight saving applied per row). Default: unknown — found by clock alignment when another source shares requests, else reported as \"device local time, zone unknown\"."
    )
    var timezone: String?

    @Option(
        name: .long,
        help: "Largest decompressed size of one file (gzip-bomb limit), e.g. 512MiB or 2G. Default: 512 MiB.")
    var maxDecompressedSize: ByteSize?

    @Option(name: .long, help: "Longest line kept; longer lines are cut. E.g. 1MiB. Default: 8 MiB.")
    var maxLineLength: ByteSize?

    @Option(name: .long, help: "Largest archive member read, e.g. 1G. Default: 2 GiB.")
    var maxMemberSize: ByteSize?

    @Option(
        name: .long,
        help: "Most bytes read from one bundle after decompression, every member counted, e.g. 4G. Default: 1 GiB.")
    var maxBundleSize: ByteSize?

    @Option(
        name: .customLong("cdn-log-format"),
        help: ArgumentHelp(
            "The layout of server logs whose lines do not name their fields, as KIND=LAYOUT (repeatable): \(ServerLogLayout.kinds.map { "\($0.kind) (\($0.help))" }.joined(separator: "; ")).",
            valueName: "kind=layout"))
    var cdnLogFormat: [String] = []

    @Option(
        name: .customLong("max-cdn-log-size"),
        help:
            "Most bytes read from the server logs given with --cdn-logs, every file counted after decompression, e.g. 200G. Default: 64 GiB (read through the bundle's keys: memory does not grow with it)."
    )
    var maxCDNLogSize: ByteSize?

    @Option(name: .long, help: "Most records kept from one file; the rest of the file is not read. Default: 250000.")
    var maxRecordsPerFile: Int?

    @Option(name: .long, help: "Most records kept from one bundle; later files are not read. Default: 500000.")
    var maxRecords: Int?

    /// Sets a limit the user gave, which must be positive.
    static func positive(_ value: Int?, _ flag: String, into limit: inout Int) throws {
        guard let value else { return }
        guard value > 0 else { throw ValidationError("\(flag) must be positive") }
        limit = value
    }

    /// The analysis options of a command line that gives none of these (the start of
    /// `options(redact:)`, and what `Parse.plain` runs with).
    static func defaults(redact: Bool) -> AnalysisOptions {
        var options = AnalysisOptions()
        options.limits = BundleLimits()
        options.redact = redact
        return options
    }

    /// The analysis options these describe; `redact` is the command's `--no-redact` turned round.
    func options(redact: Bool) throws -> AnalysisOptions {
        var limits = BundleLimits()
        try Self.positive(maxDecompressedSize?.bytes, "--max-decompressed-size", into: &limits.maxDecompressedSize)
        try Self.positive(maxLineLength?.bytes, "--max-line-length", into: &limits.maxLineLength)
        try Self.positive(maxMemberSize?.bytes, "--max-member-size", into: &limits.maxMemberSize)
        try Self.positive(maxBundleSize?.bytes, "--max-bundle-size", into: &limits.maxBundleBytes)
        try Self.positive(maxCDNLogSize?.bytes, "--max-cdn-log-size", into: &limits.maxServerLogBytes)
        try Self.positive(maxRecordsPerFile, "--max-records-per-file", into: &limits.maxRecordsPerFile)
        try Self.positive(maxRecords, "--max-records", into: &limits.maxRecordsPerBundle)
        var format: InputFormat?
        if let id = logFormat {
            guard let f = FormatCatalog.format(named: id) else {
                throw ValidationError(
                    "unknown --log-format '\(id)'; known: \(FormatCatalog.all.map(\.format.rawValue).joined(separator: ", "))"
                )
            }
            format = f
        }
        var offset: Int?
        var zone: TimeZone?
        if let tz = timezone {
            if let o = TimezoneOption.offsetSeconds(tz) {
                offset = o
            } else if let named = TimezoneOption.named(tz) {
                zone = named
            } else {
                throw ValidationError(
                    "invalid --timezone '\(tz)' (use UTC, ±HH:MM, or a zone name such as Europe/Berlin or CET)")
            }
        }
        var options = Self.defaults(redact: redact)
        options.limits = limits
        options.forcedFormat = format
        options.timezoneOffset = offset
        options.timeZone = zone
        options.redact = redact
        do {
            options.serverLogLayouts = try cdnLogFormat.map { (a) throws(ConfigurationError) in
                try ServerLogLayout(argument: a)
            }
            // One layout per kind: a row is read again by its format's layout (triage's store),
            // and two layouts of one kind would be one format.
            let kinds = options.serverLogLayouts.map(\.kind)
            if let twice = kinds.first(where: { k in kinds.filter { $0 == k }.count > 1 }) {
                throw ConfigurationError.invalid(
                    "\(twice) given twice: one layout per kind (read each log set with its own run)")
            }
        } catch {
            throw ValidationError("--cdn-log-format: \(error)")
        }
        return options
    }
}

extension ReportFormat: ExpressibleByArgument {}

extension Severity: ExpressibleByArgument {}

/// `--config FILE` → a rule set; a bad file is a usage error naming the rule and key.
func ruleSet(config: String?) throws -> RuleSet {
    do {
        return try config.map(ConfigurationLoader.load(path:)) ?? RuleSet()
    } catch let error as ConfigurationLoader.FileError {
        throw ValidationError(error.description)
    } catch let error as ConfigurationError {
        throw ValidationError("\(config ?? ""): \(error)")
    }
}
