import ForensicsCore

/// One record as JSON fields — kind, URL, status, timings, bytes, variant, error, source
/// `file:line` — so that a machine finds the 404s by `status`, not by a regular expression on the
/// human summary (which is kept, as `summary`, for people reading the JSON).
///
/// Field names and types are the JSON contract (`Documentation/report-json.md`,
/// `Documentation/playback-forensics.schema.json`); a field the record does not know is `null`,
/// never 0.
package enum RecordJSON {

    /// The record with its own (raw, source-clock) time in `basis`: no `Z` on a device-local
    /// reading of an unknown zone (probe K: `timeline --json` stamped the raw reading as UTC
    /// beside the entry's zone-less time).
    package static func record(_ r: Record, basis: TimeBasis, redactor: Redactor) -> JSONOut {
        let fields = fields(r, redactor: redactor)
        guard basis != .utc, let time = r.time else { return .object(fields) }
        return .object(fields.map { $0.0 == "time" ? ("time", .string(time.iso8601(basis))) : $0 })
    }

    /// The basis of a record's raw time on a session's timeline: the session's, unless the
    /// entry's time was moved off the record's own (an alignment): the raw reading is then the
    /// device's clock, of no stated zone.
    package static func rawBasis(of r: Record, placedAt time: Timestamp?, in session: TimeBasis) -> TimeBasis {
        guard session == .utc else { return session }
        guard let time, let raw = r.time else { return session }
        return time == raw ? .utc : .deviceLocalZoneUnknown
    }

    /// `redactor`: the file's path is the bundle's, not the log's (records are redacted as they
    /// are read), so it is redacted here, as every report's top-level `file` is (review: a path
    /// like `x/token/abc123/…` left through the nested record).
    package static func fields(_ r: Record, redactor: Redactor) -> [(String, JSONOut)] {
        var fields: [(String, JSONOut)] = [
            ("kind", .string(kind(r.payload))),
            ("source", .string(r.format.rawValue)),
            ("file", .string(redactor.redact(r.location.file))),
            ("line", .integer(r.location.line)),
            ("time", .time(r.time)),
            ("session_id", .optional(r.sessionID)),
        ]
        fields.append(contentsOf: payload(r.payload))
        fields.append(("summary", .string(r.summary)))
        return fields
    }

    static func kind(_ p: Record.Payload) -> String {
        switch p {
        case .request: "request"
        case .player: "player-event"
        case .error: "error"
        case .summary: "playback-summary"
        case .accessLog: "access-log-row"
        case .errorLog: "error-log-row"
        case .proxy: "proxy-event"
        case .console: "console-line"
        case .playlist: "playlist"
        case .serverRequest: "server-request"
        case .unknown: "unknown"
        }
    }

    static func payload(_ p: Record.Payload) -> [(String, JSONOut)] {
        switch p {
        case .request(let m):
            return [
                (
                    "request",
                    .object([
                        ("kind", .string(m.kind.rawValue)), ("url", .string(m.url)),
                        ("status", .optional(m.effectiveStatus)),
                        ("start", .time(m.start)), ("end", .time(m.end)), ("duration", .optional(m.duration)),
                        ("bytes", int64(m.bytes)), ("from_cache", bool(m.fromCache)),
                        ("byte_range", range(m.byteRange)),
                        ("content_type", .optional(m.contentType)), ("server_address", .optional(m.serverAddress)),
                        ("playlist_url", .optional(m.playlistURL)), ("error", error(m.error)),
                    ])
                )
            ]
        case .player(let e):
            return [
                (
                    "player_event",
                    .object([
                        ("kind", .string(e.kind.rawValue)), ("media_time", .optional(e.mediaTime)),
                        ("rate", .optional(e.rate)),
                        ("previous_rate", .optional(e.previousRate)), ("variant", variant(e.variant)),
                        ("from_variant", variant(e.fromVariant)), ("to_variant", variant(e.toVariant)),
                        ("time_taken", .optional(e.timeTaken)), ("buffered_ahead", .optional(e.bufferedAhead)),
                        ("did_succeed", bool(e.didSucceed)),
                        ("detail", .optional(e.detail)),
                    ])
                )
            ]
        case .error(let e):
            return [("error", error(e))]
        case .summary(let s):
            return [
                (
                    "playback_summary",
                    .object([
                        ("stall_count", .optional(s.stallCount)),
                        ("variant_switch_count", .optional(s.variantSwitchCount)),
                        ("recoverable_error_count", .optional(s.recoverableErrorCount)),
                        ("playback_duration", .optional(s.playbackDuration)),
                        ("time_spent_in_initial_startup", .optional(s.timeSpentInInitialStartup)),
                        ("time_spent_recovering_from_stall", .optional(s.timeSpentRecoveringFromStall)),
                        ("error", error(s.error)),
                    ])
                )
            ]
        case .accessLog(let a):
            return [
                (
                    "access_log_row",
                    .object([
                        ("uri", .optional(a.uri)), ("server_address", .optional(a.serverAddress)),
                        ("stalls", .optional(a.stalls)),
                        ("duration_watched", .optional(a.durationWatched)), ("startup_time", .optional(a.startupTime)),
                        ("bytes", int64(a.bytesTransferred)), ("observed_bitrate", .optional(a.observedBitrate)),
                        ("indicated_bitrate", .optional(a.indicatedBitrate)),
                        ("switch_bitrate", .optional(a.switchBitrate)),
                        ("dropped_frames", .optional(a.droppedFrames)), ("playback_type", .optional(a.playbackType)),
                    ])
                )
            ]
        case .errorLog(let e, let uri):
            return [("error_log_row", .object([("uri", .optional(uri)), ("error", error(e))]))]
        case .proxy(let e):
            return [
                (
                    "proxy_event",
                    .object([
                        ("kind", .string(e.kind.rawValue)), ("tag", .string(e.tag)), ("url", .optional(e.url)),
                        ("status", .optional(e.status)), ("content_type", .optional(e.contentType)),
                        ("content_length", int64(e.contentLength)), ("byte_range", range(e.range)),
                        ("error", error(e.error)),
                        ("message", .string(e.message)),
                        ("folded_entries", .optional(e.foldedEntries > 0 ? e.foldedEntries : nil)),
                        ("folded_through_line", .optional(e.foldedThroughLine)),
                    ])
                )
            ]
        case .console(let c):
            return [
                (
                    "console_line",
                    .object([
                        ("origin", .string(c.origin)), ("component", .string(c.component.rawValue)),
                        ("library", .optional(c.library)), ("text", .string(c.text)), ("error", error(c.error)),
                        ("level", .optional(c.level)), ("subsystem", .optional(c.subsystem)),
                        ("category", .optional(c.category)), ("topic", .optional(c.topic?.rawValue)),
                        ("ends_playback", .bool(c.endsPlayback)),
                    ])
                )
            ]
        case .playlist(let p):
            return [
                (
                    "playlist",
                    .object([
                        ("url", .optional(p.url)), ("multivariant", .bool(p.isMultivariant)),
                        ("variants", .array(p.variants.map { variant($0) })),
                        ("segment_count", .integer(p.segmentCount)),
                        ("target_duration", .optional(p.targetDuration)), ("end_list", .bool(p.endList)),
                    ])
                )
            ]
        case .serverRequest(let s):
            return [("server_request", serverRequest(s))]
        case .unknown(let t):
            return [("text", .string(t))]
        }
    }

    /// A server row: what the CDN partner asks for first (its request id, the POP), the join's
    /// facts, and the raw line as it is in the file (redacted).
    static func serverRequest(_ s: ServerRequest) -> JSONOut {
        .object([
            ("request_id", .optional(s.requestID)), ("pop", .optional(s.pop)), ("tier", .string(s.tier.rawValue)),
            ("method", .optional(s.method)), ("host", .optional(s.host)), ("path", .string(s.path)),
            ("query", .optional(s.query)), ("byte_range", range(s.byteRange)), ("status", .optional(s.status)),
            ("bytes", int64(s.bytes)), ("start", .time(s.start)), ("end", .time(s.end)),
            ("anchor_known", .bool(s.anchorKnown)), ("resolution", .number(s.resolution)),
            ("cache_result", .string(s.cacheResult.rawValue)), ("cache_result_raw", .optional(s.cacheResultRaw)),
            ("first_byte", .optional(s.firstByte)), ("last_byte", .optional(s.lastByte)),
            ("origin_first_byte", .optional(s.originFirstByte)), ("origin_status", .optional(s.originStatus)),
            ("detail", .optional(s.detail)), ("client_ip", .optional(s.clientIP)),
            ("user_agent", .optional(s.userAgent)), ("session_header", .optional(s.sessionHeader)),
            ("cmcd", .object(s.cmcd.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("client_closed", .bool(s.clientClosed)), ("client_aborted", .bool(s.clientAborted)),
            ("raw", .string(s.raw)),
        ])
    }

    static func error(_ e: ErrorInfo?) -> JSONOut {
        guard let e else { return .null }
        return .object([
            ("domain", .optional(e.domain)), ("code", .optional(e.code)), ("description", .optional(e.description)),
            ("http_status", .optional(e.httpStatus)), ("did_recover", bool(e.didRecover)),
        ])
    }

    static func variant(_ v: Variant?) -> JSONOut {
        guard let v else { return .null }
        return .object([
            ("peak_bit_rate", .optional(v.peakBitRate)), ("average_bit_rate", .optional(v.averageBitRate)),
            ("url", .optional(v.url)),
        ])
    }

    static func range(_ r: ByteRange?) -> JSONOut {
        guard let r else { return .null }
        return .object([("offset", int64(r.offset)), ("length", int64(r.length))])
    }

    /// Int64 values beyond Int's range cannot occur on 64-bit platforms; on others they print as text.
    static func int64(_ v: Int64?) -> JSONOut {
        guard let v else { return .null }
        if let i = Int(exactly: v) { return .integer(i) }
        return .string(String(v))
    }

    static func bool(_ b: Bool?) -> JSONOut { b.map { .bool($0) } ?? .null }
}

extension JSONOut {
    /// One line, no spaces: a JSON Lines record.
    package func renderLine() -> String {
        var out: [UInt8] = []
        writeCompact(into: &out)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    func writeCompact(into out: inout [UInt8]) {
        switch self {
        case .object(let pairs):
            out.append(0x7B)
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out.append(0x2C) }
                JSONOut.appendQuoted(k, to: &out)
                out.append(0x3A)
                v.writeCompact(into: &out)
            }
            out.append(0x7D)
        case .array(let items):
            out.append(0x5B)
            for (i, v) in items.enumerated() {
                if i > 0 { out.append(0x2C) }
                v.writeCompact(into: &out)
            }
            out.append(0x5D)
        default:
            write(into: &out, indent: 0)
        }
    }
}
