import ForensicsCore

/// Folds records that a bundle holds in more than one file into one entry each: a metric event
/// found in two files (a dump uploaded twice, or its tail sent again), an error-log row in two
/// saved copies of the cumulative error log (`AVPlayerItem.errorLog()` returns every event so
/// far, and apps save it again and again).
///
/// Why: counted once per copy, a repeated stall event made a second stall that "never recovered"
/// (no rate change after it), and a repeated error-log dump doubled the error count and raised a
/// `segment-errors` finding that one copy does not support. Repeats within one file are its
/// parser's to drop (a metric dump's repeated lines; an error log's later dumps); access-log
/// dumps are `AVPlayerAccessLogDumpFolder`'s.
///
/// Two records are one event when their format, source time (to the bit), session and summary
/// agree: for a request the summary holds its URL, status and duration; for a player event its
/// kind, rate and media time; for an error its domain, code and text. Within one file such
/// records are distinct events (an error log's time has a resolution of one second: two
/// failures of one segment in one second are two rows), so the n-th of a file is folded into the
/// n-th found in any other file, never into one of its own. A record without a time is never
/// folded: nothing tells a repeat from a second event. The first copy stays; the others become
/// its other views, so the evidence still names every line.
enum RepeatedRecordFolder {
    /// `formats[i]` is the source format of `entries[i]`; both come back in the same shape.
    static func fold(
        _ entries: [TimelineEntry], _ formats: [InputFormat], diagnostics: inout [Diagnostic]
    ) -> ([TimelineEntry], [InputFormat]) {
        // One pass by index, comparing the file with the first one seen (a set insert per entry,
        // and a copy of every entry, were most of this stage on a long dump).
        var firstMetricFile: String?
        var acrossMetricFiles = false
        var errorLog = false
        var printedErrorEvents = false
        for i in formats.indices {
            let format = formats[i]
            if format == .metricEvents {
                if !acrossMetricFiles {
                    let file = entries[i].location.file
                    if let first = firstMetricFile { acrossMetricFiles = first != file } else { firstMetricFile = file }
                }
            } else if format == .errorLog {
                errorLog = true
            } else if format == .deviceConsole, case .errorLog = entries[i].record.payload {
                printedErrorEvents = true
            }
        }
        guard acrossMetricFiles || errorLog || printedErrorEvents else { return (entries, formats) }
        let formatsPresent = Set(formats)
        struct Key: Hashable {
            var format: InputFormat
            var seconds: UInt64
            var session: String?
            var summary: String
        }
        struct Slots {
            /// The distinct events of this key, by the entry that stays.
            var kept: [Int] = []
            /// How many of this key each file has shown so far.
            var seen: [String: Int] = [:]
        }
        var slots: [Key: Slots] = [:]
        var out = entries
        var removed: Set<Int> = []
        var files: Set<String> = []
        for (i, entry) in entries.enumerated() {
            let format = formats[i]
            guard format == .errorLog || (format == .metricEvents && acrossMetricFiles),
                let time = entry.record.time
            else { continue }
            let key = Key(
                format: format, seconds: time.secondsSince1970.bitPattern, session: entry.record.sessionID,
                summary: entry.record.summary)
            let file = entry.location.file
            var s = slots[key, default: Slots()]
            let n = s.seen[file, default: 0]
            s.seen[file] = n + 1
            if n < s.kept.count {
                // The n-th of its file is another file's n-th: a copy (a file's own n-th made a slot
                // only when no file had shown that many).
                out[s.kept[n]].otherViews.append(entry.record)
                removed.insert(i)
                files.insert(file)
            } else {
                s.kept.append(i)
            }
            slots[key] = s
        }
        // An error-log event the app also printed to the console (Xcode's `errorStatusCode: …,
        // URI: …`) is the same event as the error log's row: same URI, code and session, within
        // the error log's one-second resolution (probe G: six errors counted for three).
        if errorLog, formatsPresent.contains(.deviceConsole) {
            var rows: [String: [Int]] = [:]
            for (i, entry) in entries.enumerated() where formats[i] == .errorLog && !removed.contains(i) {
                if case .errorLog(let e, let uri?) = entry.record.payload {
                    rows["\(uri) \(e.code ?? 0)", default: []].append(i)
                }
            }
            var taken: Set<Int> = []
            for (i, entry) in entries.enumerated() where formats[i] == .deviceConsole {
                guard case .errorLog(let e, let uri?) = entry.record.payload, let t = entry.time?.secondsSince1970
                else { continue }
                let match = (rows["\(uri) \(e.code ?? 0)"] ?? []).first { j in
                    guard !taken.contains(j), let tj = entries[j].time?.secondsSince1970 else { return false }
                    let sameSession =
                        entry.record.sessionID == nil || entries[j].record.sessionID == nil
                        || entry.record.sessionID?.uppercased() == entries[j].record.sessionID?.uppercased()
                    return sameSession && abs(tj - t) <= 2
                }
                guard let j = match else { continue }
                taken.insert(j)
                out[j].otherViews.append(entry.record)
                removed.insert(i)
                files.insert(entry.location.file)
            }
        }
        // A printed error-log event for a request a dump, capture or proxy saw fail is that
        // request's failure, not another (probe N: a 404 counted twice, once as the request and
        // once as the console's `errorStatusCode: -12938 … URI: …`): same URL, logged from the
        // request's start to two minutes after its end — apps print their error log when they
        // choose, often all of it at once (probe O) — each event the earliest failure not taken.
        if printedErrorEvents {
            var failed: [String: [Int]] = [:]
            for (i, entry) in entries.enumerated() where !removed.contains(i) {
                guard let r = entry.record.request, r.effectiveStatus.map({ $0 >= 400 }) ?? (r.error != nil) else {
                    continue
                }
                failed[URLCanonicalizer.canonical(r.url), default: []].append(i)
            }
            var taken: Set<Int> = []
            for (i, entry) in entries.enumerated() where formats[i] == .deviceConsole && !removed.contains(i) {
                guard !failed.isEmpty, case .errorLog(_, let uri?) = entry.record.payload,
                    let t = entry.time?.secondsSince1970
                else { continue }
                let match = (failed[URLCanonicalizer.canonical(uri)] ?? []).first { j in
                    guard !taken.contains(j), let start = entries[j].time?.secondsSince1970 else { return false }
                    let end = entries[j].endTime?.secondsSince1970 ?? start
                    let sameSession =
                        entry.record.sessionID == nil || entries[j].record.sessionID == nil
                        || entry.record.sessionID?.uppercased() == entries[j].record.sessionID?.uppercased()
                    return sameSession && t >= start - 1 && t <= end + 120
                }
                guard let j = match else { continue }
                taken.insert(j)
                out[j].otherViews.append(entry.record)
                removed.insert(i)
                files.insert(entry.location.file)
            }
        }
        guard let firstRemoved = removed.min() else { return (entries, formats) }
        diagnostics.append(
            Diagnostic(
                entries[firstRemoved].location, .info,
                "\(removed.count) record\(removed.count == 1 ? "" : "s") repeated from an earlier file or dump "
                    + "(the same event, time and session) counted once, in \(files.count) file\(files.count == 1 ? "" : "s")"
            ))
        let remaining = entries.indices.filter { !removed.contains($0) }
        return (remaining.map { out[$0] }, remaining.map { formats[$0] })
    }
}
