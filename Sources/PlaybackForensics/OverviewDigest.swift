import Crypto
import Foundation

/// The SHA-256 of a triage overview's files as they are on disk (in the order given) and of the
/// settings that wrote them: what lets a `--since-index` run that changed nothing keep the
/// overview it wrote last time instead of writing the same bytes again (issue 36: the overview
/// was half of such a run).
///
/// The digest of what was written is kept in the index (`meta.overview_sha256`); the files are
/// kept only when they and the settings still hash to it, so a file deleted, replaced or edited
/// since, or a newer tool, writes them again. A file that is missing, a link, or not a regular
/// file gives no digest. The digest is not a signature: whoever can write the output directory
/// can forge it, which is why the HTML page is always written again.
public enum OverviewDigest {
    public static let metaKey = "overview_sha256"

    /// `settings`: what else decides the files' text (the analyzer fingerprint: tool version,
    /// rules, redaction, narrowing), so that a run with other settings never keeps them.
    public static func of(files: [String], settings: String) -> String? {
        var hasher = SHA256()
        hasher.update(data: Array("\(settings)\u{0}".utf8))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for path in files {
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            // The name and length go in first: the same bytes split differently between files differ.
            hasher.update(data: Array("\(path.split(separator: "/").last ?? "")\u{0}\(info.st_size)\u{0}".utf8))
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n == 0 { break }
                if n < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        }
        return BundleContentHash.hex(Array(hasher.finalize()))
    }
}
