import ForensicsCore

/// Maps one metric event, read from its bytes through a `JSONTape`, to records. Unknown keys are
/// ignored; a missing or mistyped key the tool needs becomes a diagnostic on the event's line,
/// never a dropped event.
struct MetricEventMapper {
    let file: String
    var defaultSessionID: String?
    var eventCount = 0
    /// Requests nested in the initial likely-to-keep-up event, added at the end unless the dump
    /// also holds them as top-level events (same type, URL and start time).
    private var nested: [(key: RequestIdentity, record: Record)] = []
    /// The identities of the top-level requests, to be matched against `nested` at the end (kept as
    /// a list: hashing every request's URL is only worth it when a dump has nested requests).
    private var topLevelRequests: [RequestIdentity] = []
    /// Fingerprints of the event lines seen, to drop exact duplicates (a recorder that wrote twice).
    private var seenLines: Set<UInt64> = []
    private var lastDate: Timestamp?
    /// Re-used from event to event: after the first few events, reading one allocates nothing.
    private var tape = JSONTape()
    /// Texts repeated from event to event, shared rather than copied (see `RecentValue`).
    private var recent = MetricRecentValues()
    /// Events are written when they complete, so small inversions are normal (a long request
    /// finishing after a later event); a jump back of more than this is a clock change.
    static let backwardsTolerance = 60.0

    /// What makes a nested request the same as a top-level one.
    struct RequestIdentity: Hashable {
        var type: MetricEventType
        var url: String
        var start: Double
    }

    init(file: String) { self.file = file }

    /// Maps one event; returns true, without mapping, when the line is a whole
    /// `{"events": […]}` batch instead (no `type`, an `events` array) for the caller to read.
    @discardableResult
    mutating func mapLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, into result: inout ParseResult) -> Bool {
        let location = SourceLocation(file: file, line: line)
        // The tape is moved out while its nodes are read, so that mapping may mutate `self`.
        var tape = JSONTape()
        swap(&tape, &self.tape)
        defer { swap(&tape, &self.tape) }
        do {
            try tape.scan(bytes)
        } catch {
            result.diagnose(Diagnostic(location, .error, "not valid JSON: \(Self.short(error))"))
            return false
        }
        let isBatch =
            tape.withRoot(bytes) { value -> Bool in
                guard value.isObject else {
                    result.diagnose(Diagnostic(location, .error, "event is not a JSON object"))
                    return false
                }
                if value["type"] == nil, value["events"]?.isArray == true { return true }
                guard seenLines.insert(ByteFingerprint.of(bytes)).inserted else {
                    result.diagnose(Diagnostic(location, .warning, "duplicate of an earlier event: not counted twice"))
                    return false
                }
                eventCount += 1
                if let d = value["date"].flatMap(MetricValues.date) {
                    if let last = lastDate, last - d > Self.backwardsTolerance {
                        result.diagnose(
                            Diagnostic(
                                location, .warning,
                                "time goes backwards by \(NumberFormat.seconds(last - d)) (device clock changed?)"))
                    }
                    lastDate = d
                }
                map(value, location: location, nested: false, impliedType: nil, impliedSessionID: nil, into: &result)
                return false
            } ?? false
        return isBatch
    }

    static func short(_ error: Error) -> String {
        let text = String(describing: error)
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    /// Maps one event object. A request nested in a likely-to-keep-up event may leave out its
    /// `type` and `sessionID`: the array it is in implies the type, the outer event the session.
    mutating func map(
        _ e: JSONNode, location: SourceLocation, nested: Bool, impliedType: MetricEventType?,
        impliedSessionID: String?, into result: inout ParseResult
    ) {
        let typeNode = e["type"]
        let known: MetricEventType?
        if let typeNode {
            guard typeNode.kind == .string || typeNode.kind == .escapedString else {
                addUntyped(location, into: &result)
                return
            }
            known = MetricEventType(typeNode)
        } else if let impliedType {
            known = impliedType
        } else {
            addUntyped(location, into: &result)
            return
        }
        let explicitSessionID = e["sessionID"]
        var date: Timestamp?
        if let d = e["date"] {
            date = MetricValues.date(d)
            if date == nil, !d.isNull {
                let name = typeNode?.string ?? impliedType?.fullName ?? ""
                result.diagnose(Diagnostic(location, .warning, "\(name): unreadable date"))
            }
        }
        let sessionID: String?
        if let explicitSessionID {
            sessionID = MetricRecentValues.string(explicitSessionID, &recent.sessionID) ?? defaultSessionID
        } else if typeNode == nil, let impliedSessionID {
            sessionID = impliedSessionID
        } else {
            sessionID = defaultSessionID
        }
        func add(_ time: Timestamp?, _ payload: Record.Payload) {
            result.records.append(
                Record(time: time, location: location, format: .metricEvents, sessionID: sessionID, payload: payload))
        }
        // Every event carries a date (metric-event-dump.md): one without is placed after the
        // event before it, so its time — and a stall's duration — is not known.
        if date == nil, e["date"]?.isNull ?? true, let known, !known.isRequest {
            result.diagnose(
                Diagnostic(
                    location, .warning,
                    "\(known.fullName): no date: its time is unknown (placed after the event before it)"))
        }
        guard let type = known else {
            let name = typeNode?.string ?? ""
            result.diagnose(Diagnostic(location, .info, "unknown event type \(name): kept as unknown"))
            add(date, .unknown(name))
            return
        }
        let mediaTime = e["mediaTime"].flatMap(MetricValues.mediaTime)
        var impossibleRates: [String] = []
        defer {
            if !impossibleRates.isEmpty {
                result.diagnose(
                    Diagnostic(
                        location, .warning,
                        "variant bit rates out of range, read as unknown: \(impossibleRates.joined(separator: ", "))"))
            }
        }
        switch type {
        case .playlistRequest, .segmentRequest, .contentKeyRequest, .resourceRequest:
            let request = MetricValues.request(type: type, event: e, date: date, recent: &recent)
            let identity = RequestIdentity(
                type: type, url: request.url, start: request.start?.secondsSince1970 ?? date?.secondsSince1970 ?? 0)
            let record = Record(
                time: request.start ?? date, location: location, format: .metricEvents, sessionID: sessionID,
                payload: .request(request))
            if nested {
                self.nested.append((identity, record))
            } else {
                topLevelRequests.append(identity)
                result.records.append(record)
            }
        case .likelyToKeepUp, .initialLikelyToKeepUp:
            var p = PlayerEvent(
                kind: type == .initialLikelyToKeepUp ? .initialLikelyToKeepUp : .likelyToKeepUp, mediaTime: mediaTime)
            p.variant = e["variant"].flatMap { MetricValues.variant($0, impossible: &impossibleRates) }
            // Seconds to be likely to keep up: at least 0 and under a day, or no measurement.
            if let taken = e["timeTaken"]?.double {
                if taken.isFinite, taken >= 0, taken < 86_400 {
                    p.timeTaken = taken
                } else {
                    result.diagnose(
                        Diagnostic(location, .warning, "timeTaken \(taken) out of range, read as unknown"))
                }
            }
            p.bufferedAhead = MetricValues.bufferedAhead(e["loadedTimeRanges"], mediaTime: mediaTime)
            add(date, .player(p))
            for (requests, implied) in [
                (e["playlistRequestEvents"], MetricEventType.playlistRequest),
                (e["mediaSegmentRequestEvents"], .segmentRequest), (e["contentKeyRequestEvents"], .contentKeyRequest),
            ] {
                for inner in requests?.elements ?? [] {
                    map(
                        inner, location: location, nested: true, impliedType: inner.isObject ? implied : nil,
                        impliedSessionID: sessionID, into: &result)
                }
            }
        case .rateChange, .stall, .seek, .seekDidComplete:
            let kind: PlayerEvent.Kind =
                switch type {
                case .stall: .stall
                case .seek: .seek
                case .seekDidComplete: .seekDidComplete
                default: .rateChange
                }
            var p = PlayerEvent(kind: kind, mediaTime: mediaTime)
            p.rate = e["rate"]?.double
            p.previousRate = e["previousRate"]?.double
            p.variant = e["variant"].flatMap { MetricValues.variant($0, impossible: &impossibleRates) }
            p.didSeekInBuffer = e["didSeekInBuffer"]?.bool
            add(date, .player(p))
        case .variantSwitchStart, .variantSwitch:
            var p = PlayerEvent(
                kind: type == .variantSwitchStart ? .variantSwitchStart : .variantSwitch, mediaTime: mediaTime)
            p.fromVariant = e["fromVariant"].flatMap { MetricValues.variant($0, impossible: &impossibleRates) }
            p.toVariant = e["toVariant"].flatMap { MetricValues.variant($0, impossible: &impossibleRates) }
            p.didSucceed = e["didSucceed"]?.bool
            p.bufferedAhead = MetricValues.bufferedAhead(e["loadedTimeRanges"], mediaTime: mediaTime)
            add(date, .player(p))
        case .playbackSummary, .downloadSummary:
            var s = PlaybackSummary()
            s.isDownloadSummary = type == .downloadSummary
            s.error = e["errorEvent"].flatMap(MetricValues.error)
            // A count or a duration below 0, or a bit rate no network carries, is no measurement:
            // unknown, with a warning (as an access log's impossible values are), never a
            // playing time of -5 s and a rebuffer ratio of 600 % (probe K).
            var impossible: [String] = []
            // A count beyond a million (or one no integer holds) is no count a player makes.
            func count(_ key: StaticString) -> Int? {
                guard let node = e[key], !node.isNull else { return nil }
                guard let v = node.int, v >= 0, v <= 1_000_000 else {
                    impossible.append("\(key) \(node.int.map(String.init) ?? node.double.map { "\($0)" } ?? "?")")
                    return nil
                }
                return v
            }
            func measure(_ key: StaticString, atMost limit: Double) -> Double? {
                guard let v = e[key]?.double else { return nil }
                guard v.isFinite, v >= 0, v <= limit else {
                    impossible.append("\(key) \(v)")
                    return nil
                }
                return v
            }
            let year = 366.0 * 86_400
            // No player streams above 10 Gbit/s.
            let bitRate = 1e10
            s.recoverableErrorCount = count("recoverableErrorCount")
            s.stallCount = count("stallCount")
            s.variantSwitchCount = count("variantSwitchCount")
            s.playbackDuration = measure("playbackDuration", atMost: year)
            s.mediaResourceRequestCount = count("mediaResourceRequestCount")
            s.timeSpentRecoveringFromStall = measure("timeSpentRecoveringFromStall", atMost: year)
            s.timeSpentInInitialStartup = measure("timeSpentInInitialStartup", atMost: year)
            s.timeWeightedAverageBitrate = measure("timeWeightedAverageBitrate", atMost: bitRate)
            s.timeWeightedPeakBitrate = measure("timeWeightedPeakBitrate", atMost: bitRate)
            // Time spent recovering from stalls or starting cannot exceed the playback it is part of.
            if let played = s.playbackDuration {
                if let r = s.timeSpentRecoveringFromStall, r > played + 1 {
                    impossible.append("timeSpentRecoveringFromStall \(r) beyond playbackDuration \(played)")
                    s.timeSpentRecoveringFromStall = nil
                }
            }
            if !impossible.isEmpty {
                result.diagnose(
                    Diagnostic(
                        location, .warning,
                        "summary values out of range, read as unknown: \(impossible.joined(separator: ", "))"))
            }
            add(date, .summary(s))
        case .error:
            if let err = MetricValues.error(e) {
                add(date, .error(err))
            } else {
                result.diagnose(Diagnostic(location, .warning, "error event without \"error\""))
                add(
                    date, .error(ErrorInfo(domain: nil, code: nil, description: nil, didRecover: e["didRecover"]?.bool))
                )
            }
        case .playbackModeSwitch:
            add(
                date,
                .player(PlayerEvent(kind: .playbackModeSwitch, mediaTime: mediaTime, detail: e["playbackMode"]?.string))
            )
        }
    }

    /// An event whose `type` is missing or not a string: kept as unknown.
    private func addUntyped(_ location: SourceLocation, into result: inout ParseResult) {
        result.diagnose(Diagnostic(location, .warning, "event without \"type\": kept as unknown"))
        result.records.append(
            Record(time: nil, location: location, format: .metricEvents, sessionID: nil, payload: .unknown("(no type)"))
        )
    }

    mutating func finish(into result: inout ParseResult) {
        guard !nested.isEmpty else { return }
        var seen = Set(topLevelRequests)
        for (key, record) in nested where seen.insert(key).inserted {
            result.records.append(record)
        }
        nested = []
    }
}
