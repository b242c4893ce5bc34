import Crypto
import ForensicsCore
import Foundation

/// The SHA-256 of a bundle's bytes: a file's content, or for a folder every regular file's
/// relative path, size and content in path order (symbolic links by their target text, never
/// followed). Incremental triage analyses a bundle again only when this changes.
///
/// Bounded like reading the bundle: at most `maxBundleBytes` of content are hashed (a bigger
/// bundle adds its total size and each file's modification time instead of the rest), at most
/// `maxMembers` entries and `maxDepth` levels are walked.
public enum BundleContentHash {
    /// The SHA-256 of the bundle's content (see above).
    public static func of(path: String, limits: BundleLimits = BundleLimits()) throws -> String {
        try hash(path: path, limits: limits, contents: true)
    }

    /// The SHA-256 of what `stat` says of the bundle's files — each one's relative path, size,
    /// modification and change times, inode and device — walked as `of` walks them but reading
    /// no byte. Incremental triage's first check: the same key means the same files (a changed
    /// file changes its times, a replaced one its inode), so a daily run over a fleet where 1 %
    /// changed hashes that 1 %, not every bundle again.
    public static func metadataKey(path: String, limits: BundleLimits = BundleLimits()) throws -> String {
        try hash(path: path, limits: limits, contents: false)
    }

    static func hash(path: String, limits: BundleLimits, contents: Bool) throws -> String {
        var hasher = SHA256()
        // One read buffer for the whole bundle (zeroing one per file was 7 % of a re-run).
        var buffer = contents ? [UInt8](repeating: 0, count: 1 << 16) : []
        var budget = limits.maxBundleBytes
        var members = 0
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw TriageRunner.SetupError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        // The bundle itself may be a link inside the fleet directory (triage refuses links out of
        // it): its target is what is analysed, so its target is what is hashed.
        var path = path
        if (info.st_mode & S_IFMT) == S_IFLNK {
            path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard lstat(path, &info) == 0 else {
                throw TriageRunner.SetupError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            try walk(
                path, relative: "", depth: 0, limits: limits, contents: contents, hasher: &hasher, buffer: &buffer,
                budget: &budget, members: &members)
        case S_IFREG:
            try file(
                path, relative: "", info: info, contents: contents, hasher: &hasher, buffer: &buffer, budget: &budget)
        default:
            // A FIFO, socket or device is never read (a FIFO would block): its kind stands for it.
            hasher.update(data: Array("s\0\(info.st_mode & S_IFMT)\0".utf8))
        }
        return hex(hasher.finalize())
    }

    /// Lower-case hex, without `String(format:)` (Foundation's formatter per byte).
    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in digest {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func walk(
        _ path: String, relative: String, depth: Int, limits: BundleLimits, contents: Bool, hasher: inout SHA256,
        buffer: inout [UInt8], budget: inout Int, members: inout Int
    ) throws {
        guard depth <= limits.maxDepth else { return }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        for name in names {
            members += 1
            guard members <= limits.maxMembers else { return }
            let full = path + "/" + name
            let rel = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                hasher.update(data: Array("d\0\(rel)\0".utf8))
                try walk(
                    full, relative: rel, depth: depth + 1, limits: limits, contents: contents, hasher: &hasher,
                    buffer: &buffer, budget: &budget, members: &members)
            case S_IFLNK:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? ""
                hasher.update(data: Array("l\0\(rel)\0\(target)\0".utf8))
            case S_IFREG:
                try file(
                    full, relative: rel, info: info, contents: contents, hasher: &hasher, buffer: &buffer,
                    budget: &budget)
            default:
                continue
            }
        }
    }

    static func file(
        _ path: String, relative: String, info: stat, contents: Bool, hasher: inout SHA256, buffer: inout [UInt8],
        budget: inout Int
    ) throws {
        let size = Int(info.st_size)
        hasher.update(data: Array("f\0\(relative)\0\(size)\0".utf8))
        guard contents else {
            hasher.update(
                data: Array(
                    "m\0\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\0\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)\0\(info.st_ino)\0\(info.st_dev)\0"
                        .utf8))
            return
        }
        guard size <= budget else {
            // Past the budget: the size and the modification time stand for the content.
            hasher.update(data: Array("m\0\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\0".utf8))
            budget = 0
            return
        }
        // Non-blocking and not through a link: the path may have been swapped for a FIFO or a link
        // since it was listed; only a regular file is read.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var opened = stat()
        guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG else { return }
        var left = size
        while left > 0 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min(left, $0.count)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            hasher.update(data: buffer.prefix(n))
            left -= n
        }
        budget -= size
    }
}
