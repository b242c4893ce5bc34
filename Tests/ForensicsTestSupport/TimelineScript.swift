import ForensicsCore
import ForensicsRules
import Foundation

/// The compact timeline language of rule examples, compiled line for line into a metric-event
/// dump (JSON Lines), so that examples go through the real parser and correlator and keep their
/// line numbers (blank and `#` comment lines compile to blank lines).
///
/// One event per line, `SECONDS VERB ARGS…`, times relative to 2026-11-21T10:00:00Z:
/// ```
/// 0.000 play                                        rate change 0 → 1
/// 0.020 multivariant https://h/master.m3u8 200 0.10  playlist request: status, duration
/// 0.150 playlist https://h/v1/index.m3u8 200 0.05 bytes=9000 encoding=gzip   (`headers=none`: not recorded)
/// 0.190 key https://keys/fps 200 1.47               content-key request
/// 1.700 segment https://h/v1/s1.ts 200 0.2 dur=6 bytes=1500000
/// 1.920 initial-ltku variant=20M                    likely-to-keep-up (also `ltku`)
/// 1.920 ltku variant=20M media=30 buffer=12          with 12 s loaded ahead of media time 30 s
/// 7.000 stall | seek | seek-done | pause | rate 0.5
/// 9.000 switch 20M -> 15M   (`switch-start`, `failed`)
/// 9.500 error -12938 "HTTP 404: File Not Found" recovered|fatal
/// 20.00 summary stalls=1 switches=2 duration=600 twab=14800000 recovering=4.5
/// ```
/// A status `-` means no response (the request failed); `error=CODE` attaches a transport error;
/// `rh.NAME=VALUE` records a response header (`rh.x-amz-cf-id=…`, a CDN's request id).
package enum TimelineScript {
    package static let baseTime = RuleExample.baseTime
    package static let sessionID = "EXAMPLE-SESSION"

    package static func compile(_ script: String, sessionID: String = TimelineScript.sessionID) -> String {
        var out: [String] = []
        for raw in script.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") {
                out.append("")
                continue
            }
            out.append(compileLine(line, sessionID: sessionID) ?? line)
        }
        return out.joined(separator: "\n") + "\n"
    }

    static func date(_ seconds: Double) -> String { Timestamp(baseTime + seconds).iso8601 }

    static func bandwidth(_ text: Substring) -> Double? {
        let lower = text.lowercased()
        if lower.hasSuffix("m"), let v = Double(lower.dropLast()) { return v * 1_000_000 }
        if lower.hasSuffix("k"), let v = Double(lower.dropLast()) { return v * 1000 }
        return Double(lower)
    }

    static func json(_ s: String) -> String { RuleExample.jsonString(s) }

    static func tokens(_ line: String) -> [Substring] {
        var out: [Substring] = []
        var i = line.startIndex
        while i < line.endIndex {
            while i < line.endIndex, line[i] == " " { i = line.index(after: i) }
            guard i < line.endIndex else { break }
            if line[i] == "\"" {
                let start = line.index(after: i)
                let end = line[start...].firstIndex(of: "\"") ?? line.endIndex
                out.append(line[start..<end])
                i = end < line.endIndex ? line.index(after: end) : end
            } else {
                let end = line[i...].firstIndex(of: " ") ?? line.endIndex
                out.append(line[i..<end])
                i = end
            }
        }
        return out
    }

    static func compileLine(_ line: String, sessionID: String) -> String? {
        let t = tokens(line)
        guard t.count >= 2, let time = Double(t[0]) else { return nil }
        let verb = t[1]
        let args = Array(t.dropFirst(2))
        var options: [String: String] = [:]
        var flags: Set<String> = []
        for a in args {
            if let eq = a.firstIndex(of: "=") {
                options[String(a[..<eq])] = String(a[a.index(after: eq)...])
            } else {
                flags.insert(String(a))
            }
        }
        let common = "\"date\":\(json(date(time))),\"sessionID\":\(json(sessionID))"
        // `media=M buffer=S`: the play head at M s with S s loaded ahead of it.
        var loaded = ""
        if let m = options["media"].flatMap(Double.init), let b = options["buffer"].flatMap(Double.init) {
            loaded =
                ",\"mediaTime\":\(m),\"loadedTimeRanges\":[{\"start\":\(max(0, m - 2)),\"duration\":\(b + min(m, 2))}]"
        }
        func variant(_ v: Substring?) -> String {
            guard let v, let b = bandwidth(v), b.isFinite, abs(b) < 1e15 else { return "null" }
            return "{\"peakBitRate\":\(Int(b)),\"averageBitRate\":\(Int(b * 0.9))}"
        }
        switch verb {
        case "play", "pause", "rate":
            let rate = verb == "play" ? 1.0 : verb == "pause" ? 0.0 : (args.first.flatMap { Double($0) } ?? 1)
            let previous = verb == "play" ? 0.0 : 1.0
            return
                "{\"type\":\"AVMetricPlayerItemRateChangeEvent\",\(common),\"rate\":\(rate),\"previousRate\":\(previous)}"
        case "stall":
            return "{\"type\":\"AVMetricPlayerItemStallEvent\",\(common),\"rate\":0,\"previousRate\":1}"
        case "seek":
            return "{\"type\":\"AVMetricPlayerItemSeekEvent\",\(common),\"rate\":0,\"previousRate\":1}"
        case "seek-done":
            return
                "{\"type\":\"AVMetricPlayerItemSeekDidCompleteEvent\",\(common),\"rate\":1,\"previousRate\":0,\"didSeekInBuffer\":\(flags.contains("inbuffer"))}"
        case "ltku", "initial-ltku":
            let type =
                verb == "ltku"
                ? "AVMetricPlayerItemLikelyToKeepUpEvent" : "AVMetricPlayerItemInitialLikelyToKeepUpEvent"
            let taken = options["taken"].map { ",\"timeTaken\":\($0)" } ?? ""
            return
                "{\"type\":\"\(type)\",\(common),\"variant\":\(variant(options["variant"].map { Substring($0) }))\(taken)\(loaded)}"
        case "switch", "switch-start":
            guard args.count >= 3 else { return nil }
            let type =
                verb == "switch" ? "AVMetricPlayerItemVariantSwitchEvent" : "AVMetricPlayerItemVariantSwitchStartEvent"
            let succeeded = verb == "switch" ? ",\"didSucceed\":\(!flags.contains("failed"))" : ""
            return
                "{\"type\":\"\(type)\",\(common),\"fromVariant\":\(variant(args[0])),\"toVariant\":\(variant(args[2]))\(succeeded)\(loaded)}"
        case "error":
            let code = args.first.flatMap { Int($0) } ?? 0
            let text = args.count > 1 ? String(args[1]) : ""
            let domain = options["domain"] ?? "CoreMediaErrorDomain"
            return
                "{\"type\":\"AVMetricErrorEvent\",\(common),\"didRecover\":\(!flags.contains("fatal")),\"error\":{\"domain\":\(json(domain)),\"code\":\(code),\"localizedDescription\":\(json(text))}}"
        case "summary":
            var fields: [String] = []
            if let v = options["stalls"] { fields.append("\"stallCount\":\(v)") }
            if let v = options["switches"] { fields.append("\"variantSwitchCount\":\(v)") }
            if let v = options["duration"] { fields.append("\"playbackDuration\":\(v)") }
            if let v = options["twab"] { fields.append("\"timeWeightedAverageBitrate\":\(v)") }
            if let v = options["startup"] { fields.append("\"timeSpentInInitialStartup\":\(v)") }
            if let v = options["recovering"] { fields.append("\"timeSpentRecoveringFromStall\":\(v)") }
            if flags.contains("fatal") {
                fields.append(
                    "\"errorEvent\":{\"didRecover\":false,\"error\":{\"domain\":\"CoreMediaErrorDomain\",\"code\":-12938,\"localizedDescription\":\"HTTP 404: File Not Found\"}}"
                )
            }
            return
                "{\"type\":\"AVMetricPlayerItemPlaybackSummaryEvent\",\(common)\(fields.isEmpty ? "" : "," + fields.joined(separator: ","))}"
        case "multivariant", "playlist", "key", "segment", "map", "resource":
            guard let url = args.first else { return nil }
            let status = args.count > 1 ? Int(args[1]) : nil
            let duration = args.count > 2 ? (Double(args[2]) ?? 0.05) : 0.05
            var headers: [String] = []
            if let enc = options["encoding"] { headers.append("\"Content-Encoding\":\(json(enc))") }
            if let ct = options["type"] { headers.append("\"Content-Type\":\(json(ct))") }
            // A response with a body has a length header; `headers=none` leaves the headers unrecorded.
            if let bytes = options["bytes"] { headers.append("\"Content-Length\":\(json(bytes))") }
            // `rh.NAME=VALUE`: a response header as recorded (a CDN's request id: `rh.x-amz-cf-id=…`).
            for (name, value) in options.sorted(by: { $0.key < $1.key }) where name.hasPrefix("rh.") {
                headers.append("\(json(String(name.dropFirst(3)))):\(json(value))")
            }
            let headerField = options["headers"] == "none" ? "" : ",\"headers\":{\(headers.joined(separator: ","))}"
            var transaction = "{\"response\":{\"statusCode\":\(status ?? 0)\(headerField)}"
            if let bytes = options["bytes"] { transaction += ",\"countOfResponseBodyBytesReceived\":\(bytes)" }
            transaction += "}"
            var resource =
                "\"url\":\(json(String(url))),\"requestStartTime\":\(json(date(time))),\"responseEndTime\":\(json(date(time + duration)))"
            if status != nil { resource += ",\"networkTransactionMetrics\":{\"transactionMetrics\":[\(transaction)]}" }
            resource += ",\"readFromCache\":\(flags.contains("cache"))"
            if status == nil || options["error"] != nil {
                let code = options["error"].flatMap { Int($0) } ?? -1001
                resource +=
                    ",\"errorEvent\":{\"didRecover\":true,\"error\":{\"domain\":\"NSURLErrorDomain\",\"code\":\(code),\"localizedDescription\":\"The request failed\"}}"
            }
            let endCommon = "\"date\":\(json(date(time + duration))),\"sessionID\":\(json(sessionID))"
            switch verb {
            case "multivariant", "playlist":
                return
                    "{\"type\":\"AVMetricHLSPlaylistRequestEvent\",\(endCommon),\"url\":\(json(String(url))),\"isMultivariantPlaylist\":\(verb == "multivariant"),\"mediaType\":\"vide\",\"mediaResourceRequestEvent\":{\(resource)}}"
            case "key":
                return
                    "{\"type\":\"AVMetricContentKeyRequestEvent\",\(endCommon),\"contentKeySpecifier\":{\"keySystem\":\"FairPlayStreaming\",\"identifier\":\"skd://key\"},\"mediaType\":\"vide\",\"isClientInitiated\":false,\"mediaResourceRequestEvent\":{\(resource)}}"
            case "segment", "map":
                let dur = options["dur"].map { ",\"segmentDuration\":\($0)" } ?? ""
                let index = options["variant"].map { ",\"indexFileURL\":\(json($0))" } ?? ""
                return
                    "{\"type\":\"AVMetricHLSMediaSegmentRequestEvent\",\(endCommon),\"url\":\(json(String(url))),\"isMapSegment\":\(verb == "map"),\"mediaType\":\"vide\"\(dur)\(index),\"mediaResourceRequestEvent\":{\(resource)}}"
            default:
                return "{\"type\":\"AVMetricMediaResourceRequestEvent\",\(endCommon),\(resource)}"
            }
        default:
            return nil
        }
    }
}
