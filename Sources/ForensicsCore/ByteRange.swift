/// A byte range of a resource: `offset` and `length` (nil length = open-ended).
public struct ByteRange: Hashable, Sendable, Codable, CustomStringConvertible {
    public var offset: Int64
    public var length: Int64?

    public init(offset: Int64, length: Int64?) {
        self.offset = offset
        self.length = length
    }

    /// From an HTTP `Range` header: `bytes=0-1` → offset 0 length 2, `bytes=100-` → open.
    /// Nil for suffix ranges, several ranges, or anything malformed.
    public init?(httpRangeHeader header: String) {
        guard header.hasPrefix("bytes=") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Int64(parts[0]), start >= 0 else { return nil }
        // `bytes=0-9223372036854775807` is as open as `bytes=0-`: its length does not fit.
        if let end = Int64(parts[1]), end >= start,
            case let (length, overflow) = (end - start).addingReportingOverflow(1), !overflow
        {
            self.init(offset: start, length: length)
        } else {
            self.init(offset: start, length: nil)
        }
    }

    public var description: String {
        if let length { return "\(offset)-\(offset &+ max(length, 1) &- 1)" }
        return "\(offset)-"
    }
}
