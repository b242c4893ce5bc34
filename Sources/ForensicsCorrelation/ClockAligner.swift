import ForensicsCore

/// Estimates each source file's clock offset against the session's reference clock.
///
/// The reference is the most trustworthy clock present: metric events (device UTC), then a HAR
/// capture, then the proxy log, then the access/error logs (local time, one-second resolution).
/// For every other file, requests for the same URL (and byte range) are paired with the
/// reference's, and the offset is the median of the pairwise start-time differences — robust to
/// a few wrong pairs. Offsets are constant per file: events of one source are never reordered
/// relative to each other.
struct ClockAligner {
    /// Pairs further apart than this are not the same request.
    var maxPairDistance: Double = 6 * 3600

    static let referencePreference: [InputFormat] = [.metricEvents, .har, .cacheLog, .accessLog, .errorLog, .playlist]

    func offsets(files: [(path: String, format: InputFormat, records: [Record])]) -> [ClockOffset] {
        // Every file of the best format present is on the reference clock (one device's dumps
        // split over several files share its clock).
        guard let referenceFormat = Self.referencePreference.first(where: { format in
            files.contains { $0.format == format && $0.records.contains { $0.time != nil } }
        }) else {
            return files.map { ClockOffset(file: $0.path, format: $0.format, offset: 0, matches: 0, spread: nil) }
        }
        // Each file's request table is built once. The reference table is needed only when some
        // file is on another clock (a bundle with one metric dump has nothing to align).
        let tables = files.map { Self.requestTimes($0.records) }
        var refTimes: [String: [Double]] = [:]
        if files.contains(where: { $0.format != referenceFormat }) {
            for (file, table) in zip(files, tables) where file.format == referenceFormat {
                for (k, v) in table { refTimes[k, default: []].append(contentsOf: v) }
            }
            for k in refTimes.keys { refTimes[k]?.sort() }
        }
        return zip(files, tables).map { file, times in
            if file.format == referenceFormat {
                let own = times.values.reduce(0) { $0 + $1.count }
                return ClockOffset(file: file.path, format: file.format, offset: 0, matches: own, spread: 0)
            }
            var diffs: [Double] = []
            for (key, list) in times {
                guard let refList = refTimes[key] else { continue }
                // Pair the k-th occurrence with the k-th occurrence (same request order per URL).
                for (a, b) in zip(refList, list.sorted()) where abs(a - b) < maxPairDistance { diffs.append(a - b) }
            }
            guard !diffs.isEmpty else {
                return ClockOffset(file: file.path, format: file.format, offset: 0, matches: 0, spread: nil)
            }
            let median = Self.median(diffs)
            let spread = Self.median(diffs.map { abs($0 - median) })
            return ClockOffset(file: file.path, format: file.format, offset: median, matches: diffs.count, spread: spread)
        }
    }

    /// Start times by request key (canonical URL + byte range), in file order.
    static func requestTimes(_ records: [Record]) -> [String: [Double]] {
        var out: [String: [Double]] = [:]
        for record in records {
            guard let t = record.time?.secondsSince1970 else { continue }
            switch record.payload {
            case .request(let r):
                out[key(url: r.url, range: r.byteRange), default: []].append(r.start?.secondsSince1970 ?? t)
            case .proxy(let p) where p.kind == .downloadRequest || p.kind == .acceptRequest:
                out[key(url: p.url ?? "", range: p.kind == .downloadRequest ? p.range : nil) + (p.kind == .acceptRequest ? "#accept" : ""), default: []].append(t)
            case .accessLog(let a):
                if let uri = a.uri { out[key(url: uri, range: nil) + "#first", default: []].append(t) }
            case .errorLog(_, let uri):
                if let uri { out[key(url: uri, range: nil) + "#first", default: []].append(t) }
            default:
                break
            }
        }
        // Access and error logs name a URL once per row: pair them with the first request for it.
        for (k, v) in out where !k.hasSuffix("#first") && !k.hasSuffix("#accept") {
            if out[k + "#first"] == nil { out[k + "#first"] = [v[0]] }
            if out[k + "#accept"] == nil { out[k + "#accept"] = v }
        }
        return out
    }

    static func key(url: String, range: ByteRange?) -> String {
        URLCanonicalizer.withoutQuery(url) + (range.map { "@\($0.offset)" } ?? "")
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
