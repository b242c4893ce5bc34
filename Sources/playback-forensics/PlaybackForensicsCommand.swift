import ArgumentParser

@main
struct PlaybackForensicsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playback-forensics",
        abstract: "Forensics on media-playback logs: why did the video start slowly, stall, or fail?",
        version: "0.1.0",
        subcommands: [Analyze.self, Triage.self, Timeline.self, Parse.self, Formats.self, Rules.self],
        defaultSubcommand: Analyze.self)
}
