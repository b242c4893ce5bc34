/// One file of a bundle, by its display path (relative to the bundle), and how to read it.
package struct BundleMember {
    package var path: String
    package var open: () throws -> any ByteSource

    package init(path: String, open: @escaping () throws -> any ByteSource) {
        self.path = path
        self.open = open
    }
}
