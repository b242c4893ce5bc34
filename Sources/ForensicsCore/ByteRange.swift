/// A byte range of a resource: `offset` and `length` (nil length = open-ended).
public struct ByteRange: Hashable, Sendable, Codable, CustomStringConvertible {
    public var offset: Int64
    public var length: Int64?

    public init(offset: Int64, length: Int64?) {
        self.offset = offset
        self.length = length
    }

    public var description: String {
        if let length { return "\(offset)-\(offset &+ max(length, 1) &- 1)" }
        return "\(offset)-"
    }
}
