import Foundation

/// Triage's output directory (`--output`): `index.md`, `triage.json` and `bundles/`.
enum TriageOutput {
    /// Why triage cannot start, in words (never Foundation's error dump).
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// Prepares the output directory: created if missing; one that holds anything but triage's
    /// own earlier output is refused, and with `force` triage's earlier files are removed first
    /// (so no stale report of an earlier run is mixed in).
    static func prepare(_ output: String, force: Bool) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SetupError(description: "--output \(output) is a file, not a directory")
            }
            let existing = ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).filter {
                $0 != ".DS_Store"
            }
            if !existing.isEmpty {
                let ours: Set<String> = ["index.md", "triage.json", "bundles"]
                guard force else {
                    throw SetupError(
                        description:
                            "--output \(output) is not empty: choose a new directory, or add --force to replace an earlier triage there"
                    )
                }
                guard existing.allSatisfy(ours.contains) else {
                    throw SetupError(
                        description:
                            "--output \(output) holds files triage did not write; --force replaces only an earlier triage's output"
                    )
                }
                for name in existing { try? FileManager.default.removeItem(atPath: output + "/" + name) }
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: output + "/bundles", withIntermediateDirectories: true)
        } catch {
            throw SetupError(
                description:
                    "cannot create \(output)/bundles: \(String(cString: strerror(errno == 0 ? EACCES : errno)))")
        }
        guard access(output, W_OK) == 0 else {
            throw SetupError(description: "cannot write to \(output): \(String(cString: strerror(errno)))")
        }
    }
}
