import ForensicsCore

/// The session as a picture, for the HTML report: one time axis with a lane for each thing a
/// player is judged by — what the player was doing, the variant it played, the throughput its
/// downloads reached, the requests and their outcome, the errors, the findings — and a legend of
/// what is drawn.
///
/// Why percent coordinates and no `viewBox`: a scaled drawing shrank its text to 7 px in a
/// 760 px window. Here x positions are percentages of the picture's width and sizes are pixels,
/// so the text is 12 px at any width and the plot stretches with the page. Why no script: the
/// report is one file attached to a ticket; tooltips are SVG `<title>`s.
///
/// What no source gives is said, never drawn as if known: a stall without an end is a marker
/// with "?" (not a bar to the end of the session), a lane no source feeds says so.
package struct SessionPicture {
    var session: Session
    var findings: [Finding]
    var title: String
    /// The close-up's window; nil for the whole session.
    var window: ClosedRange<Timestamp>?
    /// Incident windows shaded and numbered on the overview.
    var incidents: [ClosedRange<Timestamp>] = []
    /// The report's redactor: every text drawn is cleaned again (a URL's name after decoding).
    var redactor: Redactor

    /// The left gutter (lane names) and the plot, in percent of the picture's width.
    static let plotLeft = 13.0
    static let plotRight = 97.0
    /// Bounds on what one picture draws (the rest is bucketed or counted in the caption).
    static let maxRequestBars = 600
    static let maxMarkers = 200
    static let maxFindingRows = 16
    static let requestRows = 5

    /// A drawn element's class, with its legend text: the legend lists what is drawn.
    enum Style: String, CaseIterable {
        case starting, playing, paused, seeking, stalled
        case stalledOpen = "stalled-open"
        case failed
        case playerUnknown = "player-unknown"
        case level
        case switchDown = "switch-down"
        case switchUp = "switch-up"
        case throughput
        case observed
        case buffer
        case requestOK = "req-ok"
        case requestFailed = "req-failed"
        case requestUnknown = "req-unknown"
        case error = "err"
        case consoleError = "console-err"
        case critical = "sev-critical"
        case errorFinding = "sev-error"
        case warning = "sev-warning"
        case info = "sev-info"
        case incident

        var legend: String {
            switch self {
            case .starting: "starting"
            case .playing: "playing"
            case .paused: "paused"
            case .seeking: "seeking"
            case .stalled: "stalled"
            case .stalledOpen: "stalled, end not logged (?)"
            case .failed: "failed"
            case .playerUnknown: "not logged (the lane says why)"
            case .level: "variant played"
            case .switchDown: "switch down"
            case .switchUp: "switch up"
            case .throughput: "segment throughput"
            case .observed: "observed bitrate (access log)"
            case .buffer: "loaded ahead (player)"
            case .requestOK: "request answered"
            case .requestFailed: "request failed"
            case .requestUnknown: "request, outcome not logged"
            case .error: "error"
            case .consoleError: "console error"
            case .critical: "finding: critical"
            case .errorFinding: "finding: error"
            case .warning: "finding: warning"
            case .info: "finding: info"
            case .incident: "close-up below"
            }
        }

        static func finding(_ s: Severity) -> Style {
            switch s {
            case .critical: .critical
            case .error: .errorFinding
            case .warning: .warning
            case .info: .info
            }
        }
    }

    /// What the picture left out or could not draw, said under it.
    package private(set) var notes: [String] = []
    private var body: [String] = []
    private var used: Set<Style> = []
    private var y = 0.0

    init(
        session: Session, findings: [Finding], title: String, window: ClosedRange<Timestamp>? = nil,
        incidents: [ClosedRange<Timestamp>] = [], redactor: Redactor
    ) {
        self.session = session
        self.findings = findings
        self.title = title
        self.window = window
        self.incidents = incidents
        self.redactor = redactor
        let last = session.end
        origin = session.start ?? Timestamp(0)
        from = window?.lowerBound ?? origin
        let end = window?.upperBound ?? last ?? from
        to = end - from < 0.001 ? from + 0.001 : end
        sessionEnd = last ?? to
    }

    /// Log text as drawn: cleaned (it already was, in the pipeline; a picture never relies on it).
    func text(_ s: String) -> String { redactor.clean(s) }

    /// A URL as a reader names it: its last part, decoded.
    func name(_ url: String) -> String { URLDisplay.fileName(url, redactor: redactor) }

    // MARK: - Time to x

    /// The session's start (times are drawn as seconds since it), and the drawn window. Stored:
    /// `Session.start` walks the timeline, and every mark asks for its x.
    let origin: Timestamp
    /// The session's last time (`Session.end`), or the window's end.
    let sessionEnd: Timestamp
    let from: Timestamp
    let to: Timestamp
    var span: Double { to - from }

    func x(_ t: Timestamp) -> Double {
        let frac = max(0, min(1, (t - from) / span))
        return Self.plotLeft + frac * (Self.plotRight - Self.plotLeft)
    }

    func visible(_ a: Timestamp, _ b: Timestamp) -> Bool { b >= from && a <= to }

    /// `+12.5 s` since the session began.
    func rel(_ t: Timestamp) -> String { "+" + NumberFormat.trimmed(t - origin, decimals: 3) + " s" }

    static func pct(_ v: Double) -> String { NumberFormat.trimmed(v, decimals: 3) + "%" }
    static func px(_ v: Double) -> String { NumberFormat.trimmed(v, decimals: 1) }
    static func esc(_ s: String) -> String { XMLText.escape(s) }

    // MARK: - Drawing primitives

    private mutating func bar(
        _ a: Timestamp, _ b: Timestamp, top: Double, height: Double, _ style: Style, _ tip: String
    ) {
        guard visible(a, b) else { return }
        let left = x(a)
        let width = max(0.25, x(b) - left)
        used.insert(style)
        body.append(
            #"<rect class="\#(style.rawValue)" x="\#(Self.pct(left))" y="\#(Self.px(top))" width="\#(Self.pct(width))" height="\#(Self.px(height))"><title>\#(Self.esc(tip))</title></rect>"#
        )
    }

    private mutating func dot(_ t: Timestamp, cy: Double, r: Double = 4.5, _ style: Style, _ tip: String) {
        guard visible(t, t) else { return }
        used.insert(style)
        body.append(
            #"<circle class="\#(style.rawValue)" cx="\#(Self.pct(x(t)))" cy="\#(Self.px(cy))" r="\#(Self.px(r))"><title>\#(Self.esc(tip))</title></circle>"#
        )
    }

    private mutating func hline(_ a: Timestamp, _ b: Timestamp, y ly: Double, _ style: Style, _ tip: String) {
        guard visible(a, b) else { return }
        used.insert(style)
        body.append(
            #"<line class="\#(style.rawValue)" x1="\#(Self.pct(x(a)))" y1="\#(Self.px(ly))" x2="\#(Self.pct(max(x(b), x(a) + 0.2)))" y2="\#(Self.px(ly))"><title>\#(Self.esc(tip))</title></line>"#
        )
    }

    private mutating func vline(_ t: Timestamp, _ y1: Double, _ y2: Double, _ style: Style) {
        guard visible(t, t) else { return }
        body.append(
            #"<line class="\#(style.rawValue)" x1="\#(Self.pct(x(t)))" y1="\#(Self.px(y1))" x2="\#(Self.pct(x(t)))" y2="\#(Self.px(y2))"/>"#
        )
    }

    /// Text in the plot at time `t`, to its right (or left, near the right edge).
    private mutating func note(_ t: Timestamp, y ty: Double, _ text: String, cls: String = "mark-label") {
        let at = x(t)
        let anchor = at > 75 ? #" text-anchor="end" dx="-8""# : #" dx="8""#
        body.append(
            #"<text class="\#(cls)" x="\#(Self.pct(at))" y="\#(Self.px(ty))"\#(anchor)>\#(Self.esc(text))</text>"#)
    }

    /// A lane's name in the gutter, and the lane's top.
    private mutating func lane(_ name: String, height: Double, detail: String? = nil) -> Double {
        let top = y
        let height = detail == nil ? height : max(height, 30)
        body.append(#"<g class="lane" data-lane="\#(Self.esc(name.lowercased()))">"#)
        body.append(#"<text class="lane-name" x="0" y="\#(Self.px(top + 12))">\#(Self.esc(name))</text>"#)
        if let detail {
            body.append(#"<text class="lane-detail" x="0" y="\#(Self.px(top + 25))">\#(Self.esc(detail))</text>"#)
        }
        y += height
        return top
    }

    private mutating func endLane() {
        body.append("</g>")
        y += 8
    }

    /// A lane of its own that no source feeds.
    private mutating func notLogged(_ name: String, _ why: String) {
        let top = lane(name, height: 16)
        unknownLane(top: top, height: 16, why)
        endLane()
    }

    /// A lane no source feeds: hatched, and saying why.
    private mutating func unknownLane(top: Double, height: Double, _ why: String) {
        used.insert(.playerUnknown)
        body.append(
            #"<rect class="player-unknown" x="\#(Self.pct(Self.plotLeft))" y="\#(Self.px(top))" width="\#(Self.pct(Self.plotRight - Self.plotLeft))" height="\#(Self.px(height))"><title>\#(Self.esc(why))</title></rect>"#
        )
        body.append(
            #"<text class="lane-detail" x="\#(Self.pct(Self.plotLeft))" dx="6" y="\#(Self.px(top + height / 2 + 4))">\#(Self.esc(why))</text>"#
        )
    }

    // MARK: - The picture

    /// The picture as SVG lines.
    package mutating func lines() -> [String] {
        body = []
        used = []
        notes = []
        y = 44
        let shaded = window == nil && !incidents.isEmpty
        if shaded { y += 12 }
        let lanesTop = y
        playerLane()
        variantLane()
        throughputLane()
        bufferLane()
        requestLane()
        errorLane()
        findingLane()
        let lanesBottom = y
        let out0 = [
            #"<svg xmlns="http://www.w3.org/2000/svg" class="picture" width="100%" height="\#(Self.px(lanesBottom + 4))" role="img" aria-label="\#(Self.esc(title))">"#,
            #"<text class="title" x="0" y="14">\#(Self.esc(title)) · seconds since the session began</text>"#,
        ]
        var out = out0
        if shaded { out += incidentShades(top: lanesTop - 14, bottom: lanesBottom) }
        out += ticks(top: 34, bottom: lanesBottom)
        out += body
        out.append("</svg>")
        return out + legend()
    }

    /// Round ticks with their gridlines.
    func ticks(top: Double, bottom: Double) -> [String] {
        var out: [String] = []
        let step = Self.tickStep(span)
        var offset = ((from - origin) / step).rounded(.up) * step
        var n = 0
        while origin + offset <= to + step * 1e-6, n < 12 {
            let tx = x(origin + offset)
            out.append(
                #"<line class="grid" x1="\#(Self.pct(tx))" y1="\#(Self.px(top + 4))" x2="\#(Self.pct(tx))" y2="\#(Self.px(bottom))"/>"#
            )
            out.append(
                #"<text class="tick" x="\#(Self.pct(tx))" y="\#(Self.px(top))">+\#(NumberFormat.trimmed(offset, decimals: 3)) s</text>"#
            )
            offset += step
            n += 1
        }
        return out
    }

    /// A round step giving at most eight ticks over the span.
    static func tickStep(_ span: Double) -> Double {
        let steps = [
            0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
            3600, 7200, 21600, 43200, 86400,
        ]
        return steps.first { span / $0 <= 8 } ?? max(86400, (span / 8).rounded(.up))
    }

    /// The overview's incident windows, shaded behind the lanes and numbered.
    func incidentShades(top: Double, bottom: Double) -> [String] {
        var out: [String] = []
        for (n, w) in incidents.enumerated() {
            let left = x(w.lowerBound)
            out.append(
                #"<rect class="incident" x="\#(Self.pct(left))" y="\#(Self.px(top))" width="\#(Self.pct(max(0.4, x(w.upperBound) - left)))" height="\#(Self.px(bottom - top))"><title>close-up \#(n + 1): \#(rel(w.lowerBound)) to \#(rel(w.upperBound))</title></rect>"#
            )
            out.append(
                #"<text class="incident-number" x="\#(Self.pct(left))" dx="3" y="\#(Self.px(top + 10))">\#(n + 1)</text>"#
            )
        }
        return out
    }

    /// The failure that ended playback, when a finding says so.
    var failedAt: Timestamp? {
        findings.filter { $0.ruleID == "playback-failed" }.compactMap(\.start).min()
    }

    private mutating func playerLane() {
        let h = 16.0
        let top = lane("Player", height: h)
        let mid = top + h / 2
        let a = session.analysis
        let hasPlayer = session.entries.contains { $0.record.playerEvent != nil }
        let end = sessionEnd
        if !hasPlayer {
            unknownLane(top: top, height: h, "no source in this bundle logs the player's state")
            // A console or error log can still say that playback failed, and when.
            if let failed = failedAt {
                bar(failed, end, top: top + 4, height: h - 8, .failed, "playback failed at \(rel(failed))")
            }
        } else {
            let begin = a.startupBegin?.time ?? origin
            let playing = a.startupEnd?.time
            let failed = failedAt
            let stopStarting = playing ?? failed ?? end
            bar(begin, stopStarting, top: top, height: h, .starting, "starting: \(rel(begin)) to \(rel(stopStarting))")
            // A stall no event shows ending: what the player did after it is not known.
            let open = a.stalls.first { !$0.fromAccessLog && $0.end == nil && $0.start >= (playing ?? begin) }?.start
            if let playing {
                var until = failed.map { max($0, playing) } ?? end
                if let open { until = min(until, max(open, playing)) }
                bar(playing, until, top: top, height: h, .playing, "playing: \(rel(playing)) to \(rel(until))")
            }
            for (a, b, style, what) in playerIntervals(end: open ?? end) {
                bar(a, b, top: top, height: h, style, "\(what): \(rel(a)) to \(rel(b))")
            }
            if let open {
                let stop = failed.map { max($0, open) } ?? end
                bar(
                    open, stop, top: top + 3, height: h - 6, .playerUnknown,
                    "stalled at \(rel(open)) and no resume logged: what the player did after is not known")
            }
            if let failed { bar(failed, end, top: top, height: h, .failed, "playback failed at \(rel(failed))") }
        }
        // Stalls: bars where both ends are known, a marker with "?" where not.
        var drawn = 0
        for st in a.stalls where st.placed && drawn < Self.maxMarkers {
            drawn += 1
            if st.fromAccessLog {
                dot(
                    st.start, cy: mid, .stalledOpen,
                    "\(st.reportedCount) stall\(st.reportedCount == 1 ? "" : "s") in the access-log row from \(rel(st.start)): when and for how long not logged"
                )
                if visible(st.start, st.start) { note(st.start, y: mid + 4, "?", cls: "open") }
            } else if let stEnd = st.end {
                // A wait the `stall` rule put down to a seek outside the buffer is the seek's, and
                // the key figures count it apart: drawn as seeking, not as a stall.
                let seekWait = findings.contains { $0.isSeekWait && $0.start == st.start }
                bar(
                    st.start, stEnd, top: top, height: h, seekWait ? .seeking : .stalled,
                    "\(seekWait ? "waiting after a seek" : "stalled") \(NumberFormat.seconds(stEnd - st.start)): \(rel(st.start)) to \(rel(stEnd))"
                )
            } else {
                dot(st.start, cy: mid, .stalledOpen, "stalled at \(rel(st.start)); no resume logged: length unknown")
                if visible(st.start, st.start) { note(st.start, y: mid + 4, "?", cls: "open") }
            }
        }
        let placed = a.stalls.filter(\.placed).count
        if placed > drawn { notes.append("\(placed - drawn) more stalls not drawn") }
        endLane()
    }

    /// Pauses and seeks from the player's events.
    func playerIntervals(end: Timestamp) -> [(Timestamp, Timestamp, Style, String)] {
        var out: [(Timestamp, Timestamp, Style, String)] = []
        var pausedAt: Timestamp?
        var seekAt: Timestamp?
        let playing = session.analysis.startupEnd?.time
        for e in session.entries where out.count < Self.maxMarkers {
            guard let p = e.record.playerEvent, let t = e.time, t <= end else { continue }
            switch p.kind {
            case .rateChange:
                if let r = p.rate, r == 0, pausedAt == nil, let playing, t >= playing { pausedAt = t }
                if let r = p.rate, r > 0, let since = pausedAt {
                    out.append((since, t, .paused, "paused"))
                    pausedAt = nil
                }
            case .seek:
                if seekAt == nil { seekAt = t }
            case .seekDidComplete:
                if let since = seekAt {
                    out.append((since, t, .seeking, "seeking"))
                    seekAt = nil
                }
            default:
                break
            }
        }
        if let since = pausedAt { out.append((since, end, .paused, "paused (to the end of the log)")) }
        return out
    }

    /// The variant played, as a step line over the ladder's rungs; switches as connectors.
    private mutating func variantLane() {
        let switches = session.analysis.variantSwitches ?? []
        var levels: [(Timestamp, Double)] = []
        let begin = session.analysis.startupEnd?.time ?? session.analysis.startupBegin?.time ?? origin
        if let first = switches.first {
            levels.append((begin, first.from))
            for s in switches { levels.append((s.time, s.to)) }
        } else if let rate = initialVariant {
            levels.append((begin, rate))
        }
        guard !levels.isEmpty else {
            notLogged("Variant", "no source shows the variant played")
            return
        }
        // Rungs by rank (a ladder reads by step, not by bits per second); only real rates.
        let rungs = Array(Set(levels.map(\.1).filter { $0.isFinite && $0 > 0 })).sorted()
        var rank: [Double: Int] = [:]
        for (i, r) in rungs.enumerated() { rank[r] = i }
        let h = max(16, min(64, Double(rungs.count - 1) * 10 + 8))
        let top = lane(
            "Variant", height: h,
            detail: rungs.count > 1
                ? "\(BitRateFormat.text(rungs.first ?? 0)) – \(BitRateFormat.text(rungs.last ?? 0))" : nil)
        func ly(_ rate: Double) -> Double {
            guard rungs.count > 1, let i = rank[rate] else { return top + h / 2 }
            return top + h - 4 - Double(i) / Double(rungs.count - 1) * (h - 8)
        }
        let end = failedAt ?? sessionEnd
        // One step per stretch of the axis (the last rate in it): thousands of switches draw at
        // most a few hundred lines, and only those in the window.
        var steps: [(start: Timestamp, end: Timestamp, rate: Double)] = []
        for (n, (t, rate)) in levels.enumerated() where rank[rate] != nil {
            let next = max(t, n + 1 < levels.count ? levels[n + 1].0 : end)
            guard visible(t, next) else { continue }
            if let last = steps.last, x(t) - x(last.start) < 0.25 {
                steps[steps.count - 1].rate = rate
                steps[steps.count - 1].end = next
            } else {
                steps.append((t, next, rate))
            }
        }
        for (n, step) in steps.enumerated() {
            hline(
                step.start, step.end, y: ly(step.rate), .level,
                "\(BitRateFormat.text(step.rate)) from \(rel(step.start))")
            if n == 0 || rungs.count == 1 {
                note(max(step.start, from), y: ly(step.rate) - 3, BitRateFormat.text(step.rate), cls: "lane-detail")
            }
        }
        if steps.count < levels.count - 1 {
            notes.append("variant: \(levels.count) steps drawn as \(steps.count) (one per stretch of the axis)")
        }
        for s in switches.prefix(Self.maxMarkers) {
            let style: Style = s.to < s.from ? .switchDown : .switchUp
            vline(s.time, ly(s.from), ly(s.to), style)
            dot(
                s.time, cy: ly(s.to), r: 3.5, style,
                "switch \(BitRateFormat.text(s.from)) → \(BitRateFormat.text(s.to)) at \(rel(s.time)) (\(s.basis.rawValue))"
            )
        }
        if switches.count > Self.maxMarkers {
            notes.append("\(switches.count - Self.maxMarkers) more variant switches not drawn")
        }
        endLane()
    }

    /// The variant played before any switch: the player's first stated variant, or the first
    /// access-log row's indicated bitrate.
    var initialVariant: Double? {
        for e in session.entries {
            if let v = e.record.playerEvent?.variant?.bandwidth, v > 0 { return v }
            if case .accessLog(let a) = e.record.payload, let v = a.indicatedBitrate, v > 0 { return v }
        }
        return nil
    }

    /// Throughput of each segment download with its size and timing (bytes × 8 / time), with the
    /// variant's bitrate for comparison; access-log rows' observed bitrate over their period.
    private mutating func throughputLane() {
        var points: [(Timestamp, Timestamp, Double, Style, String)] = []
        for e in session.entries {
            guard let t = e.time else { continue }
            if let r = session.mergedRequest(e), r.kind == .segment || r.kind == .map, !r.failed,
                let bytes = r.bytes, bytes >= 16_384, let end = e.endTime, end - t >= 0.005
            {
                let rate = Double(bytes) * 8 / (end - t)
                guard rate.isFinite else { continue }
                let name = name(r.url)
                points.append(
                    (
                        t, end, rate, .throughput,
                        "\(name): \(BitRateFormat.text(rate)) (\(bytes) bytes in \(NumberFormat.seconds(end - t))) at \(rel(t))"
                    ))
            } else if case .accessLog(let a) = e.record.payload, let rate = a.observedBitrate, rate > 0, rate.isFinite {
                let end = t + max(0.001, min(a.durationWatched ?? 1, 86_400))
                points.append((t, end, rate, .observed, "observed \(BitRateFormat.text(rate)) from \(rel(t))"))
            }
        }
        points = points.filter { visible($0.0, $0.1) }
        guard !points.isEmpty else {
            notLogged("Throughput", "not measured: no download with its size and timing")
            return
        }
        if points.count > Self.maxRequestBars {
            // The slowest download of each stretch of the axis: the one that explains a stall.
            var slowest: [Int: (Timestamp, Timestamp, Double, Style, String)] = [:]
            for p in points {
                let bucket = Int((x(p.0) * 4).rounded(.down))
                if let kept = slowest[bucket], kept.2 <= p.2 { continue }
                slowest[bucket] = p
            }
            notes.append("throughput: the slowest of \(points.count) downloads in each stretch of the axis drawn")
            points = slowest.keys.sorted().compactMap { slowest[$0] }
        }
        let h = 44.0
        // The scale: the variant ladder's top and most downloads, not one burst from a cache
        // (drawn at the top, its value in the tooltip).
        let rates = points.map(\.2).sorted()
        let typical = rates[min(rates.count - 1, rates.count * 9 / 10)]
        let ladderTop =
            (session.analysis.variantSwitches ?? []).map { max($0.from, $0.to) }.max() ?? initialVariant ?? 0
        let maxRate = max(1, min(rates.last ?? 1, max(typical * 1.5, ladderTop * 1.5)))
        let top = lane("Throughput", height: h, detail: "0 – \(BitRateFormat.text(maxRate))")
        func ly(_ rate: Double) -> Double { top + h - 3 - min(1, rate / maxRate) * (h - 6) }
        for p in points {
            if x(p.1) - x(p.0) < 0.3 {
                dot(p.0, cy: ly(p.2), r: 2.5, p.3, p.4)
            } else {
                hline(p.0, p.1, y: ly(p.2), p.3, p.4)
            }
        }
        endLane()
    }

    /// The player's buffer: seconds loaded ahead of the play head, where its events state
    /// their loaded ranges (AVMetrics' likely-to-keep-up and variant-switch events), joined by
    /// lines — a falling line before a stall is the picture of a download that could not keep up.
    private mutating func bufferLane() {
        var points: [(Timestamp, Double)] = []
        for e in session.entries {
            guard let t = e.time, let ahead = e.record.playerEvent?.bufferedAhead, visible(t, t) else { continue }
            points.append((t, ahead))
        }
        guard !points.isEmpty else {
            notLogged("Buffer", "no source in this bundle logs the buffer level")
            return
        }
        if points.count > Self.maxRequestBars {
            notes.append("buffer: the first \(Self.maxRequestBars) of \(points.count) readings drawn")
            points = Array(points.prefix(Self.maxRequestBars))
        }
        let h = 36.0
        let most = max(1, points.map(\.1).max() ?? 1)
        let top = lane("Buffer", height: h, detail: "0 – \(NumberFormat.seconds(most)) ahead")
        func ly(_ v: Double) -> Double { top + h - 3 - min(1, v / most) * (h - 6) }
        used.insert(.buffer)
        // Readings far apart are not joined: what happened between them is not known.
        for (a, b) in zip(points, points.dropFirst()) where b.0 - a.0 <= 15 {
            body.append(
                #"<line class="buffer" x1="\#(Self.pct(x(a.0)))" y1="\#(Self.px(ly(a.1)))" x2="\#(Self.pct(x(b.0)))" y2="\#(Self.px(ly(b.1)))"/>"#
            )
        }
        for (t, v) in points {
            dot(t, cy: ly(v), r: 3, .buffer, "\(NumberFormat.seconds(v)) loaded ahead at \(rel(t))")
        }
        endLane()
    }

    /// Requests as bars coloured by outcome, overlapping ones on rows of their own.
    private mutating func requestLane() {
        struct Bar {
            var start: Timestamp, end: Timestamp, style: Style, tip: String
        }
        var bars: [Bar] = []
        for e in session.entries {
            guard let t = e.time, let r = session.mergedRequest(e) else { continue }
            let end = max(e.endTime ?? t, t)
            guard visible(t, end) else { continue }
            let style: Style =
                r.failed ? .requestFailed : (r.effectiveStatus == nil && r.bytes == nil ? .requestUnknown : .requestOK)
            var tip = "\(r.kind.rawValue) \(name(r.url))"
            if let s = r.effectiveStatus {
                tip += " → HTTP \(s)"
            } else if let err = r.error {
                tip += " → \(err.domain ?? "error") \(err.code.map(String.init) ?? "")"
            }
            if let d = r.duration { tip += " in \(NumberFormat.seconds(d))" }
            tip += " at \(rel(t))\n\(text(r.url))"
            bars.append(Bar(start: t, end: end, style: style, tip: tip))
        }
        guard !bars.isEmpty else {
            notLogged("Requests", "no request of the player's logged in this stretch")
            return
        }
        let rowHeight = 7.0
        if bars.count > Self.maxRequestBars {
            // Too many to tell apart: per stretch of the axis, how many, and how many failed.
            var buckets: [Int: (first: Timestamp, last: Timestamp, counts: [Style: Int])] = [:]
            for b in bars {
                let k = Int((x(b.start) * 4).rounded(.down))
                var v = buckets[k] ?? (b.start, b.end, [:])
                v.first = min(v.first, b.start)
                v.last = max(v.last, b.end)
                v.counts[b.style, default: 0] += 1
                buckets[k] = v
            }
            // A row per outcome: answered, failed, not logged.
            let outcomes: [Style] = [.requestOK, .requestFailed, .requestUnknown].filter { o in
                buckets.values.contains { ($0.counts[o] ?? 0) > 0 }
            }
            let top = lane(
                "Requests", height: Double(outcomes.count) * (rowHeight + 2), detail: "\(bars.count), grouped")
            for k in buckets.keys.sorted() {
                guard let v = buckets[k] else { continue }
                let n = v.counts.values.reduce(0, +)
                for (row, o) in outcomes.enumerated() {
                    guard let c = v.counts[o], c > 0 else { continue }
                    bar(
                        v.first, v.last, top: top + Double(row) * (rowHeight + 2), height: rowHeight, o,
                        "\(c) of \(n) requests: \(o.legend), \(rel(v.first)) to \(rel(v.last))")
                }
            }
            notes.append("requests: \(bars.count) drawn grouped by stretch of the axis (\(buckets.count) groups)")
            endLane()
            return
        }
        // Greedy packing: a request goes on the first row free at its start.
        var rowEnds = [Double](repeating: -1, count: Self.requestRows)
        var placed: [(Bar, Int)] = []
        for b in bars {
            let left = x(b.start)
            let right = max(x(b.end), left + 0.25)
            let row =
                rowEnds.firstIndex { $0 < left }
                ?? rowEnds.indices.min { rowEnds[$0] < rowEnds[$1] } ?? 0
            rowEnds[row] = max(rowEnds[row], right + 0.1)
            placed.append((b, row))
        }
        let rows = (placed.map(\.1).max() ?? 0) + 1
        let top = lane("Requests", height: max(16, Double(rows) * (rowHeight + 1)), detail: "\(bars.count)")
        for (b, row) in placed {
            bar(b.start, b.end, top: top + Double(row) * (rowHeight + 1), height: rowHeight, b.style, b.tip)
        }
        endLane()
    }

    /// Failures no request shows (error-log rows, the player's error events, the proxy's) and
    /// the console's error lines.
    private mutating func errorLane() {
        var marks: [(Timestamp, Style, String)] = []
        for f in session.analysis.failures {
            guard session.entries.indices.contains(f.index), session.entries[f.index].record.request == nil,
                let t = f.time
            else { continue }
            let name = f.url.map(name) ?? ""
            marks.append((t, .error, "\(f.statusText) \(name) at \(rel(t))"))
        }
        for e in session.entries {
            guard let c = e.record.consoleLine, c.error != nil || c.endsPlayback, let t = e.time else { continue }
            marks.append((t, .consoleError, "console at \(rel(t)): \(String(text(c.text).prefix(200)))"))
        }
        marks = marks.filter { visible($0.0, $0.0) }
        guard !marks.isEmpty else { return }
        let h = 16.0
        let top = lane("Errors", height: h, detail: "\(marks.count) not from a request")
        for m in marks.prefix(Self.maxMarkers) { dot(m.0, cy: top + h / 2, r: 4, m.1, m.2) }
        if marks.count > Self.maxMarkers { notes.append("\(marks.count - Self.maxMarkers) more errors not drawn") }
        endLane()
    }

    /// Each finding on a row of its own, coloured by severity, named by its rule.
    private mutating func findingLane() {
        let timed = findings.filter { f in f.start.map { visible($0, f.end ?? $0) } ?? false }.sorted(
            by: Finding.severityFirst)
        let untimed = findings.filter { $0.start == nil }.count
        if untimed > 0 {
            notes.append(
                "\(untimed) finding\(untimed == 1 ? " has" : "s have") no time and \(untimed == 1 ? "is" : "are") not drawn"
            )
        }
        guard !timed.isEmpty else { return }
        let shown = timed.prefix(Self.maxFindingRows)
        let rowHeight = 15.0
        let top = lane("Findings", height: Double(shown.count) * rowHeight)
        for (n, f) in shown.enumerated() {
            guard let start = f.start else { continue }
            let rowTop = top + Double(n) * rowHeight
            let style = Style.finding(f.severity)
            let tip = "\(f.severity.rawValue) · \(f.ruleID): \(text(f.title)) (\(rel(start)))"
            body.append(#"<g class="finding" data-rule="\#(Self.esc(f.ruleID))">"#)
            if let end = f.end, end - start >= 0.001 {
                bar(start, end, top: rowTop + 3, height: rowHeight - 6, style, tip)
            } else {
                dot(start, cy: rowTop + rowHeight / 2, r: 4.5, style, tip)
            }
            findingName(f.ruleID, start: start, end: f.end ?? start, y: rowTop + rowHeight - 4)
            body.append("</g>")
        }
        if timed.count > shown.count {
            notes.append("\(timed.count - shown.count) more findings not drawn (the report lists them all)")
        }
        endLane()
    }

    /// A finding's rule beside its mark: after its end, before its start near the right edge,
    /// or inside a bar that spans the plot.
    private mutating func findingName(_ name: String, start: Timestamp, end: Timestamp, y ty: Double) {
        let a = x(start)
        let b = x(end)
        var placement: String
        var cls = "mark-label"
        if b < 75 {
            placement = #"x="\#(Self.pct(b))" dx="8""#
        } else if a > 25 {
            placement = #"x="\#(Self.pct(a))" dx="-8" text-anchor="end""#
        } else {
            placement = #"x="\#(Self.pct(a))" dx="4""#
            cls += " inside"
        }
        body.append(#"<text class="\#(cls)" \#(placement) y="\#(Self.px(ty))">\#(Self.esc(name))</text>"#)
    }

    /// What the legend explains: what was drawn, and the overview's shaded close-ups.
    private var legendStyles: [Style] {
        Style.allCases.filter { used.contains($0) || ($0 == .incident && window == nil && !incidents.isEmpty) }
    }

    /// What is drawn, as an HTML list after the picture: it wraps to the page's width.
    private func legend() -> [String] {
        guard !legendStyles.isEmpty else { return [] }
        var out = [#"<div class="picture-legend">"#]
        for style in legendStyles {
            out.append(
                #"<span class="key"><svg width="14" height="10" aria-hidden="true"><rect class="\#(style.rawValue)" x="1" y="1" width="12" height="8"/></svg>\#(Self.esc(style.legend))</span>"#
            )
        }
        out.append("</div>")
        return out
    }

}
