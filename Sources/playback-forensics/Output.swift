import Foundation
import PlaybackForensics

/// The only place that writes: stdout, stderr, files.
enum Output {
    static func stdout(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func write(_ text: String, to path: String) throws {
        try ReportFile.write(text, to: path)
    }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }

    /// Colour only on a terminal, and never when NO_COLOR is set.
    static var useColor: Bool {
        isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Text in a severity's colour on a colour terminal (red for error and critical, yellow for
    /// warning), plain otherwise.
    static func paint(_ text: String, _ severity: Severity) -> String {
        guard useColor else { return text }
        let code =
            switch severity {
            case .critical, .error: "31"
            case .warning: "33"
            case .info: "36"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
