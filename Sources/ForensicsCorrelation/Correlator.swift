import ForensicsCore

/// Turns the records of all the files of a bundle into sessions, each with one aligned,
/// ordered timeline and its KPIs. A pure function of its input: the order in which files are
/// given does not matter (they are sorted by path first).
package struct Correlator: Sendable {
    /// Two views of the same request from different sources must start within this many
    /// seconds of each other once clocks are aligned.
    package var requestMatchWindow: Double = 2.0

    package init() {}

    /// Takes the files (`consuming`): each file's records move into their sessions and the
    /// file's own array is released as soon as it is read, so a record is held once, not once
    /// per stage (on a 200 MB dump the copies were most of `analyze`'s peak memory).
    package func correlate(_ input: consuming [SourceFile]) -> CorrelationResult {
        var files = consume input
        files.sort { $0.path < $1.path || ($0.path == $1.path && $0.format < $1.format) }
        // Server logs hold every viewer's rows: they are joined to the sessions below, never
        // sessionized.
        let serverFiles = files.filter { !$0.semantics.role.makesSessions }
        files.removeAll { !$0.semantics.role.makesSessions }
        var assignment = Sessionizer().assign(files)
        var unassigned: [UnassignedRecord] = []
        var perSession: [[(fileIndex: Int, records: [Record])]] = Array(
            repeating: [], count: assignment.sessionIDs.count)
        // Each file's records move into their sessions' parts, and what assigned them is let go
        // file by file: a record is held once at a time on its way to the timeline (issue 36:
        // the copies were a third of the peak memory of a long dump).
        for f in files.indices {
            let records = files[f].records
            files[f].records = []
            let sessionOf = assignment.sessionOf[f]
            assignment.sessionOf[f] = []
            defer { assignment.reasons[f] = [] }
            // The usual case, one session takes the whole file: the array moves as it is.
            if let s = sessionOf.first ?? nil, sessionOf.allSatisfy({ $0 == s }) {
                perSession[s].append((f, records))
                continue
            }
            var buckets: [Int: [Record]] = [:]
            for (r, record) in records.enumerated() {
                if let s = sessionOf[r] {
                    buckets[s, default: []].append(record)
                } else {
                    unassigned.append(
                        UnassignedRecord(record: record, reason: assignment.reasons[f][r] ?? "no session fits"))
                }
            }
            for (s, records) in buckets.sorted(by: { $0.key < $1.key }) { perSession[s].append((f, records)) }
        }
        var sessions: [Session] = []
        var diagnostics: [Diagnostic] = []
        for s in perSession.indices where !perSession[s].isEmpty {
            var parts: [(fileIndex: Int, records: [Record])] = []
            swap(&parts, &perSession[s])
            let built = buildSession(
                id: assignment.sessionIDs[s], fromLogs: assignment.idFromLogs[s], parts: consume parts, files: files)
            sessions.append(built.session)
            diagnostics.append(contentsOf: built.diagnostics)
        }
        sessions.sort {
            let a = $0.start?.secondsSince1970 ?? .infinity
            let b = $1.start?.secondsSince1970 ?? .infinity
            return a != b ? a < b : $0.id < $1.id
        }
        // Two playbacks of one console derive the same id (same file, no asset URL): the later
        // ones are numbered, so every session can be asked for by its id.
        var seen: [String: Int] = [:]
        for i in sessions.indices where !sessions[i].idIsFromLogs {
            let n = seen[sessions[i].id, default: 0] + 1
            seen[sessions[i].id] = n
            if n > 1 { sessions[i].id += "-\(n)" }
        }
        for u in unassigned {
            diagnostics.append(Diagnostic(u.record.location, .warning, "record not assigned to a session: \(u.reason)"))
        }
        let unjoined = RequestJoiner().join(&sessions, serverFiles: serverFiles)
        var result = CorrelationResult(sessions: sessions, unassigned: unassigned, diagnostics: diagnostics)
        result.serverRows = serverFiles.reduce(0) {
            Int.saturatingSum($0, max(0, $1.coverage?.rows ?? $1.records.count))
        }
        result.unjoinedServerRows = unjoined
        return result
    }

    func buildSession(
        id: String, fromLogs: Bool, parts input: consuming [(fileIndex: Int, records: [Record])], files: [SourceFile]
    ) -> (session: Session, diagnostics: [Diagnostic]) {
        var parts = consume input
        var offsets = ClockAligner().offsets(
            files: parts.map {
                let file = files[$0.fileIndex]
                return (file.path, file.format, file.semantics, file.clock, $0.records)
            })
        // Which source's view of a request is the primary one, as each format declares.
        var viewRank: [InputFormat: Int] = [:]
        for part in parts {
            let file = files[part.fileIndex]
            viewRank[file.format] = min(viewRank[file.format] ?? .max, file.semantics.viewPrecedence)
        }
        // A local-time log nothing aligned, beside a file whose own time stamps tell the device's
        // zone (an NSLog console): one device, so the log is in that zone.
        if let zone = parts.lazy.compactMap({ files[$0.fileIndex].deviceZone }).first {
            for p in offsets.indices where offsets[p].unaligned {
                offsets[p].unaligned = false
                offsets[p].offset = Double(-zone)
                offsets[p].inferredZone = zone
                offsets[p].zoneFromConsole = true
            }
        }
        // What the session takes from its parts as a whole, read before their records are let go.
        let sources = Array(Set(parts.map { files[$0.fileIndex].format })).sorted()
        var capabilities: SourceSemantics.Capabilities = parts.reduce(into: []) {
            $0.formUnion(files[$1.fileIndex].semantics.capabilities)
        }
        let playerFormats = Set(
            parts.map { files[$0.fileIndex] }.filter { $0.semantics.capabilities.contains(.playerEvents) }.map(\.format)
        )
        // The reference clock decides how every time of the timeline reads.
        let referenceFormat = ClockAligner.reference(
            parts.map { (files[$0.fileIndex].format, files[$0.fileIndex].semantics, $0.records) })?.format
        let localReference = parts.contains(where: {
            files[$0.fileIndex].format == referenceFormat && files[$0.fileIndex].clock == .deviceLocalZoneUnknown
        })
        let count = parts.reduce(0) { $0 + $1.records.count }
        // One array of entries, in part order (each part in file order), and one of the part
        // each came from: ordered in place below, so the timeline is never copied on its way to
        // the session. The part (4 bytes) stands for the entry's format and source rank until
        // the order is final: a format (16 bytes) and a rank per entry were a tenth of the peak
        // memory of a long dump, held beside its records while the timeline was built.
        var entries: [TimelineEntry] = []
        var partOf: [UInt32] = []
        // The sort key read most, kept apart so that comparing does not touch whole entries.
        var times: [Double] = []
        // Each part's format and source rank, read by the sort's every comparison at equal times:
        // an integer per part, not a lookup by format name (hashing a string per comparison was
        // most of the sort).
        let partFormats = parts.map { files[$0.fileIndex].format }
        let partRanks = partFormats.map { viewRank[$0] ?? .max }
        entries.reserveCapacity(count)
        partOf.reserveCapacity(count)
        times.reserveCapacity(count)
        var unplaced: [Diagnostic] = []
        // A stated zone the requests overruled (enough of them matched at another difference):
        // said, so that nobody reads the file as placed by the zone they gave (probe D).
        for o in offsets where o.clock == .deviceLocalZoneStated && !o.statedZoneKept && abs(o.offset) >= 60 {
            unplaced.append(
                Diagnostic(
                    SourceLocation(file: o.file, line: 0), .warning,
                    "the zone stated with --timezone is \(NumberFormat.trimmed(o.offset / 3600, decimals: 2)) h off for this file: \(o.matches) of its requests matched the UTC sources at that difference, so its times were aligned by them (check the stated zone)"
                ))
        }
        for p in parts.indices {
            // Each part's records are let go once on the timeline (see `correlate`).
            let part = parts[p]
            parts[p].records = []
            let offset = offsets[p].offset
            // Bundle limits keep a session's files far below 2³² (`maxMembers`).
            let partIndex = UInt32(truncatingIfNeeded: p)
            if offsets[p].unaligned {
                // Its times cannot be put on the session's UTC clock, but what its rows count
                // (an access log's stalls, startup, variants) does not need a time: kept, without
                // one, after the timed entries, in file order.
                if let first = part.records.first {
                    unplaced.append(
                        Diagnostic(
                            SourceLocation(file: first.location.file, line: 0), .warning,
                            "\(part.records.count) record\(part.records.count == 1 ? "" : "s") in device local time of an unknown zone, and no request matched the UTC sources: kept without a time, after the timed entries of the session's timeline (state the zone with --timezone)"
                        ))
                }
                for record in part.records {
                    entries.append(TimelineEntry(record: record, time: nil, endTime: nil))
                    partOf.append(partIndex)
                    times.append(.infinity)
                }
                continue
            }
            var carry: Timestamp?
            for record in part.records {
                var time = record.time.map { $0 + offset }
                // An undated event is placed after the one before it (its order is all it has).
                // An undated request is not: a request is dated by its own timing, and a borrowed
                // time made it evidence at another request's moment (probe P: a HAR entry with an
                // unreadable startedDateTime moved a segment-errors finding 14 s early).
                if time == nil {
                    if record.request == nil { time = carry }
                } else {
                    carry = time
                }
                var end = record.request?.end.map { $0 + offset }
                // An access-log row's time is when its span of playing began: it lasted at least
                // the time it watched (the session does not end at the last row's start).
                if end == nil, case .accessLog(let a) = record.payload, let time, let watched = a.durationWatched,
                    watched > 0
                {
                    end = time + watched
                }
                entries.append(TimelineEntry(record: record, time: time, endTime: end ?? time))
                partOf.append(partIndex)
                times.append(time?.secondsSince1970 ?? .infinity)
            }
        }
        // Aligned time first; at equal times the better source; then part and file order, which
        // is the order the entries were appended in.
        var order = Array(entries.indices)
        order.sort { a, b in
            if times[a] != times[b] { return times[a] < times[b] }
            let ra = partRanks[Int(partOf[a])]
            let rb = partRanks[Int(partOf[b])]
            if ra != rb { return ra < rb }
            return a < b
        }
        times = []
        Self.permute(&entries, &partOf, into: order)
        order = []
        var formats = partOf.map { partFormats[Int($0)] }
        partOf = []
        var diagnostics: [Diagnostic] = unplaced
        (entries, formats) = RepeatedRecordFolder.fold(entries, formats, diagnostics: &diagnostics)
        (entries, formats) = AVPlayerAccessLogDumpFolder.fold(entries, formats, diagnostics: &diagnostics)
        (entries, formats) = mergeRequests(entries, formats, viewRank: viewRank)
        (entries, formats) = mergeErrorLogRows(entries, formats)
        // The timeline is final: each entry learns its place (evidence remembers it).
        for i in entries.indices { entries[i].index = i }
        // A source that records every player event proves "no stall" by its silence only when
        // it recorded the player at all: an app chooses which metric events it keeps, and a dump
        // of requests alone (or of event types this tool does not know) says nothing of stalls
        // or fatal errors.
        // One pass for both questions (and none without a source of player events).
        var playerLevel = false
        var stallsRecorded = false
        if capabilities.contains(.playerEvents) {
            for (entry, format) in zip(entries, formats) where playerFormats.contains(format) {
                playerLevel = playerLevel || Self.isPlayerLevel(entry.record)
                stallsRecorded = stallsRecorded || Self.showsStallsRecorded(entry.record)
                if stallsRecorded { break }
            }
            if !playerLevel { capabilities.subtract([.playerEvents, .fatalErrors]) }
        }
        let asset = Self.assetURL(entries)
        let sessionID = fromLogs ? id : Self.derivedID(asset: asset, first: entries.first?.location.file ?? "")
        var session = Session(
            id: sessionID, idIsFromLogs: fromLogs, assetURL: asset, entries: entries, sources: sources,
            clockOffsets: offsets, kpis: KPIs())
        entries = []
        session.capabilities = capabilities
        if capabilities.contains(.playerEvents) { session.stallEventsRecorded = stallsRecorded }
        if localReference { session.timeBasis = .deviceLocalZoneUnknown }
        session.analysis = SessionAnalysis(session)
        session.kpis = KPICalculator().compute(session)
        return (session, diagnostics)
    }

    /// A record of the player's own state that it writes whenever it plays: an event (likely to
    /// keep up, a rate change, a stall, a switch) or its summary. An error event is not one: an
    /// app that keeps requests and errors only has not recorded the player's stalls.
    static func isPlayerLevel(_ record: Record) -> Bool {
        switch record.payload {
        case .player, .summary: return true
        default: return false
        }
    }

    /// A record that shows stalls were being recorded: a stall, a likely-to-keep-up after the
    /// first, a rate change (what starts and ends a stall), or a summary that counts them.
    static func showsStallsRecorded(_ record: Record) -> Bool {
        switch record.payload {
        case .player(let p): return p.kind == .stall || p.kind == .likelyToKeepUp || p.kind == .rateChange
        case .summary(let s): return s.stallCount != nil
        default: return false
        }
    }

    /// Puts `entries[order[k]]` at `k`, for both arrays, in place (following each cycle of the
    /// permutation), so that ordering a timeline needs no second copy of it.
    static func permute<Tag>(_ entries: inout [TimelineEntry], _ formats: inout [Tag], into order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] {
            // Walk the cycle through `start`: each place takes the entry that belongs there.
            var k = start
            while true {
                placed[k] = true
                let from = order[k]
                if from == start { break }
                entries.swapAt(k, from)
                formats.swapAt(k, from)
                k = from
            }
        }
    }

    /// Folds other sources' views of the same request into the best source's entry.
    /// `formats[i]` is the source format of `entries[i]`; both come back in the same shape.
    func mergeRequests(
        _ entries: [TimelineEntry], _ formats: [InputFormat], viewRank: [InputFormat: Int] = [:]
    ) -> ([TimelineEntry], [InputFormat]) {
        // Only views from different sources merge: with one source there is nothing to pair.
        guard let firstFormat = formats.first, formats.contains(where: { $0 != firstFormat }) else {
            return (entries, formats)
        }
        var out: [TimelineEntry] = []
        out.reserveCapacity(entries.count)
        var primaryByKey: [RequestKey: [Int]] = [:]
        // The source format of each entry of `out`, by index.
        var formatOf: [InputFormat] = []
        formatOf.reserveCapacity(entries.count)
        for (entry, format) in zip(entries, formats) {
            guard let r = entry.record.request else {
                out.append(entry)
                formatOf.append(format)
                continue
            }
            let key = RequestKey(url: r.url, range: r.byteRange)
            if let t = entry.time?.secondsSince1970, let candidates = primaryByKey[key],
                let match = Self.recentMatch(
                    candidates, time: t, window: requestMatchWindow, in: out,
                    accepts: { i in
                        formatOf[i] != format && out[i].otherViews.allSatisfy { $0.format != format }
                    })
            {
                if viewRank[format] ?? .max < viewRank[formatOf[match]] ?? .max {
                    // The new view is from a better source: it becomes the primary.
                    var replacement = entry
                    replacement.otherViews = [out[match].record] + out[match].otherViews
                    out[match] = replacement
                    formatOf[match] = format
                } else {
                    out[match].otherViews.append(entry.record)
                }
                continue
            }
            primaryByKey[key, default: []].append(out.count)
            formatOf.append(format)
            out.append(entry)
        }
        return (out, formatOf)
    }

    /// An error-log row that reports a request another source saw fail (same URL, close in time
    /// once clocks are aligned) is one more view of that request, not a second failure.
    /// The error log writes whole seconds, hence the wider window.
    func mergeErrorLogRows(
        _ entries: [TimelineEntry], _ formats: [InputFormat]
    ) -> ([TimelineEntry], [InputFormat]) {
        guard formats.contains(.errorLog), entries.contains(where: { $0.record.request != nil }) else {
            return (entries, formats)
        }
        var failedByKey: [RequestKey: [Int]] = [:]
        for (i, entry) in entries.enumerated() {
            guard let r = entry.record.request else { continue }
            let failed = r.failed || entry.otherViews.contains { $0.request?.failed == true }
            if failed { failedByKey[RequestKey(url: r.url, range: r.byteRange), default: []].append(i) }
        }
        var out = entries
        var folded: Set<Int> = []
        var taken: Set<Int> = []
        for (i, entry) in entries.enumerated() {
            guard case .errorLog(_, let uri) = entry.record.payload, let uri, let t = entry.time?.secondsSince1970,
                let candidates = failedByKey[RequestKey(url: uri, range: nil)]
            else { continue }
            // The nearest failed request not already claimed by another row. Candidates are in
            // time order: start at the window's beginning (binary search) and read a bounded
            // number, so many rows for one URL cannot make this quadratic.
            var best: (index: Int, distance: Double)?
            let from = t - (requestMatchWindow + 1.5)
            var lo = 0
            var hi = candidates.count
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                if (entries[candidates[mid]].time?.secondsSince1970 ?? -.infinity) < from {
                    lo = mid + 1
                } else {
                    hi = mid
                }
            }
            var scanned = 0
            for c in candidates[lo...] {
                scanned += 1
                if scanned > Self.maxMatchCandidates { break }
                if taken.contains(c) { continue }
                guard let tc = entries[c].time?.secondsSince1970 else { continue }
                if tc - t > requestMatchWindow + 1.5 { break }
                let d = abs(tc - t)
                if d <= requestMatchWindow + 1.5, d < (best?.distance ?? .infinity) { best = (c, d) }
            }
            guard let match = best?.index else { continue }
            taken.insert(match)
            folded.insert(i)
            out[match].otherViews.append(entry.record)
        }
        guard !folded.isEmpty else { return (entries, formats) }
        let kept = entries.indices.filter { !folded.contains($0) }
        return (kept.map { out[$0] }, kept.map { formats[$0] })
    }

    /// How many earlier views of the same request key one request is compared with, at most.
    static let maxMatchCandidates = 64

    /// The earliest candidate within the window. Candidates are in time order, so the scan starts
    /// from the newest and stops at the first one older than the window (no quadratic rescans of
    /// URLs requested thousands of times).
    static func recentMatch(
        _ candidates: [Int], time t: Double, window: Double, in out: [TimelineEntry], accepts: (Int) -> Bool
    ) -> Int? {
        var best: Int?
        var k = candidates.count - 1
        // The most recent `maxMatchCandidates` only: thousands of requests for one URL at one
        // instant (a hostile dump) must not make every request rescan all the earlier ones.
        let stop = max(0, candidates.count - maxMatchCandidates)
        while k >= stop {
            let i = candidates[k]
            let ti = out[i].time?.secondsSince1970 ?? -.infinity
            if t - ti > window { break }
            if abs(ti - t) <= window, accepts(i) { best = i }
            k -= 1
        }
        return best
    }

    static func assetURL(_ entries: [TimelineEntry]) -> String? {
        var firstMedia: String?
        var firstAny: String?
        for e in entries {
            switch e.record.payload {
            case .request(let r):
                let url = URLCanonicalizer.canonical(r.url)
                if r.kind == .multivariantPlaylist { return url }
                if r.kind == .mediaPlaylist, firstMedia == nil { firstMedia = url }
                if r.kind == .segment || r.kind == .other, firstAny == nil { firstAny = url }
            case .playlist(let p):
                if p.isMultivariant, let u = p.url { return u }
            case .proxy(let p) where p.kind == .acceptRequest:
                if firstAny == nil { firstAny = p.url }
            default:
                break
            }
        }
        return firstMedia ?? firstAny
    }

    /// A stable identifier for a session whose logs name none: a hash of its asset URL (or file).
    static func derivedID(asset: String?, first: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (asset ?? first).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "derived-" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }
}
