import Foundation
import ForensicsCore

/// Walks a bundle — a directory, a `.zip`, a `.tar`/`.tar.gz`, a single file, or stdin (`-`) —
/// and hands each member to a visitor, one at a time, in a deterministic (sorted) order.
///
/// Archives are recognised by their bytes, not their names, also when they sit inside a
/// directory bundle. Member names are only labels: nothing is written to disk under them, so
/// `../` and absolute names (zip-slip) cannot escape; they are still reported. Symbolic links
/// that point outside a directory bundle, and directory loops, are skipped with a diagnostic.
package struct BundleReader {
    package let limits: BundleLimits

    package init(limits: BundleLimits = BundleLimits()) {
        self.limits = limits
    }

    package func read(
        path: String, diagnostics: inout [Diagnostic], visit: (BundleMember) throws -> Void
    ) throws {
        var archives = LogArchives()
        func visitCollapsed(_ member: BundleMember) throws { try archives.visit(member, visit) }
        try read(path: path, diagnostics: &diagnostics, each: visitCollapsed)
    }

    private func read(path: String, diagnostics: inout [Diagnostic], each visit: (BundleMember) throws -> Void) throws {
        if path == "-" {
            // Spooled to a private temporary file (up to the member size limit), so that an
            // archive piped in is recognised and expanded like the same file on disk.
            var cut = false
            let spooled = try Self.spoolStandardInput(limit: limits.maxMemberSize, cut: &cut)
            defer { TemporaryFiles.remove(spooled) }
            if cut {
                // What came before the limit is read and judged; the verdict says the rest was not.
                diagnostics.append(
                    Diagnostic(
                        SourceLocation(file: "stdin", line: 0), .warning,
                        "standard input is larger than the limit of \(limits.maxMemberSize) bytes (--max-member-size): only its first \(limits.maxMemberSize) bytes were read"
                    ))
            }
            try readFile(path: spooled, display: "stdin", diagnostics: &diagnostics, visit: visit)
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError.unreadable(path: path, reason: "no such file or directory")
        }
        if !isDirectory.boolValue, let kind = Self.specialFileKind(path) {
            // Opening a FIFO blocks until a writer comes; a device never ends.
            throw InputError.unreadable(path: path, reason: "\(kind), not a regular file")
        }
        if isDirectory.boolValue, path.hasSuffix(".logarchive") || path.hasSuffix(".logarchive/") {
            // The bundle is itself a unified log archive: one input, not read.
            let name = URL(fileURLWithPath: path).lastPathComponent
            try visit(
                BundleMember(path: name) { throw InputError.unsupported(path: name, reason: "unified log archive") })
            return
        }
        if isDirectory.boolValue {
            let root = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw InputError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            defer { close(fd) }
            var info = stat()
            fstat(fd, &info)
            var visited: Set<FileIdentity> = [FileIdentity(info)]
            var count = 0
            try walk(
                directory: fd, path: root, display: "", root: root, depth: 0, visited: &visited, count: &count,
                diagnostics: &diagnostics, visit: visit)
        } else {
            let name = URL(fileURLWithPath: path).lastPathComponent
            try readFile(path: path, display: name, diagnostics: &diagnostics, visit: visit)
        }
    }

    /// Reads an archive found inside the bundle (spooled to `path`), naming its members under
    /// `display` (`outer.zip/inner.tar.gz/member`).
    package func read(
        archive path: String, displayedAs display: String, diagnostics: inout [Diagnostic],
        visit: (BundleMember) throws -> Void
    ) throws {
        var archives = LogArchives()
        try readFile(path: path, display: display, diagnostics: &diagnostics) { try archives.visit($0, visit) }
    }

    /// One member per unified log archive (a folder of binary files, also inside a sysdiagnose's
    /// tar): its first file stands for it, named by the archive; the rest are not visited.
    struct LogArchives {
        var seen: Set<String> = []

        mutating func visit(_ member: BundleMember, _ body: (BundleMember) throws -> Void) throws {
            guard member.notRead != nil, let archive = UnifiedLogArchive.archive(of: member.path) else {
                return try body(member)
            }
            guard seen.insert(archive).inserted else { return }
            try body(BundleMember(path: archive, open: member.open))
        }
    }

    /// Whether bytes start an archive the reader expands (zip, tar).
    package static func isArchive(_ prefix: [UInt8]) -> Bool {
        isZip(prefix) || TarReader.looksLikeTar(Array(prefix.prefix(512)))
    }

    /// A zip's first bytes: a local file header, or the end record of an empty archive.
    static func isZip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 4 && prefix[0] == 0x50 && prefix[1] == 0x4B && (prefix[2] == 0x03 || prefix[2] == 0x05)
            && (prefix[3] == 0x04 || prefix[3] == 0x06)
    }

    /// A directory entry's identity, to find loops whatever the path.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
    }

    /// Walks a directory by descriptor: entries are named by their raw bytes and opened relative
    /// to their directory (`openat`), so that a file name that is not UTF-8, or a path longer than
    /// `PATH_MAX`, is read like any other (named with U+FFFD where its bytes are not UTF-8).
    private func walk(
        directory: Int32, path: String, display: String, root: String, depth: Int, visited: inout Set<FileIdentity>,
        count: inout Int, diagnostics: inout [Diagnostic], visit: (BundleMember) throws -> Void
    ) throws {
        guard depth <= limits.maxDepth else {
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: display, line: 0), .warning,
                    "directory nesting deeper than \(limits.maxDepth): not read"))
            return
        }
        guard let names = Self.rawNames(directory) else {
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: display.isEmpty ? "." : display, line: 0), .error,
                    "cannot list directory: \(String(cString: strerror(errno)))"))
            return
        }
        for raw in names {
            let name = String(decoding: raw.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if Self.isPlatformClutter(name) { continue }
            let full = path + "/" + name
            let shown = display.isEmpty ? name : display + "/" + name
            let location = SourceLocation(file: shown, line: 0)
            // lstat alone: `attributesOfItem` also reads extended attributes, a system call per
            // entry that triage paid thousands of times.
            var info = stat()
            let listed = fstatat(directory, raw, &info, AT_SYMLINK_NOFOLLOW) == 0
            let isLink = listed && (info.st_mode & S_IFMT) == S_IFLNK
            if isLink {
                let resolved = URL(fileURLWithPath: full).resolvingSymlinksInPath().path
                guard resolved == root || resolved.hasPrefix(root + "/") else {
                    diagnostics.append(
                        Diagnostic(location, .warning, "symbolic link pointing outside the bundle: skipped"))
                    continue
                }
            }
            // One stat tells what the entry is: the lstat above for a plain entry, the link's target
            // otherwise.
            guard listed, !isLink || fstatat(directory, raw, &info, 0) == 0 else {
                diagnostics.append(Diagnostic(location, .warning, "broken link or unreadable entry: skipped"))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR, UnifiedLogArchive.archive(of: shown) != nil {
                // One member for the whole archive, without walking its binary files.
                try visit(
                    BundleMember(path: shown) {
                        throw InputError.unsupported(path: shown, reason: "unified log archive")
                    })
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                guard visited.insert(FileIdentity(info)).inserted else {
                    diagnostics.append(Diagnostic(location, .warning, "directory loop: skipped"))
                    continue
                }
                let child = openat(directory, raw, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard child >= 0 else {
                    diagnostics.append(
                        Diagnostic(location, .error, "cannot read directory: \(String(cString: strerror(errno)))"))
                    continue
                }
                defer { close(child) }
                try walk(
                    directory: child, path: full, display: shown, root: root, depth: depth + 1, visited: &visited,
                    count: &count, diagnostics: &diagnostics, visit: visit)
                continue
            }
            if let kind = Self.specialFileKind(mode: info.st_mode) {
                diagnostics.append(Diagnostic(location, .warning, "\(kind), not a regular file: skipped"))
                continue
            }
            count += 1
            guard count <= limits.maxMembers else {
                diagnostics.append(
                    Diagnostic(location, .error, "more than \(limits.maxMembers) files: the rest is not read"))
                return
            }
            // One entry that cannot be read (no permission, deleted since the listing) costs
            // only itself.
            let fd = openat(directory, raw, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else {
                diagnostics.append(Diagnostic(location, .error, "cannot read: \(String(cString: strerror(errno)))"))
                continue
            }
            defer { close(fd) }
            do {
                try readFile(
                    path: Self.reopenablePath(fd: fd, fallback: full), display: shown, diagnostics: &diagnostics,
                    visit: visit)
            } catch let error as InputError {
                diagnostics.append(Diagnostic(location, .error, "cannot read: \(error.description)"))
            }
        }
    }

    /// A directory's entry names as raw, NUL-terminated bytes, sorted byte-wise (deterministic);
    /// nil when it cannot be listed.
    static func rawNames(_ directory: Int32) -> [[CChar]]? {
        let fd = dup(directory)
        guard fd >= 0, let dir = fdopendir(fd) else { return nil }
        defer { closedir(dir) }
        rewinddir(dir)
        var names: [[CChar]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [CChar] in
                let bytes = raw.bindMemory(to: CChar.self)
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return Array(bytes[0..<length]) + [0]
            }
            if name == [0x2E, 0] || name == [0x2E, 0x2E, 0] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) { UInt8(bitPattern: $0) < UInt8(bitPattern: $1) } }
    }

    /// A path that opens the file behind `fd` anew (its own offset): `/proc/self/fd/N` on Linux,
    /// whatever the file's real path (too long, not UTF-8). Elsewhere the path itself.
    static func reopenablePath(fd: Int32, fallback: String) -> String {
        #if os(Linux)
        return "/proc/self/fd/\(fd)"
        #else
        return fallback
        #endif
    }

    /// A file: an archive (zip, tar, tar.gz) is expanded; anything else is one member.
    private func readFile(
        path: String, display: String, diagnostics: inout [Diagnostic], visit: (BundleMember) throws -> Void
    ) throws {
        // One small read decides what the file is (zip, tar, tar.gz or a plain member); the file is
        // opened again only to be read for real.
        var probe = PeekableByteSource(try FileByteSource(path: path, chunkSize: 4096))
        var firstBlock = try probe.peek(512)
        if Self.isZip(firstBlock) {
            try readZip(path: path, display: display, diagnostics: &diagnostics, visit: visit)
            return
        }
        // Tar, possibly gzip-compressed: look at the first decompressed block.
        var compressed = false
        if GzipByteSource.isGzip(firstBlock) {
            compressed = true
            var gz = PeekableByteSource(try GzipByteSource(probe, name: display, limit: limits.maxDecompressedSize))
            firstBlock = (try? gz.peek(512)) ?? []
        }
        if TarReader.looksLikeTar(firstBlock) {
            let base: any ByteSource =
                compressed
                ? try GzipByteSource(try FileByteSource(path: path), name: display, limit: limits.maxDecompressedSize)
                : try FileByteSource(path: path)
            try readTar(base, display: display, diagnostics: &diagnostics, visit: visit)
            return
        }
        var member = BundleMember(path: display, open: { try FileByteSource(path: path) })
        member.independent = true
        try visit(member)
    }

    private func readTar(
        _ source: any ByteSource, display: String, diagnostics: inout [Diagnostic], visit: (BundleMember) throws -> Void
    ) throws {
        let tar = TarReader(source, name: display)
        var count = 0
        var names: [String: Int] = [:]
        do {
            while let header = try tar.nextHeader() {
                if Self.isPlatformClutter(header.name) { continue }
                count += 1
                let name = Self.uniqueName(
                    display + "/" + Self.safeName(header.name, diagnostics: &diagnostics, archive: display), &names,
                    diagnostics: &diagnostics)
                guard count <= limits.maxMembers else {
                    diagnostics.append(
                        Diagnostic(
                            SourceLocation(file: display, line: 0), .error,
                            "more than \(limits.maxMembers) members: the rest is not read"))
                    return
                }
                guard header.size <= limits.maxMemberSize else {
                    diagnostics.append(
                        Diagnostic(
                            SourceLocation(file: name, line: 0), .error,
                            "member larger than \(limits.maxMemberSize) bytes: not read"))
                    continue
                }
                try visit(BundleMember(path: name, open: { tar.memberSource() }))
            }
        } catch let error as InputError {
            diagnostics.append(Diagnostic(SourceLocation(file: display, line: 0), .error, error.description))
        }
        for (entry, kind) in tar.skippedEntries {
            let name = display + "/" + Self.safeName(entry, diagnostics: &diagnostics, archive: display)
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: name, line: 0), .warning, "\(kind) in the archive: not followed, not read"))
        }
        if tar.skippedUnnamed > 0 {
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: display, line: 0), .warning,
                    "\(tar.skippedUnnamed) more links, devices or FIFOs in the archive: not followed, not read"))
        }
    }

    /// An archive may hold two members of one name (appended twice, or names that read alike
    /// once made safe): the later ones are cited as `name (2)`, `name (3)`…, so that every
    /// `file:line` names one member (probe M: two inputs had one path).
    static func uniqueName(_ name: String, _ seen: inout [String: Int], diagnostics: inout [Diagnostic]) -> String {
        let n = seen[name, default: 0] + 1
        seen[name] = n
        guard n > 1 else { return name }
        // A member may itself be called `name (2)`: the next number no member has (review).
        var k = n
        while seen["\(name) (\(k))"] != nil { k += 1 }
        let shown = "\(name) (\(k))"
        seen[shown] = 1
        diagnostics.append(
            Diagnostic(
                SourceLocation(file: shown, line: 0), .warning,
                "the archive holds more than one member named \(name): this one is cited as \(shown)"))
        return shown
    }

    private func readZip(
        path: String, display: String, diagnostics: inout [Diagnostic], visit: (BundleMember) throws -> Void
    ) throws {
        let archive: ZipArchiveReader
        let listed: [ZipArchiveReader.Member]
        do {
            archive = try ZipArchiveReader(path: path)
            // One more than the limit, to know that there were more.
            listed = try archive.members(limit: limits.maxMembers + 1)
        } catch {
            diagnostics.append(
                Diagnostic(SourceLocation(file: display, line: 0), .error, "cannot open zip archive: \(error)"))
            return
        }
        // A symbolic link entry is never followed or read: named, as a tar's are.
        for link in listed.filter({ $0.isSymbolicLink && !Self.isPlatformClutter($0.name) }).prefix(20) {
            let name = display + "/" + Self.safeName(link.name, diagnostics: &diagnostics, archive: display)
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: name, line: 0), .warning,
                    "a symbolic link in the archive: not followed, not read"))
        }
        var entries = listed.filter { !$0.isDirectory && !$0.isSymbolicLink && !Self.isPlatformClutter($0.name) }
        let overlapping = Self.overlappingMembers(entries)
        if !overlapping.isEmpty {
            // A zip whose members share their compressed bytes (a "zip bomb" without recursion)
            // declares terabytes from a few kilobytes: only the first member of each run is read.
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: display, line: 0), .error,
                    "\(overlapping.count) member\(overlapping.count == 1 ? "" : "s") overlap another member's data (a crafted archive): not read"
                ))
            entries = entries.enumerated().filter { !overlapping.contains($0.offset) }.map(\.element)
        }
        if entries.count > limits.maxMembers {
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: display, line: 0), .error,
                    "more than \(limits.maxMembers) members: the rest is not read"))
            entries = Array(entries.prefix(limits.maxMembers))
        }
        var names: [String: Int] = [:]
        for entry in entries.sorted(by: { $0.name < $1.name }) {
            let name = Self.uniqueName(
                display + "/" + Self.safeName(entry.name, diagnostics: &diagnostics, archive: display), &names,
                diagnostics: &diagnostics)
            guard entry.uncompressedSize <= UInt64(limits.maxMemberSize) else {
                diagnostics.append(
                    Diagnostic(
                        SourceLocation(file: name, line: 0), .error,
                        "member larger than \(limits.maxMemberSize) bytes: not read"))
                continue
            }
            let limit = limits.maxMemberSize
            try visit(BundleMember(path: name, open: { try archive.source(for: entry, name: name, limit: limit) }))
        }
    }

    /// Indices of members whose local header lies inside the data of a member before it (by
    /// offset): an honest archive stores each member's bytes once, one after the other. The end
    /// of a member is at least its header (30 bytes) plus its compressed size.
    static func overlappingMembers(_ entries: [ZipArchiveReader.Member]) -> Set<Int> {
        let order = entries.indices.sorted { entries[$0].localHeaderOffset < entries[$1].localHeaderOffset }
        var out: Set<Int> = []
        var end: UInt64 = 0
        var first = true
        for i in order {
            let m = entries[i]
            if !first, m.localHeaderOffset < end {
                out.insert(i)
                continue
            }
            first = false
            let (sum, overflow) = m.localHeaderOffset.addingReportingOverflow(30)
            let (memberEnd, overflow2) = sum.addingReportingOverflow(m.compressedSize)
            end = overflow || overflow2 ? UInt64.max : memberEnd
        }
        return out
    }

    /// Copies standard input to a new file only this user can read; refuses more than `limit` bytes.
    /// Past the limit the copy stops and `cut` is set: a pipe's first gigabytes are read, not
    /// refused whole (probe F: `analyze -` of a stream past the limit wrote no report at all).
    static func spoolStandardInput(limit: Int, cut: inout Bool) throws -> String {
        var source = PeekableByteSource(FileByteSource(handle: FileHandle.standardInput))
        var stopped: Bool? = false
        defer { cut = stopped == true }
        return try spool(&source, limit: limit, name: "stdin", cut: &stopped)
    }

    /// Copies a byte source to a new private temporary file (stdin, an archive inside the bundle);
    /// refuses more than `limit` bytes.
    static func spool(_ source: inout PeekableByteSource, limit: Int, name: String) throws -> String {
        var cut: Bool?
        return try spool(&source, limit: limit, name: name, cut: &cut)
    }

    /// `cut` nil: more than `limit` bytes is an error; else the copy stops at `limit` and says so.
    static func spool(_ source: inout PeekableByteSource, limit: Int, name: String, cut: inout Bool?) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("playback-forensics-spool-\(UUID().uuidString)").path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw InputError.unreadable(path: name, reason: "cannot create a temporary file") }
        TemporaryFiles.register(path)
        defer { close(fd) }
        var total = 0
        do {
            while var chunk = try source.nextChunk() {
                let before = total
                total = total.addingReportingOverflow(chunk.count).partialValue
                if total > limit {
                    guard cut != nil else { throw InputError.tooLarge(path: name, limit: limit) }
                    cut = true
                    chunk = Array(chunk.prefix(max(0, limit - before)))
                }
                try chunk.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let n = write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                        guard n > 0 else {
                            throw InputError.unreadable(path: name, reason: "cannot write a temporary file")
                        }
                        offset += n
                    }
                }
                if cut == true { break }
            }
        } catch {
            TemporaryFiles.remove(path)
            throw error
        }
        return path
    }

    /// Files an archiver or file manager adds that are never logs: macOS's `__MACOSX/` resource
    /// forks and `.DS_Store`, Windows' `Thumbs.db`. Skipped without a word.
    package static func isPlatformClutter(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        guard let last = parts.last else { return false }
        return parts.contains("__MACOSX") || last == ".DS_Store" || last == "Thumbs.db" || last == "desktop.ini"
    }

    /// What a path is when it is neither a regular file nor a directory (`FIFO`, `socket`, `device`),
    /// from `stat` — never `open`, which blocks on a FIFO.
    static func specialFileKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return specialFileKind(mode: info.st_mode)
    }

    static func specialFileKind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a special file"
        }
    }

    /// A member name made safe to show: `..` segments and leading `/` removed, with a diagnostic.
    static func safeName(_ name: String, diagnostics: inout [Diagnostic], archive: String) -> String {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true)
        let safe = parts.filter { $0 != ".." && $0 != "." }
        if safe.count != parts.count || name.hasPrefix("/") {
            diagnostics.append(
                Diagnostic(
                    SourceLocation(file: archive, line: 0), .warning,
                    "member name '\(name)' points outside the archive (zip-slip): read as '\(safe.joined(separator: "/"))', nothing written"
                ))
        }
        return safe.isEmpty ? "unnamed" : safe.joined(separator: "/")
    }
}
