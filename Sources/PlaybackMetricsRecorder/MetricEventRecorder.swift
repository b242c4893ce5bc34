// The app-side half of the metric-event dump contract (shared/spec/metric-event-dump.md):
// subscribe to an AVPlayerItem's AVMetrics events and write one JSON object per line.
// Compiled only where AVFoundation exists; on Linux this module is empty.
#if canImport(AVFoundation)
import AVFoundation
import Foundation

/// Writes every metric event of a player item as JSON Lines to `url`, in the format
/// PlaybackForensics reads. Usage:
///
/// ```swift
/// let recorder = MetricEventRecorder(item: playerItem, url: documents.appending(path: "metrics.jsonl"))
/// recorder.start()   // …later: recorder.stop()
/// ```
@available(iOS 18.0, tvOS 18.0, macOS 15.0, visionOS 2.0, *)
public final class MetricEventRecorder: @unchecked Sendable {
    private let item: AVPlayerItem
    private let handle: FileHandle?
    private var task: Task<Void, Never>?
    private let queue = DispatchQueue(label: "MetricEventRecorder")

    public init(item: AVPlayerItem, url: URL) {
        self.item = item
        FileManager.default.createFile(atPath: url.path, contents: nil)
        self.handle = try? FileHandle(forWritingTo: url)
    }

    deinit { stop() }

    public func start() {
        let item = self.item
        task = Task { [weak self] in
            for await event in item.allMetrics() {
                self?.write(event)
            }
        }
    }

    public func stop() {
        task?.cancel()
        task = nil
        queue.sync { try? handle?.synchronize() }
    }

    private func write(_ event: AVMetricEvent) {
        var object = MetricEventEncoding.common(event)
        MetricEventEncoding.addSpecific(event, to: &object)
        guard JSONSerialization.isValidJSONObject(object),
            var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return }
        data.append(0x0A)
        queue.async { [handle] in try? handle?.write(contentsOf: data) }
    }
}

/// Event → JSON object, by the spec's table. Subclasses are tested before their superclasses.
@available(iOS 18.0, tvOS 18.0, macOS 15.0, visionOS 2.0, *)
enum MetricEventEncoding {
    static let iso: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()

    static func date(_ d: Date?) -> Any { d.map { iso.string(from: $0) } ?? NSNull() }

    static func time(_ t: CMTime) -> Any {
        guard t.isValid, t.isNumeric else { return NSNull() }
        return ["value": t.value, "timescale": t.timescale, "flags": t.flags.rawValue, "epoch": t.epoch]
    }

    static func common(_ e: AVMetricEvent) -> [String: Any] {
        [
            "type": String(describing: type(of: e)), "date": date(e.date), "mediaTime": time(e.mediaTime),
            "sessionID": e.sessionID ?? NSNull(),
        ]
    }

    static func variant(_ v: AVAssetVariant?) -> Any {
        guard let v else { return NSNull() }
        var o: [String: Any] = [:]
        if let p = v.peakBitRate { o["peakBitRate"] = p }
        if let a = v.averageBitRate { o["averageBitRate"] = a }
        return o
    }

    static func error(_ e: AVMetricErrorEvent?) -> Any {
        guard let e else { return NSNull() }
        let ns = e.error as NSError
        return [
            "didRecover": e.didRecover,
            "error": ["domain": ns.domain, "code": ns.code, "localizedDescription": ns.localizedDescription],
        ]
    }

    static func resource(_ r: AVMetricMediaResourceRequestEvent?) -> Any {
        guard let r else { return NSNull() }
        var o: [String: Any] = [
            "url": r.url?.absoluteString ?? NSNull(), "serverAddress": r.serverAddress ?? NSNull(),
            "requestStartTime": date(r.requestStartTime), "requestEndTime": date(r.requestEndTime),
            "responseStartTime": date(r.responseStartTime), "responseEndTime": date(r.responseEndTime),
            "byteRange": ["location": r.byteRange.location, "length": r.byteRange.length],
            "wasReadFromCache": r.wasReadFromCache, "errorEvent": error(r.errorEvent),
        ]
        if let m = r.networkTransactionMetrics {
            o["networkTransactionMetrics"] = [
                "redirectCount": m.redirectCount,
                "transactionMetrics": m.transactionMetrics.map { t -> [String: Any] in
                    let status = (t.response as? HTTPURLResponse)?.statusCode
                    return [
                        "response": ["statusCode": status ?? NSNull()],
                        "requestStartDate": date(t.requestStartDate), "responseEndDate": date(t.responseEndDate),
                        "countOfResponseBodyBytesReceived": t.countOfResponseBodyBytesReceived,
                    ]
                },
            ]
        }
        return o
    }

    static func addSpecific(_ e: AVMetricEvent, to o: inout [String: Any]) {
        switch e {
        case let x as AVMetricHLSPlaylistRequestEvent:
            o["url"] = x.url?.absoluteString ?? NSNull()
            o["isMultivariantPlaylist"] = x.isMultivariantPlaylist
            o["mediaType"] = x.mediaType.rawValue
            o["mediaResourceRequestEvent"] = resource(x.mediaResourceRequestEvent)
        case let x as AVMetricHLSMediaSegmentRequestEvent:
            o["url"] = x.url?.absoluteString ?? NSNull()
            o["isMapSegment"] = x.isMapSegment
            o["mediaType"] = x.mediaType.rawValue
            o["byteRange"] = ["location": x.byteRange.location, "length": x.byteRange.length]
            o["indexFileURL"] = x.indexFileURL.absoluteString
            o["segmentDuration"] = x.segmentDuration
            o["mediaResourceRequestEvent"] = resource(x.mediaResourceRequestEvent)
        case let x as AVMetricContentKeyRequestEvent:
            o["mediaType"] = x.mediaType.rawValue
            o["isClientInitiated"] = x.isClientInitiated
            o["mediaResourceRequestEvent"] = resource(x.mediaResourceRequestEvent)
        case let x as AVMetricPlayerItemInitialLikelyToKeepUpEvent:
            o["variant"] = variant(x.variant)
            o["timeTaken"] = x.timeTaken
        case let x as AVMetricPlayerItemLikelyToKeepUpEvent:
            o["variant"] = variant(x.variant)
            o["timeTaken"] = x.timeTaken
        case let x as AVMetricPlayerItemSeekDidCompleteEvent:
            o["rate"] = x.rate
            o["previousRate"] = x.previousRate
            o["didSeekInBuffer"] = x.didSeekInBuffer
        case let x as AVMetricPlayerItemRateChangeEvent:  // also stall and seek
            o["rate"] = x.rate
            o["previousRate"] = x.previousRate
            o["variant"] = variant(x.variant)
        case let x as AVMetricPlayerItemVariantSwitchEvent:
            o["fromVariant"] = variant(x.fromVariant)
            o["toVariant"] = variant(x.toVariant)
            o["didSucceed"] = x.didSucceed
        case let x as AVMetricPlayerItemVariantSwitchStartEvent:
            o["fromVariant"] = variant(x.fromVariant)
            o["toVariant"] = variant(x.toVariant)
        case let x as AVMetricPlayerItemPlaybackSummaryEvent:
            o["errorEvent"] = error(x.errorEvent)
            o["recoverableErrorCount"] = x.recoverableErrorCount
            o["stallCount"] = x.stallCount
            o["variantSwitchCount"] = x.variantSwitchCount
            o["playbackDuration"] = x.playbackDuration
            o["mediaResourceRequestCount"] = x.mediaResourceRequestCount
            o["timeSpentRecoveringFromStall"] = x.timeSpentRecoveringFromStall
            o["timeSpentInInitialStartup"] = x.timeSpentInInitialStartup
            o["timeWeightedAverageBitrate"] = x.timeWeightedAverageBitrate
            o["timeWeightedPeakBitrate"] = x.timeWeightedPeakBitrate
        case let x as AVMetricErrorEvent:
            o["didRecover"] = x.didRecover
            let ns = x.error as NSError
            o["error"] = ["domain": ns.domain, "code": ns.code, "localizedDescription": ns.localizedDescription]
        case let x as AVMetricMediaResourceRequestEvent:
            if case let r as [String: Any] = resource(x) { o.merge(r) { a, _ in a } }
        default:
            break
        }
    }
}
#endif
