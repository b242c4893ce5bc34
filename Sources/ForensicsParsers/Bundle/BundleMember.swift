import ForensicsCore

/// One file of a bundle, by its display path (relative to the bundle), and how to read it.
package struct BundleMember {
    package var path: String
    package var open: () throws -> any ByteSource
    /// A file of its own (not a member streamed from an archive): it can be opened now and read
    /// on another thread while the walk goes on.
    package var independent = false
    /// Known not to be read before it is opened, from its path alone (a unified log archive).
    package var notRead: NotRead?

    package init(path: String, open: @escaping () throws -> any ByteSource) {
        self.path = path
        self.open = open
        self.notRead = UnifiedLogArchive.notRead(path)
    }
}
