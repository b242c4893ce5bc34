/// Where a record came from: the bundle member path and the 1-based line the record starts on
/// (for a JSON document, the line its element starts on; 0 for the file as a whole).
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
