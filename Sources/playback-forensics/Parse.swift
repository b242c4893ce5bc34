import ArgumentParser
import PlaybackForensics

struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Print the records and diagnostics of one file (or of every file of a bundle).")

    @Argument(help: "The file (or bundle) to parse.", completion: .file())
    var path: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Print JSON Lines: one record per line, with its file.")
    var jsonLines = false

    @Flag(name: .long, help: "Do not redact tokens, signatures, keys and credentials.")
    var noRedact = false

    @OptionGroup var input: InputOptions

    func run() throws {
        let bundle: ParsedBundle
        do {
            bundle = try Analyzer(options: try input.options(redact: !noRedact)).read(path: path)
        } catch let e as ValidationError {
            throw e
        } catch {
            Output.stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
        Output.stdout(
            ReportRenderer(redact: !noRedact).parsed(bundle, as: jsonLines ? .jsonLines : json ? .json : .text))
    }
}
