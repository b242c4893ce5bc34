import ForensicsCore

/// Estimates each source file's clock offset against the session's reference clock.
///
/// The reference is the most trustworthy clock present, by the formats' declared
/// `clockPrecedence` (for the built-in formats: metric events, a HAR capture, the proxy log,
/// then the access/error logs in local time to the second); a format that declares none is never
/// the reference.
/// For every other file, what it says about requests is paired with the reference's requests for
/// the same `RequestKey`, and the offset is the median of the pairwise time differences — robust
/// to a few wrong pairs. Offsets are constant per file: events of one source are never reordered
/// relative to each other.
///
/// What pairs with what (each an `Observation.Role`):
/// - a request (metric event, HAR entry, proxy download) with the same request in the reference,
///   the k-th with the k-th;
/// - an access-log row, which starts a period of playing one URI, with the first request for it;
/// - an error-log row with the k-th failed request for its URI (else the first request for it).
struct ClockAligner {
    /// Pairs further apart than this are not the same request: device zones run from UTC−12:00 to
    /// UTC+14:00, so a local-time log can be up to 14 h from UTC, plus a capture machine's skew.
    var maxPairDistance: Double = 15 * 3600
    /// A device-local log aligned against the same device's UTC clock is off by its zone, a whole
    /// number of quarter hours: an estimate this close to one is snapped to it.
    var zoneSnapTolerance: Double = 120
    /// How many matched requests it takes to move a file whose zone the user stated: fewer is a
    /// low-confidence alignment, and the user's statement stands (rules.md).
    var minimumMatchesOverStatedZone = 3

    /// One time a file states about a request.
    struct Observation {
        enum Role {
            /// The request itself started then.
            case request
            /// The local proxy accepted the player's request then (its own download, if any, is
            /// another observation: kept apart so that the k-th pairing stays in step).
            case accepted
            /// A period of playing this URI started then (access-log row).
            case periodStart
            /// The request failed then (error-log row).
            case failure
        }

        var key: RequestKey
        var role: Role
        var time: Double
        var failed: Bool
    }

    func offsets(
        files: [(path: String, format: InputFormat, semantics: SourceSemantics, clock: SourceClock, records: [Record])]
    ) -> [ClockOffset] {
        // Every file of the best format present is on the reference clock (one device's dumps
        // split over several files share its clock).
        guard let reference = Self.reference(files.map { ($0.format, $0.semantics, $0.records) }) else {
            return files.map {
                ClockOffset(file: $0.path, format: $0.format, offset: 0, matches: 0, spread: nil, clock: $0.clock)
            }
        }
        let referenceFormat = reference.format
        let referenceClock = files.first { $0.format == referenceFormat }?.clock ?? .utc
        // Each file's observations are built once. The reference table is needed only when some
        // file is on another clock (a bundle with one metric dump has nothing to align).
        let tables = files.map { Self.observations($0.records) }
        var requests: [RequestKey: [Double]] = [:]
        var failures: [RequestKey: [Double]] = [:]
        var accepted: [RequestKey: [Double]] = [:]
        if files.contains(where: { $0.format != referenceFormat }) {
            for (file, table) in zip(files, tables) where file.format == referenceFormat {
                for o in table {
                    switch o.role {
                    case .request: requests[o.key, default: []].append(o.time)
                    case .accepted: accepted[o.key, default: []].append(o.time)
                    case .periodStart, .failure: break
                    }
                    if o.failed || o.role == .failure { failures[o.key, default: []].append(o.time) }
                }
            }
            // A proxy log as reference: the player's requests it accepted stand for requests it
            // did not have to download (cache hits).
            for (k, v) in accepted where requests[k] == nil { requests[k] = v }
            for k in requests.keys { requests[k]?.sort() }
            for k in failures.keys { failures[k]?.sort() }
        }
        return zip(files, tables).map { file, observations in
            if file.format == referenceFormat {
                var reference = ClockOffset(
                    file: file.path, format: file.format, offset: 0, matches: observations.count, spread: 0,
                    clock: file.clock)
                reference.isReference = true
                return reference
            }
            // A console whose lines carry their zone, beside a dump of the same device's UTC
            // clock, is on that clock already: its error lines are written when the app prints
            // them (often its whole error log at once, seconds later), so pairing them with the
            // failures would move the console by the delay (probe O: −17 s).
            if file.semantics.role == .console, file.clock == .utc, referenceClock == .utc,
                reference.semantics.clock == .deviceUTC
            {
                return ClockOffset(
                    file: file.path, format: file.format, offset: 0, matches: 0, spread: nil, clock: file.clock,
                    sameClockAsReference: true)
            }
            let diffs = pairedDifferences(observations, requests: requests, failures: failures)
            // Two device-local logs of one device share its clock, whatever its zone.
            let sameDevice = file.clock != .utc && file.clock == referenceClock
            guard !diffs.isEmpty else {
                var none = ClockOffset(
                    file: file.path, format: file.format, offset: 0, matches: 0, spread: nil, clock: file.clock,
                    sameClockAsReference: sameDevice)
                // Local times in an unknown zone, a UTC reference, nothing to align by: placing
                // them as if UTC put findings at the wrong hour and stretched sessions by the zone.
                none.unaligned = file.clock == .deviceLocalZoneUnknown && referenceClock != .deviceLocalZoneUnknown
                return none
            }
            var offset = Self.median(diffs)
            let spread = Self.median(diffs.map { abs($0 - offset) })
            if file.clock == .deviceLocalZoneStated, diffs.count < minimumMatchesOverStatedZone {
                var kept = ClockOffset(
                    file: file.path, format: file.format, offset: 0, matches: diffs.count, spread: spread,
                    clock: file.clock)
                kept.statedZoneKept = true
                return kept
            }
            var zone: Int?
            // A local-time log against the device's own UTC clock: the offset is the zone.
            if file.clock == .deviceLocalZoneUnknown, reference.semantics.clock == .deviceUTC {
                let quarter = (offset / 900).rounded() * 900
                if abs(offset - quarter) <= zoneSnapTolerance, abs(quarter) <= 14 * 3600 {
                    offset = quarter
                    // Local = UTC + zone, and offset = UTC − local.
                    zone = Int(-quarter)
                }
            }
            return ClockOffset(
                file: file.path, format: file.format, offset: offset, matches: diffs.count, spread: spread,
                clock: file.clock, inferredZone: zone)
        }
    }

    /// The best clock present with any timed record, by declared precedence (then identifier,
    /// so the choice never depends on file order): its files are the reference clock.
    static func reference(
        _ files: [(format: InputFormat, semantics: SourceSemantics, records: [Record])]
    ) -> (format: InputFormat, semantics: SourceSemantics)? {
        var best: (format: InputFormat, semantics: SourceSemantics, rank: Int)?
        for f in files {
            guard let rank = f.semantics.clockPrecedence, f.records.contains(where: { $0.time != nil }) else {
                continue
            }
            if let b = best, b.rank < rank || (b.rank == rank && b.format <= f.format) { continue }
            best = (f.format, f.semantics, rank)
        }
        return best.map { ($0.format, $0.semantics) }
    }

    /// Reference time minus file time for every pair of observations of the same request.
    func pairedDifferences(
        _ observations: [Observation], requests: [RequestKey: [Double]], failures: [RequestKey: [Double]]
    ) -> [Double] {
        var byKey: [RequestKey: (requests: [Double], accepted: [Double], periods: [Double], failures: [Double])] = [:]
        for o in observations {
            switch o.role {
            case .request: byKey[o.key, default: ([], [], [], [])].requests.append(o.time)
            case .accepted: byKey[o.key, default: ([], [], [], [])].accepted.append(o.time)
            case .periodStart: byKey[o.key, default: ([], [], [], [])].periods.append(o.time)
            case .failure: byKey[o.key, default: ([], [], [], [])].failures.append(o.time)
            }
        }
        var diffs: [Double] = []
        func pair(_ ref: [Double], _ own: [Double]) {
            for (a, b) in zip(ref, own.sorted()) where abs(a - b) < maxPairDistance { diffs.append(a - b) }
        }
        for (key, own) in byKey.sorted(by: { $0.key < $1.key }) {
            guard let ref = requests[key] else { continue }
            pair(ref, own.requests)
            pair(ref, own.accepted)
            // A period of playing a URI starts with its first request.
            if let first = own.periods.min() { pair([ref[0]], [first]) }
            if !own.failures.isEmpty {
                if let failed = failures[key] { pair(failed, own.failures) } else { pair([ref[0]], [own.failures[0]]) }
            }
        }
        return diffs
    }

    /// What each record says about when a request happened.
    static func observations(_ records: [Record]) -> [Observation] {
        var out: [Observation] = []
        for record in records {
            guard let t = record.time?.secondsSince1970 else { continue }
            switch record.payload {
            case .request(let r):
                out.append(
                    Observation(
                        key: RequestKey(url: r.url, range: r.byteRange), role: .request,
                        time: r.start?.secondsSince1970 ?? t, failed: r.failed))
            case .proxy(let p) where p.kind == .downloadRequest || p.kind == .acceptRequest:
                out.append(
                    Observation(
                        key: RequestKey(url: p.url ?? "", range: p.kind == .downloadRequest ? p.range : nil),
                        role: p.kind == .acceptRequest ? .accepted : .request, time: t, failed: false))
            case .accessLog(let a):
                if let uri = a.uri {
                    out.append(
                        Observation(key: RequestKey(url: uri, range: nil), role: .periodStart, time: t, failed: false))
                }
            case .errorLog(_, let uri):
                if let uri {
                    out.append(
                        Observation(key: RequestKey(url: uri, range: nil), role: .failure, time: t, failed: true))
                }
            default:
                break
            }
        }
        return out
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
