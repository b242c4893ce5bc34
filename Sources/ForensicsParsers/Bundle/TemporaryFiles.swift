import Foundation

/// The private temporary files alive now (standard input spooled, an archive inside a bundle
/// spooled): each is removed by whoever made it when done, and every one by the CLI when a signal
/// (Ctrl-C, `kill`) ends the process early — an unredacted copy of the input must not outlive
/// the run (probe F: an interrupted `analyze -` left up to 2 GiB of raw input in `$TMPDIR`).
package enum TemporaryFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []

    package static func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.insert(path)
    }

    /// Removes the file and forgets it.
    package static func remove(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        unlink(path)
        paths.remove(path)
    }

    /// Removes every file still registered (the process is ending).
    package static func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for path in paths { unlink(path) }
        paths.removeAll()
    }
}
