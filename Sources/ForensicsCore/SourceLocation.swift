/// Where a record came from: the bundle member path and the 1-based line (or, for JSON arrays,
/// the 1-based element index, with `isElementIndex` set).
public struct SourceLocation: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.file == rhs.file ? lhs.line < rhs.line : lhs.file < rhs.file
    }

    public var description: String { "\(file):\(line)" }
}
