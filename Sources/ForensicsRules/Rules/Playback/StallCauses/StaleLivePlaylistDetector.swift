import ForensicsCore

/// `stale-live-playlist`: the same live media playlist fetched again without new segments for
/// more than 1.5 × its target duration, or AVPlayer's own -12888 saying so.
struct StaleLivePlaylistDetector: StallCauseDetector {
    func detect(_ c: StallContext) -> StallCauseEvidence? {
        var lastByURL: [String: (TimelineEntry, PlaylistSnapshot)] = [:]
        var stale: [TimelineEntry] = []
        for e in c.window {
            guard case .playlist(let p) = e.record.payload, !p.isMultivariant, !p.endList, let url = p.url else {
                continue
            }
            let key = URLCanonicalizer.withoutQuery(url)
            if let (prev, snap) = lastByURL[key], let t0 = prev.time, let t1 = e.time,
                snap.mediaSequence == p.mediaSequence, snap.segmentCount == p.segmentCount,
                t1 - t0 > 1.5 * (p.targetDuration ?? 6)
            {
                stale.append(contentsOf: [prev, e])
            }
            // Keep the first snapshot of an unchanged playlist: staleness is measured from it.
            if let prev = lastByURL[key], prev.1.mediaSequence == p.mediaSequence, prev.1.segmentCount == p.segmentCount
            {
                continue
            }
            lastByURL[key] = (e, p)
        }
        if let s = stale.first, let t = s.time {
            return StallCauseEvidence(
                cause: .staleLivePlaylist, first: t, entries: stale,
                why: "the live media playlist did not advance for more than 1.5 × its target duration")
        }
        // AVPlayer's own error log says so (-12888), with or without the playlists captured.
        let own = c.stall.fromAccessLog ? [c.session.entries[c.stall.index]] : []
        let unchanged = (c.window + own).filter { e in
            if case .errorLog(let err, _) = e.record.payload { return err.isStaleLivePlaylist }
            if case .error(let err) = e.record.payload { return err.isStaleLivePlaylist }
            return false
        }
        guard let s = unchanged.first, let t = s.time else { return nil }
        return StallCauseEvidence(
            cause: .staleLivePlaylist, first: t, entries: unchanged,
            why: "AVPlayer reported the live playlist unchanged for longer than 1.5 × its target duration (-12888)")
    }
}
