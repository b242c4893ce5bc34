import ArgumentParser
import Foundation
import ForensicsParsers
import PlaybackForensics

/// The only place that writes: stdout, stderr, files.
///
/// Every write is checked. Foundation's `FileHandle.write(_:)` traps when the descriptor fails (a
/// full device, a closed stdout, a broken pipe with SIGPIPE ignored), which killed the tool with
/// SIGILL; here a failed write ends the command with exit status 1 and one sentence on stderr (or
/// silently, when stderr itself is what failed).
enum Output {
    static func stdout(_ text: String) {
        if let reason = writeAll(text, to: 1) {
            _ = writeAll("playback-forensics: cannot write to standard output: \(reason)\n", to: 2)
            Foundation.exit(1)
        }
    }

    static func stderr(_ text: String) {
        if writeAll(text, to: 2) != nil { Foundation.exit(1) }
    }

    /// `path` is a file, or `-` for stdout.
    /// The command's result: to `output` when given (a failed write is exit 1, said on
    /// stderr), else to stdout.
    static func emit(_ text: String, to output: String?) throws {
        guard let output else {
            stdout(text)
            return
        }
        do {
            try write(text, to: output)
        } catch {
            stderr("playback-forensics: \(error)\n")
            throw ExitCode(1)
        }
    }

    static func write(_ text: String, to path: String) throws {
        if path == "-" {
            stdout(text)
            return
        }
        try ReportFile.write(text, to: path)
    }

    /// A broken pipe is a failed write (`EPIPE`), not a signal that ends the process unannounced.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
        // A file-size limit (`ulimit -f`) is a failed write (`EFBIG`), not a signal either.
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Ctrl-C, `kill`, a closed terminal: the temporary copies of the input (spooled standard
    /// input, archives inside a bundle) are removed before the process ends with the signal's
    /// status. The handlers run on a queue of their own, never in the signal's context.
    ///
    /// A signal the parent ignores (`nohup`, a script's background job) stays ignored. After the
    /// clean-up the signal is raised again with its default action, so that a shell sees the
    /// process ended by it (a loop stops at Ctrl-C).
    static func removeTemporaryFilesOnSignals() {
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(sig, SIG_IGN)
            // Function pointers compare by address.
            if unsafeBitCast(previous, to: UnsafeRawPointer?.self) == unsafeBitCast(SIG_IGN, to: UnsafeRawPointer?.self)
            {
                continue
            }
            let source = DispatchSource.makeSignalSource(signal: sig, queue: signalQueue)
            source.setEventHandler {
                TemporaryFiles.removeAll()
                signal(sig, SIG_DFL)
                raise(sig)
                _exit(128 + sig)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    private static let signalQueue = DispatchQueue(label: "playback-forensics.signals")
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// Writes the whole text to a descriptor; the reason it could not, or nil.
    static func writeAll(_ text: String, to fd: Int32) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard let base = bytes.baseAddress else { return nil }
            var written = 0
            while written < bytes.count {
                let n = Foundation.write(fd, base + written, bytes.count - written)
                if n > 0 {
                    written += n
                } else if n < 0, errno == EINTR {
                    continue
                } else {
                    return n < 0 ? String(cString: strerror(errno)) : "nothing was written"
                }
            }
            return nil
        }
    }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }
    static var stdoutIsTerminal: Bool { isatty(1) != 0 }
    /// Colour on stdout: a terminal, and NO_COLOR unset.
    static var stdoutColor: Bool { isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

    /// A path as a shell word (single-quoted when it holds anything but safe characters).
    static func shellQuoted(_ s: String) -> String {
        let safe = s.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9")
                || "/._-+:@".unicodeScalars.contains(c)
        }
        return safe && !s.isEmpty ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Colour only on a terminal, and never when NO_COLOR is set.
    static var useColor: Bool {
        isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Text in a severity's colour on a colour terminal (red for error and critical, yellow for
    /// warning), plain otherwise.
    static func paint(_ text: String, _ severity: Severity) -> String {
        useColor ? severity.painted(text) : text
    }
}
