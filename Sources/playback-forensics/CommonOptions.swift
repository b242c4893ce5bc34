import ArgumentParser
import ForensicsCore
import ForensicsParsers
import ForensicsRules
import PlaybackForensics

/// Options shared by the commands that read bundles.
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: "Force a format for every file instead of recognising it (\(InputFormat.allCases.map(\.rawValue).joined(separator: ", "))).")
    var logFormat: String?

    @Option(name: .long, help: "Time zone of sources that write local time without an offset (access/error logs), e.g. +01:00 or -05:00. Default: unknown — found by clock alignment when another source shares requests, else reported as \"device local time, zone unknown\".")
    var timezone: String?

    @Option(name: .long, help: "Largest decompressed size of one file, in bytes (gzip-bomb limit). Default: 2 GiB.")
    var maxDecompressedSize: Int?

    @Option(name: .long, help: "Longest line kept, in bytes; longer lines are cut. Default: 8 MiB.")
    var maxLineLength: Int?

    @Option(name: .long, help: "Largest archive member read, in bytes. Default: 2 GiB.")
    var maxMemberSize: Int?

    func ingestor() throws -> Ingestor {
        var limits = BundleLimits()
        if let v = maxDecompressedSize {
            guard v > 0 else { throw ValidationError("--max-decompressed-size must be positive") }
            limits.maxDecompressedSize = v
        }
        if let v = maxLineLength {
            guard v > 0 else { throw ValidationError("--max-line-length must be positive") }
            limits.maxLineLength = v
        }
        if let v = maxMemberSize {
            guard v > 0 else { throw ValidationError("--max-member-size must be positive") }
            limits.maxMemberSize = v
        }
        var format: InputFormat?
        if let id = logFormat {
            guard let f = InputFormat(rawValue: id) else {
                throw ValidationError("unknown --log-format '\(id)'; known: \(InputFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            format = f
        }
        var offset: Int?
        if let tz = timezone {
            guard let o = TimezoneOption.offsetSeconds(tz) else { throw ValidationError("invalid --timezone '\(tz)' (use UTC or ±HH:MM)") }
            offset = o
        }
        return Ingestor(limits: limits, forcedFormat: format, timezoneOffset: offset)
    }
}

enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case markdown, json
}

extension Severity: ExpressibleByArgument {}

/// `--config FILE` → a rule engine; a bad file is a usage error naming the rule and key.
func ruleEngine(config: String?) throws -> RuleEngine {
    do {
        return try config.map(ConfigurationLoader.load(path:)) ?? RuleEngine()
    } catch let error as ConfigurationError {
        throw ValidationError("\(config ?? ""): \(error)")
    }
}
