import ForensicsCore

/// Folds the rows of repeated access-log dumps into one entry each.
///
/// Apps save `AVPlayerItem.accessLog()` several times per session (on every error, on leaving the
/// player…), and every dump is the whole cumulative log so far: the same rows again, with the last
/// ones' counters grown — or even dropped (FB22519249). Counting every dump's rows would multiply
/// stalls, playing time and switches by the number of dumps.
///
/// A row is the same event in two dumps when its identity (URI, start date and time, session) and
/// its occurrence number among rows of that identity in its dump agree (`- -` rows repeat within a
/// dump). The latest dump's row is kept, since its counters are the most recent; the earlier ones
/// become its other views, so the evidence still names every line.
enum AVPlayerAccessLogDumpFolder {
    /// `formats[i]` is the source format of `entries[i]`; both come back in the same shape.
    static func fold(
        _ entries: [TimelineEntry], _ formats: [InputFormat], diagnostics: inout [Diagnostic]
    ) -> ([TimelineEntry], [InputFormat]) {
        struct DumpID: Hashable {
            var file: String
            var block: Int
        }
        // Group the access-log rows by dump, in file order within each.
        var rowsByDump: [DumpID: [Int]] = [:]
        var dumpDate: [DumpID: Double] = [:]
        for (i, entry) in entries.enumerated() {
            guard case .accessLog(let a) = entry.record.payload else { continue }
            let id = DumpID(file: entry.location.file, block: a.dump?.block ?? 0)
            rowsByDump[id, default: []].append(i)
            if let d = a.dump?.date?.secondsSince1970 { dumpDate[id] = d }
        }
        guard rowsByDump.count > 1 else { return (entries, formats) }
        // Oldest dump first: by its `#Date`, else by file and position.
        let dumps = rowsByDump.keys.sorted { a, b in
            let da = dumpDate[a] ?? -.infinity
            let db = dumpDate[b] ?? -.infinity
            if da != db { return da < db }
            return a.file != b.file ? a.file < b.file : a.block < b.block
        }
        struct RowKey: Hashable {
            var identity: AVPlayerAccessLogEntry.Identity
            var occurrence: Int
        }
        var kept: [RowKey: Int] = [:]
        var out = entries
        var removed: Set<Int> = []
        var repeatedDumps: Set<DumpID> = []
        for dump in dumps {
            var occurrences: [AVPlayerAccessLogEntry.Identity: Int] = [:]
            for i in (rowsByDump[dump] ?? []).sorted(by: { entries[$0].location.line < entries[$1].location.line }) {
                guard case .accessLog(let a) = entries[i].record.payload else { continue }
                let identity = a.identity
                let n = occurrences[identity, default: 0]
                occurrences[identity] = n + 1
                let key = RowKey(identity: identity, occurrence: n)
                guard let previous = kept[key] else {
                    kept[key] = i
                    continue
                }
                // The later dump's row replaces the earlier one in place (same event, same time).
                var entry = out[previous]
                let older = entry.record
                entry.otherViews = entry.otherViews + [older]
                entry.record = entries[i].record
                out[previous] = entry
                removed.insert(i)
                repeatedDumps.insert(dump)
            }
        }
        guard !removed.isEmpty else { return (entries, formats) }
        let first =
            dumps.first.map { SourceLocation(file: $0.file, line: $0.block) } ?? SourceLocation(file: "", line: 0)
        diagnostics.append(
            Diagnostic(
                first, .info,
                "the access log was dumped \(dumps.count) times; \(removed.count) repeated row\(removed.count == 1 ? "" : "s") "
                    + "of \(repeatedDumps.count) later dump\(repeatedDumps.count == 1 ? "" : "s") folded into one each "
                    + "(the latest dump's counters kept)"))
        let remaining = entries.indices.filter { !removed.contains($0) }
        return (remaining.map { out[$0] }, remaining.map { formats[$0] })
    }
}
