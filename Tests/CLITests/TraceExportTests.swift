import Foundation
import Testing

/// `timeline --trace`: a Chrome Trace Event document Perfetto and chrome://tracing open, checked
/// here by its structure: every timed request a slice with its status, every stall and finding
/// drawn, slices on one track nested (Perfetto refuses overlapping ones), unknown lengths as
/// instants.
@Suite struct TraceExportTests {
    func trace(_ bundle: String) throws -> [[String: Any]] {
        let r = try CLIRunner.run(["timeline", "SampleLogs/\(bundle)", "--trace", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(doc["displayTimeUnit"] as? String == "ms")
        return try #require(doc["traceEvents"] as? [[String: Any]])
    }

    func slices(_ events: [[String: Any]], _ category: String) -> [[String: Any]] {
        events.filter { $0["cat"] as? String == category }
    }

    @Test func requestsStallsAndFindingsAreTracksThatNest() throws {
        let events = try trace("cdn-404-stall")
        let requests = slices(events, "request")
        let timeline = try CLIRunner.run(["timeline", "SampleLogs/cdn-404-stall", "--json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(timeline.stdout.utf8)) as? [String: Any])
        let entries = ((doc["sessions"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]]) ?? []
        let timedRequests = entries.filter {
            ($0["record"] as? [String: Any])?["kind"] as? String == "request" && !($0["time"] is NSNull)
        }
        #expect(requests.count == timedRequests.count && !requests.isEmpty)
        #expect(requests.contains { ($0["args"] as? [String: Any])?["status"] as? Int == 404 })
        let stall = try #require(slices(events, "stall").first)
        #expect(stall["ph"] as? String == "X")
        #expect(abs((stall["dur"] as? Double ?? 0) - 4_098_000) < 1000, "the 4.098-s stall")
        #expect(slices(events, "finding").count == 3)
        #expect(events.allSatisfy { ($0["ts"] as? Double ?? 0) >= 0 })
        // Slices on one track nest: none starts inside another and ends after it.
        var byTrack: [String: [(Double, Double)]] = [:]
        for e in events where e["ph"] as? String == "X" {
            let ts = e["ts"] as? Double ?? 0
            byTrack["\(e["pid"] ?? 0)/\(e["tid"] ?? 0)", default: []].append((ts, ts + (e["dur"] as? Double ?? 0)))
        }
        for (_, list) in byTrack {
            var open: [Double] = []
            for (start, end) in list.sorted(by: { $0.0 < $1.0 }) {
                while let top = open.last, top <= start { open.removeLast() }
                if let top = open.last { #expect(end <= top) }
                open.append(end)
            }
        }
        // Every track is named.
        let named = Set(
            events.filter { $0["name"] as? String == "thread_name" }.map { "\($0["pid"] ?? 0)/\($0["tid"] ?? 0)" })
        #expect(Set(byTrack.keys).isSubset(of: named))
    }

    @Test func aStallOfUnknownLengthIsAnInstantNotABar() throws {
        let events = try trace("access-error-logs-only")
        let stalls = slices(events, "stall")
        #expect(!stalls.isEmpty)
        #expect(stalls.allSatisfy { $0["ph"] as? String == "i" && $0["name"] as? String == "stall (duration unknown)" })
    }

    @Test func aDeviceLocalSessionSaysItsClockAndTheWindowNarrows() throws {
        let events = try trace("access-error-logs-only")
        let process = events.first { $0["name"] as? String == "process_name" }
        let name = (process?["args"] as? [String: Any])?["name"] as? String ?? ""
        #expect(name.hasSuffix("(device local time, zone unknown)"))
        let r = try CLIRunner.run([
            "timeline", "SampleLogs/cdn-404-stall", "--trace", "-", "--since", "2026-11-21T10:00:30Z",
        ])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let narrowed = (doc["traceEvents"] as? [[String: Any]]) ?? []
        let all = try trace("cdn-404-stall")
        #expect(
            narrowed.filter { $0["cat"] as? String == "request" }.count
                < all.filter { $0["cat"] as? String == "request" }.count)
        let refused = try CLIRunner.run(["timeline", "SampleLogs/cdn-404-stall", "--trace", "-", "--json"])
        #expect(refused.status == 64)
    }
}
