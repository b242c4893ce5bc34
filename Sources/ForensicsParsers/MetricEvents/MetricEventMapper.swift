import ForensicsCore

/// Maps one decoded metric event to records. Unknown keys are ignored; a missing or mistyped key
/// the tool needs becomes a diagnostic on the event's line, never a dropped event.
struct MetricEventMapper {
    let file: String
    var defaultSessionID: String?
    var eventCount = 0
    /// Requests nested in the initial likely-to-keep-up event, added at the end unless the dump
    /// also holds them as top-level events (same type, URL and start time).
    private var nested: [(key: String, record: Record)] = []
    private var seenRequestKeys: Set<String> = []
    /// Fingerprints of the event lines seen, to drop exact duplicates (a recorder that wrote twice).
    private var seenLines: Set<UInt64> = []
    private var lastDate: Timestamp?
    private let keyCache = JSONKeyCache()
    /// Events are written when they complete, so small inversions are normal (a long request
    /// finishing after a later event); a jump back of more than this is a clock change.
    static let backwardsTolerance = 60.0

    init(file: String) { self.file = file }

    /// Maps one event; returns true, without mapping, when the line is a whole
    /// `{"events": […]}` batch instead (no `type`, an `events` array) for the caller to read.
    @discardableResult
    mutating func mapLine(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, into result: inout ParseResult) -> Bool {
        let location = SourceLocation(file: file, line: line)
        let value: JSONValue
        do {
            value = try JSONByteParser.parse(bytes, keys: keyCache)
        } catch {
            result.diagnose(Diagnostic(location, .error, "not valid JSON: \(Self.short(error))"))
            return false
        }
        guard case .object = value else {
            result.diagnose(Diagnostic(location, .error, "event is not a JSON object"))
            return false
        }
        if value["type"] == nil, case .array? = value["events"] { return true }
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
        map(value, location: location, nestedIn: nil, into: &result)
        return false
    }

    static func short(_ error: Error) -> String {
        let text = String(describing: error)
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    mutating func map(_ e: JSONValue, location: SourceLocation, nestedIn: String?, into result: inout ParseResult) {
        guard let type = e["type"]?.string else {
            result.diagnose(Diagnostic(location, .warning, "event without \"type\": kept as unknown"))
            result.records.append(
                Record(
                    time: nil, location: location, format: .metricEvents, sessionID: nil, payload: .unknown("(no type)")
                ))
            return
        }
        var date: Timestamp?
        if let d = e["date"] {
            date = MetricValues.date(d)
            if date == nil, !d.isNull {
                result.diagnose(Diagnostic(location, .warning, "\(type): unreadable date"))
            }
        }
        let sessionID = e["sessionID"]?.string ?? defaultSessionID
        let mediaTime = e["mediaTime"].flatMap(MetricValues.mediaTime)
        func add(_ time: Timestamp?, _ payload: Record.Payload) {
            result.records.append(
                Record(time: time, location: location, format: .metricEvents, sessionID: sessionID, payload: payload))
        }
        let shortType = type.hasPrefix("AVMetric") ? String(type.dropFirst(8)) : type
        switch shortType {
        case "HLSPlaylistRequestEvent", "HLSMediaSegmentRequestEvent", "ContentKeyRequestEvent",
            "MediaResourceRequestEvent":
            let request = MetricValues.request(type: shortType, event: e, date: date)
            let key = "\(shortType)|\(request.url)|\(request.start?.secondsSince1970 ?? date?.secondsSince1970 ?? 0)"
            let record = Record(
                time: request.start ?? date, location: location, format: .metricEvents, sessionID: sessionID,
                payload: .request(request))
            if nestedIn != nil {
                nested.append((key, record))
            } else {
                seenRequestKeys.insert(key)
                result.records.append(record)
            }
        case "PlayerItemLikelyToKeepUpEvent", "PlayerItemInitialLikelyToKeepUpEvent":
            var p = PlayerEvent(
                kind: shortType.contains("Initial") ? .initialLikelyToKeepUp : .likelyToKeepUp, mediaTime: mediaTime)
            p.variant = e["variant"].flatMap(MetricValues.variant)
            p.timeTaken = e["timeTaken"]?.double
            add(date, .player(p))
            for key in ["playlistRequestEvents", "mediaSegmentRequestEvents", "contentKeyRequestEvents"] {
                for inner in e[key]?.array ?? [] {
                    var innerEvent = inner
                    if inner["type"] == nil, case .object(var o) = inner {
                        o["type"] = .string(
                            key == "playlistRequestEvents"
                                ? "AVMetricHLSPlaylistRequestEvent"
                                : key == "mediaSegmentRequestEvents"
                                    ? "AVMetricHLSMediaSegmentRequestEvent"
                                    : "AVMetricContentKeyRequestEvent")
                        if o["sessionID"] == nil, let sessionID { o["sessionID"] = .string(sessionID) }
                        innerEvent = .object(o)
                    }
                    map(innerEvent, location: location, nestedIn: type, into: &result)
                }
            }
        case "PlayerItemRateChangeEvent", "PlayerItemStallEvent", "PlayerItemSeekEvent",
            "PlayerItemSeekDidCompleteEvent":
            let kind: PlayerEvent.Kind =
                switch shortType {
                case "PlayerItemStallEvent": .stall
                case "PlayerItemSeekEvent": .seek
                case "PlayerItemSeekDidCompleteEvent": .seekDidComplete
                default: .rateChange
                }
            var p = PlayerEvent(kind: kind, mediaTime: mediaTime)
            p.rate = e["rate"]?.double
            p.previousRate = e["previousRate"]?.double
            p.variant = e["variant"].flatMap(MetricValues.variant)
            p.didSeekInBuffer = e["didSeekInBuffer"]?.bool
            add(date, .player(p))
        case "PlayerItemVariantSwitchStartEvent", "PlayerItemVariantSwitchEvent":
            var p = PlayerEvent(
                kind: shortType.contains("Start") ? .variantSwitchStart : .variantSwitch, mediaTime: mediaTime)
            p.fromVariant = e["fromVariant"].flatMap(MetricValues.variant)
            p.toVariant = e["toVariant"].flatMap(MetricValues.variant)
            p.didSucceed = e["didSucceed"]?.bool
            add(date, .player(p))
        case "PlayerItemPlaybackSummaryEvent", "DownloadSummaryEvent":
            var s = PlaybackSummary()
            s.error = e["errorEvent"].flatMap(MetricValues.error)
            s.recoverableErrorCount = e["recoverableErrorCount"]?.int
            s.stallCount = e["stallCount"]?.int
            s.variantSwitchCount = e["variantSwitchCount"]?.int
            s.playbackDuration = e["playbackDuration"]?.double
            s.mediaResourceRequestCount = e["mediaResourceRequestCount"]?.int
            s.timeSpentRecoveringFromStall = e["timeSpentRecoveringFromStall"]?.double
            s.timeSpentInInitialStartup = e["timeSpentInInitialStartup"]?.double
            s.timeWeightedAverageBitrate = e["timeWeightedAverageBitrate"]?.double
            s.timeWeightedPeakBitrate = e["timeWeightedPeakBitrate"]?.double
            add(date, .summary(s))
        case "ErrorEvent":
            if let err = MetricValues.error(e) {
                add(date, .error(err))
            } else {
                result.diagnose(Diagnostic(location, .warning, "error event without \"error\""))
                add(
                    date, .error(ErrorInfo(domain: nil, code: nil, description: nil, didRecover: e["didRecover"]?.bool))
                )
            }
        case "PlaybackModeSwitchEvent":
            add(
                date,
                .player(PlayerEvent(kind: .playbackModeSwitch, mediaTime: mediaTime, detail: e["playbackMode"]?.string))
            )
        default:
            result.diagnose(Diagnostic(location, .info, "unknown event type \(type): kept as unknown"))
            add(date, .unknown(type))
        }
    }

    mutating func finish(into result: inout ParseResult) {
        for (key, record) in nested where !seenRequestKeys.contains(key) {
            seenRequestKeys.insert(key)
            result.records.append(record)
        }
        nested = []
    }
}
