/// Why an input (a bundle, a member) could not be read. Each becomes a diagnostic naming the file;
/// none aborts the rest of a bundle or a batch.
package enum InputError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case tooLarge(path: String, limit: Int)
    case corruptCompression(path: String, reason: String)
    case unsupported(path: String, reason: String)
    /// A bundle limit (bytes, time) stopped the reading; what was read before is kept.
    case limitReached(path: String, what: String)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
        case .tooLarge(let path, let limit):
            "\(path): larger than the limit of \(limit) bytes (see --max-decompressed-size)"
        case .corruptCompression(let path, let reason): "\(path): corrupt compressed data: \(reason)"
        case .unsupported(let path, let reason): "\(path): \(reason)"
        case .limitReached(let path, let what): "\(path): not read further: \(what)"
        }
    }
}
