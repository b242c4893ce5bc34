import Crypto
import Foundation

/// A signature of a triage overview's files as they are on disk (in the order given) and of the
/// settings that wrote them: what lets a `--since-index` run that changed nothing keep the
/// overview it wrote last time instead of writing the same bytes again (issue 36: the overview
/// was half of such a run).
///
/// The signature of what was written is kept in the index (`meta.overview_sha256`); the files are
/// kept only when they and the settings still sign to it, so a file deleted, replaced or edited
/// since, or a newer tool, writes them again. A file that is missing, a link, or not a regular
/// file gives no signature. It is not a security boundary: whoever can write the output directory
/// can forge it, which is why the HTML page is always written again.
///
/// Signed from what `stat` says of each file — device, inode, size, and the modification and
/// status-change times in nanoseconds — not from the bytes. Why: hashing the 3.5 MB of a
/// 2,000-bundle overview was a tenth of a run that changed nothing, and again after every run
/// that wrote it. Any write, replacement, copy or rename gives another inode or another change
/// time (which no user call sets), as bundles' `metadata_key` relies on. Any change of their
/// metadata counts as a change (a `chmod`, a hard link a backup tool adds): the files are then
/// written again, which costs a run what it cost before and is never wrong.
public enum OverviewDigest {
    public static let metaKey = "overview_sha256"

    /// `settings`: what else decides the files' text (the analyzer fingerprint: tool version,
    /// rules, redaction, narrowing), so that a run with other settings never keeps them.
    public static func of(files: [String], settings: String) -> String? {
        var hasher = SHA256()
        hasher.update(data: Array("\(settings)\u{0}".utf8))
        for path in files {
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            let name = path.split(separator: "/").last ?? ""
            let fields = [
                UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino),
                UInt64(truncatingIfNeeded: info.st_size), UInt64(truncatingIfNeeded: info.st_mtim.tv_sec),
                UInt64(truncatingIfNeeded: info.st_mtim.tv_nsec), UInt64(truncatingIfNeeded: info.st_ctim.tv_sec),
                UInt64(truncatingIfNeeded: info.st_ctim.tv_nsec),
            ]
            hasher.update(data: Array("\(name)\u{0}\(fields.map(String.init).joined(separator: ","))\u{0}".utf8))
        }
        return BundleContentHash.hex(Array(hasher.finalize()))
    }
}
