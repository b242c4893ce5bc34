import Foundation

/// Writes one report file with plain `open`/`write`/`close`: the CLI's one file writer (`analyze
/// --output`, triage's reports and index).
///
/// Why not `Data.write(to:)`: on Linux it also calls `fsync` and copies extended attributes for
/// every file. Triage writes two files per bundle, thousands in a run; with two workers the
/// `fsync`s queued on the file system's journal and most of the second worker's time went to the
/// kernel. Reports can always be made again from the bundle, so they need no durability barrier.
enum ReportFile {
    struct WriteError: Error, CustomStringConvertible, LocalizedError {
        var path: String
        var reason: String
        var description: String { "cannot write \(path): \(reason)" }
        var errorDescription: String? { description }
    }

    /// `regularOnly`: the file is one of the tool's own in an output directory (triage), where
    /// anything but a regular file was planted; `analyze --output` may name a pipe or a device.
    static func write(_ text: String, to path: String, regularOnly: Bool = false) throws {
        try streaming(to: path, regularOnly: regularOnly) { write in try write(text) }
    }

    /// Opens `path` once and hands `body` a function that appends text to it: a long overview is
    /// written as it is made, never held whole.
    static func streaming(
        to path: String, regularOnly: Bool = false, _ body: ((String) throws -> Void) throws -> Void
    ) throws {
        // O_NOFOLLOW: a symbolic link planted where a report goes is not written through. Not
        // O_TRUNC: a hard link planted there (its target outside the output) is refused before
        // anything of it is cut. O_NONBLOCK: a FIFO without a reader fails at once (ENXIO)
        // instead of blocking the run for ever; it is cleared once the file is known.
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let reason = errno == ENXIO ? "a pipe with no reader" : String(cString: strerror(errno))
            throw WriteError(path: path, reason: reason)
        }
        var closed = false
        defer { if !closed { close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        if regularOnly, (info.st_mode & S_IFMT) != S_IFREG {
            throw WriteError(
                path: path, reason: "not a regular file (a pipe, device or socket in its place): not written")
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            throw WriteError(path: path, reason: String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFREG {
            guard info.st_nlink <= 1 else {
                throw WriteError(path: path, reason: "it is a hard link to another file: not written through")
            }
            guard ftruncate(fd, 0) == 0 else {
                throw WriteError(path: path, reason: String(cString: strerror(errno)))
            }
        }
        // A report cut short (a full disk, a file-size limit) is not left to pass for a whole one:
        // a regular file this call emptied is emptied again when the write fails.
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        do {
            // Pieces are gathered to 64 KiB before a write: a line per session was a system call each.
            var pending = ""
            try body { text in
                pending += text
                if pending.utf8.count >= 64 << 10 {
                    try append(pending, to: fd, path: path)
                    pending = ""
                }
            }
            try append(pending, to: fd, path: path)
        } catch {
            if regular { _ = ftruncate(fd, 0) }
            throw error
        }
        // A delayed write error (NFS, a quota) shows at close: it is a failed write too.
        closed = true
        if close(fd) != 0 { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    static func append(_ text: String, to fd: Int32, path: String) throws {
        if let reason = Output.writeAll(text, to: fd) { throw WriteError(path: path, reason: reason) }
    }
}
