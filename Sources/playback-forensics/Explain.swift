import ArgumentParser
import PlaybackForensics

/// `explain CODE`: what an error code means, offline, with its source.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain an error code (NSURLError, AVFoundation, CoreMedia): its meaning, advice and source.",
        discussion: "Examples: explain -12642; explain CoreMediaErrorDomain -12938; explain --list")

    @Argument(
        parsing: .allUnrecognized,
        help: "An optional domain (CoreMediaErrorDomain, NSURLErrorDomain, AVFoundationErrorDomain), then a code.")
    var words: [String] = []

    @Flag(name: .long, help: "List every code the catalogue knows.")
    var list = false

    func run() throws {
        if list {
            Output.stdout(ErrorCodeCatalogue.all.map(Self.line).joined(separator: "\n") + "\n")
            return
        }
        // `explain -- -11800`: the option terminator is no domain.
        let words = self.words.filter { $0 != "--" }
        guard let last = words.last, let code = Int(last), words.count <= 2 else {
            throw ValidationError(
                "give a code, optionally after its domain: explain -12642, explain NSURLErrorDomain -1009")
        }
        let domain = words.count == 2 ? words[0] : nil
        let entries = ErrorCodeCatalogue.lookup(code: code, domain: domain)
        guard !entries.isEmpty else {
            Output.stdout(
                "\(domain.map { "\($0) " } ?? "")\(code): not in the catalogue — unknown, not guessed. `explain --list` shows what is known.\n"
            )
            throw ExitCode(1)
        }
        var out: [String] = []
        for e in entries {
            out.append("\(e.domain) \(e.code)\(e.name.map { " (\($0))" } ?? "")")
            out.append("  \(e.meaning)")
            out.append("  Advice: \(e.advice)")
            out.append("  Source: \(e.source) (\(e.confidence.rawValue))")
        }
        Output.stdout(out.joined(separator: "\n") + "\n")
    }

    static func line(_ e: ErrorCodeEntry) -> String {
        "\(e.domain) \(e.code)\(e.name.map { " \($0)" } ?? ""): \(e.meaning) [\(e.confidence.rawValue)]"
    }
}
