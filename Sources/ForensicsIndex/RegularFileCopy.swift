import Foundation

/// A byte copy of a regular file into a new one, for an untrusted file that is then opened only
/// as the copy (`TriageIndex.adopting`).
enum RegularFileCopy {
    /// Copies a regular file byte for byte into a new file (`O_EXCL`): neither end follows a link.
    static func copy(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
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
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while failure == nil {
                let n = read(input, base, raw.count)
                if n == 0 { break }
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = "reading it: \(String(cString: strerror(errno)))"
                    break
                }
                var done = 0
                while done < n {
                    let w = write(output, base + done, n - done)
                    if w < 0 {
                        if errno == EINTR { continue }
                        failure = "writing \(destination): \(String(cString: strerror(errno)))"
                        break
                    }
                    done += w
                }
            }
        }
        if close(output) != 0, failure == nil {
            failure = "writing \(destination): \(String(cString: strerror(errno)))"
        }
        if let failure { throw TriageIndex.IndexError(description: failure) }
    }
}
