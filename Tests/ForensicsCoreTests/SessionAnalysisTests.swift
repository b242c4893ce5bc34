import Testing

@testable import ForensicsCore

/// What the correlator derives once from a session's timeline (startup, stalls, failures,
/// switches), and what it concludes from a source's silence: only what the sources present can
/// measure (their declared capabilities) turns silence into "none".
@Suite struct SessionAnalysisTests {
    func entry(_ t: Double, _ payload: Record.Payload, format: InputFormat = .metricEvents, line: Int) -> TimelineEntry
    {
        let record = Record(
            time: Timestamp(t), location: SourceLocation(file: "f", line: line), format: format, sessionID: "S",
            payload: payload)
        var end = Timestamp(t)
        if case .request(let r) = payload, let e = r.end { end = e }
        return TimelineEntry(record: record, time: Timestamp(t), endTime: end)
    }

    func session(_ entries: [TimelineEntry], capabilities: SourceSemantics.Capabilities) -> Session {
        var s = Session(
            id: "S", idIsFromLogs: true, assetURL: nil, entries: entries, sources: [.metricEvents], clockOffsets: [],
            kpis: KPIs())
        for i in s.entries.indices { s.entries[i].index = i }
        s.capabilities = capabilities
        return s
    }

    func request(_ url: String, _ start: Double, _ end: Double, status: Int = 200) -> Record.Payload {
        .request(
            MediaRequest(
                kind: MediaRequest.guessKind(url: url), url: url, start: Timestamp(start), end: Timestamp(end),
                status: status))
    }

    var playing: [TimelineEntry] {
        [
            entry(0, request("https://cdn/a/master.m3u8", 0, 0.1), line: 1),
            entry(0.2, request("https://cdn/a/v1/s1.ts", 0.2, 0.8), line: 2),
            entry(1, .player(PlayerEvent(kind: .initialLikelyToKeepUp, timeTaken: 1)), line: 3),
            entry(10, .player(PlayerEvent(kind: .stall, rate: 0, previousRate: 1)), line: 4),
            entry(12.5, .player(PlayerEvent(kind: .likelyToKeepUp, timeTaken: 2.5)), line: 5),
        ]
    }

    @Test func startupRunsFromTheFirstRequestToTheFirstLikelyToKeepUp() {
        let a = SessionAnalysis(session(playing, capabilities: [.playerEvents]))
        #expect(a.startupBegin?.index == 0)
        #expect(a.startupEnd?.index == 2)
        #expect(a.startupEnd.map { $0.time - Timestamp(0) } == 1)
    }

    @Test func aStallLastsUntilPlaybackCanGoOn() throws {
        let a = SessionAnalysis(session(playing, capabilities: [.playerEvents]))
        let stall = try #require(a.stalls.first)
        #expect(a.stalls.count == 1)
        #expect(stall.index == 3)
        #expect(stall.duration == 2.5)
        #expect(stall.recovered == true)
    }

    @Test func aSourceOfEveryPlayerEventMakesNoStallEventMeanNoStall() {
        let calm = Array(playing.prefix(3))
        #expect(SessionAnalysis(session(calm, capabilities: [.playerEvents])).stalls.isEmpty)
        // Nothing can tell variants: unknown, not "no switch".
        #expect(SessionAnalysis(session(calm, capabilities: [.playerEvents])).variantSwitches?.isEmpty == true)
        #expect(SessionAnalysis(session(calm, capabilities: [])).variantSwitches == nil)
    }

    @Test func accessLogRowsCountStallsWithoutTimingThem() throws {
        var row = AVPlayerAccessLogEntry(
            fields: AVPlayerAccessLogFields(["uri": "https://cdn/a/v1/index.m3u8", "c-stalls": "2"]))
        row.uri = "https://cdn/a/v1/index.m3u8"
        row.stalls = 2
        var entries = Array(playing.prefix(3))
        entries.append(entry(30, .accessLog(row), format: .accessLog, line: 9))
        let a = SessionAnalysis(session(entries, capabilities: [.stallCounts, .variantPeriods]))
        let stall = try #require(a.stalls.first)
        #expect(stall.fromAccessLog)
        #expect(stall.reportedCount == 2)
        #expect(stall.duration == nil)
        // Beside a source of player events that kept no stall event (an app keeps the metric
        // events it chooses), the access log's count still stands.
        let beside = SessionAnalysis(session(entries, capabilities: [.playerEvents, .stallCounts]))
        #expect(beside.stalls.map(\.reportedCount) == [2])
        // Near miss: beside the player's own stall events, the access log's count is not a second
        // set of stalls.
        let timed = SessionAnalysis(
            session(
                Array(playing.prefix(4)) + [entry(30, .accessLog(row), format: .accessLog, line: 9)],
                capabilities: [.playerEvents, .stallCounts]))
        #expect(timed.stalls.count == 1)
        #expect(timed.stalls.allSatisfy { !$0.fromAccessLog })
    }

    /// A row written without a date (`- -`) before any dated one still counts its stalls, at the
    /// next dated entry's time.
    @Test func anUndatedFirstRowKeepsItsStalls() throws {
        var row = AVPlayerAccessLogEntry(
            fields: AVPlayerAccessLogFields(["uri": "https://cdn/a/v1/index.m3u8", "c-stalls": "3"]))
        row.uri = "https://cdn/a/v1/index.m3u8"
        row.stalls = 3
        let record = Record(
            time: nil, location: SourceLocation(file: "access.log", line: 4), format: .accessLog, sessionID: "S",
            payload: .accessLog(row))
        let undated = TimelineEntry(record: record, time: nil, endTime: nil)
        var next = AVPlayerAccessLogEntry(fields: AVPlayerAccessLogFields(["c-stalls": "0"]))
        next.stalls = 0
        let dated = entry(32, .accessLog(next), format: .accessLog, line: 5)
        let a = SessionAnalysis(session([undated, dated], capabilities: [.stallCounts, .variantPeriods]))
        let stall = try #require(a.stalls.first)
        #expect(stall.reportedCount == 3)
        #expect(stall.start == Timestamp(32))
        #expect(!stall.placed, "its own row has no time: no report draws it on a time axis")
        // The only row, undated: still counted (probe D).
        let alone = SessionAnalysis(session([undated], capabilities: [.stallCounts, .variantPeriods]))
        #expect(alone.stalls.map(\.reportedCount) == [3])
        #expect(alone.stalls.allSatisfy { !$0.placed })
    }

    @Test func aFailedRequestIsOneFailureHoweverManySourcesSawIt() {
        var failed = entry(20, request("https://cdn/a/v1/s9.ts", 20, 20.1, status: 404), line: 7)
        failed.otherViews = [
            Record(
                time: Timestamp(20), location: SourceLocation(file: "c.har", line: 40), format: .har, sessionID: nil,
                payload: request("https://cdn/a/v1/s9.ts", 20, 20.1, status: 404))
        ]
        let a = SessionAnalysis(session(playing + [failed], capabilities: [.playerEvents, .failures]))
        #expect(a.failures.count == 1)
        #expect(a.failures.first?.status == 404)
    }
}

/// What makes a session a playback (or an attempt at one) for the fleet's shares.
@Suite struct PlaybackAttemptTests {
    func session(_ payloads: [Record.Payload]) -> Session {
        let entries = payloads.map {
            TimelineEntry(
                record: Record(
                    time: Timestamp(1_790_000_000), location: SourceLocation(file: "f", line: 1),
                    format: .deviceConsole, sessionID: nil, payload: $0),
                time: Timestamp(1_790_000_000), endTime: nil)
        }
        return Session(
            id: "S", idIsFromLogs: false, assetURL: nil, entries: entries, sources: [], clockOffsets: [], kpis: KPIs())
    }

    @Test func thePlayersOwnLinesAndItsFailuresAreAnAttempt() {
        let player = ConsoleLine(process: "App", component: .player, library: nil, text: "buffering start")
        let key = ConsoleLine(
            process: "mediaplaybackd", component: .system, library: nil, text: "keyRequest failed", topic: .contentKey)
        #expect(session([.console(player)]).isPlaybackAttempt)
        #expect(session([.console(key)]).isPlaybackAttempt)
        #expect(session([.request(MediaRequest(kind: .segment, url: "https://h/s.ts"))]).isPlaybackAttempt)
    }

    /// Near miss: another process's network error, or a playlist file, is no playback.
    @Test func otherProcessesErrorsAndPlaylistsAreNot() {
        let daemon = ConsoleLine(
            process: "nsurlsessiond", component: .system, library: nil, text: "Task failed",
            error: ErrorInfo(domain: "NSURLErrorDomain", code: -1001, description: nil))
        #expect(!session([.console(daemon)]).isPlaybackAttempt)
        #expect(
            !session([.playlist(PlaylistSnapshot(url: "https://h/v.m3u8", isMultivariant: false))]).isPlaybackAttempt)
    }
}
