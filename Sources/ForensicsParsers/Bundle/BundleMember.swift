/// One file of a bundle, by its display path (relative to the bundle), and how to read it.
public struct BundleMember {
    public var path: String
    public var open: () throws -> any ByteSource

    public init(path: String, open: @escaping () throws -> any ByteSource) {
        self.path = path
        self.open = open
    }
}
