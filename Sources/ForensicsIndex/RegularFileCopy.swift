import Foundation

/// A byte copy of a regular file into a new one, for an untrusted file that is then opened only
/// as the copy (`TriageIndex.adopting`).
enum RegularFileCopy {
    // The GNU extensions Glibc's Swift module leaves out (Linux's values; Darwin exports its own).
    #if os(Linux)
    static let seekData: Int32 = 3
    static let seekHole: Int32 = 4
    #else
    static let seekData = SEEK_DATA
    static let seekHole = SEEK_HOLE
    #endif

    /// Copies a regular file byte for byte into a new file (`O_EXCL`): neither end follows a link.
    static func copy(_ source: String, to destination: String) throws {
        // O_NONBLOCK: a FIFO planted in the file's place must not block the open.
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else {
            throw TriageIndex.IndexError(
                description: "it cannot be opened (\(String(cString: strerror(errno)))); a link is not followed")
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw TriageIndex.IndexError(description: "it is not a regular file (a link is not followed)")
        }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw TriageIndex.IndexError(
                description: "\(destination) cannot be made: \(String(cString: strerror(errno)))")
        }
        var failure: String?
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let size = Int64(info.st_size)
        // Only the file's data is copied and its holes kept as holes: a sparse file of a terabyte
        // with a valid header would otherwise be written out whole into the output directory.
        var position: Int64 = 0
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while failure == nil, position < size {
                let data = lseek(input, off_t(position), Self.seekData)
                if data < 0 {
                    // ENXIO: only a hole is left. EINVAL: no hole support, copy everything.
                    if errno == ENXIO { break }
                    if errno != EINVAL {
                        failure = "reading it: \(String(cString: strerror(errno)))"
                        break
                    }
                }
                let start = data < 0 ? position : Int64(data)
                let hole = data < 0 ? -1 : lseek(input, off_t(start), Self.seekHole)
                let end = hole < 0 ? size : min(Int64(hole), size)
                var at = start
                while failure == nil, at < end {
                    let want = Int(min(Int64(raw.count), end - at))
                    let n = pread(input, base, want, off_t(at))
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = "reading it: \(String(cString: strerror(errno)))"
                        break
                    }
                    if n == 0 { break }
                    var done = 0
                    while done < n {
                        let w = pwrite(output, base + done, n - done, off_t(at + Int64(done)))
                        if w < 0 {
                            if errno == EINTR { continue }
                            failure = "writing \(destination): \(String(cString: strerror(errno)))"
                            break
                        }
                        done += w
                    }
                    at += Int64(n)
                }
                position = max(end, at)
            }
        }
        // The holes at the end, and the length.
        if failure == nil, ftruncate(output, off_t(size)) != 0 {
            failure = "writing \(destination): \(String(cString: strerror(errno)))"
        }
        if close(output) != 0, failure == nil {
            failure = "writing \(destination): \(String(cString: strerror(errno)))"
        }
        if let failure { throw TriageIndex.IndexError(description: failure) }
    }
}
