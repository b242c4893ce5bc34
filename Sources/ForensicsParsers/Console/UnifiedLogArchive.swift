import ForensicsCore

/// A unified log archive (`.logarchive`, also inside a sysdiagnose) is Apple's binary store:
/// not read here, but named with the one command that turns it into text this tool reads.
package enum UnifiedLogArchive {
    /// The archive a path is or lies in (`sysdiagnose_…/system_logs.logarchive`), or nil.
    package static func archive(of path: String) -> String? {
        if let r = path.range(of: ".logarchive/") { return String(path[..<r.lowerBound]) + ".logarchive" }
        if path.hasSuffix(".logarchive") { return path }
        if path.hasSuffix(".tracev3") { return path }
        return nil
    }

    /// Why a member of an archive (or the archive) is not read, with the command.
    package static func notRead(_ path: String) -> NotRead? {
        guard let archive = archive(of: path) else { return nil }
        let source = archive.hasSuffix(".tracev3") ? "the .logarchive this file belongs to" : "'\(archive)'"
        return NotRead(
            "unified log archive (Apple's binary log store): on a Mac, run log show --archive \(source) --style ndjson --info --debug > console.ndjson and give this tool console.ndjson",
            hidesEvidence: true)
    }
}
