import ForensicsCore

/// Why a stall happened, as the `stall` rule names it (`cause` in findings). The declaration
/// order is the precedence: when several causes are in the look-back window, the most direct
/// explanation wins (a seek explains its own stall; failed segments explain an empty buffer
/// better than slow ones).
package enum StallCause: String, CaseIterable, Sendable {
    case seek
    case segmentErrors = "segment-errors"
    case proxyFailure = "proxy-failure"
    case slowContentKey = "slow-content-key"
    case staleLivePlaylist = "stale-live-playlist"
    case slowOrigin = "slow-origin"
    case slowCDNEdge = "slow-cdn-edge"
    case insufficientBandwidth = "insufficient-bandwidth"
    case unknown

    /// Lower wins.
    package var precedence: Int { Self.allCases.firstIndex(of: self) ?? Self.allCases.count }

    /// A severity this cause sets whatever the stall's length: a stall after a seek is expected.
    package var severity: Severity? { self == .seek ? .info : nil }

    /// What to do about it.
    package var advice: String {
        switch self {
        case .seek:
            "The stall follows a seek outside the buffered range: expected. Shorter segments and I-frame playlists make seeks faster."
        case .segmentErrors:
            "Media segments failed before the buffer ran out: check the CDN/origin for the failing URLs and statuses (see segment-errors and the evidence); the player could not refill the buffer."
        case .proxyFailure:
            "The local caching proxy failed: check its origin errors, restart it when the app returns to the foreground, and fall back to the origin URL when it is unreachable."
        case .slowContentKey:
            "Playback waited on a content key: speed up the key server and fetch keys ahead (EXT-X-SESSION-KEY, preloadsEligibleContentKeys, longer key rotation periods)."
        case .staleLivePlaylist:
            "The live playlist stopped advancing: check the packager/encoder and CDN caching of live playlists (cache TTL should be below the target duration)."
        case .slowOrigin:
            "The CDN missed its cache and waited on the origin: hand the CDN partner the request ids quoted; check origin capacity and latency, origin shield, and cache keys/TTLs that make segments miss."
        case .slowCDNEdge:
            "The CDN edge answered from cache but slowly: hand the CDN partner the request ids and the POP quoted, and check whether other viewers on that POP were slow at the same time."
        case .insufficientBandwidth:
            "Segments arrived slower than they play: the network could not sustain the variant. Offer lower variants, check CDN throughput for the viewer's region, and consider a lower preferredPeakBitRate."
        case .unknown:
            "Nothing in the captured records explains this stall: capture metric events, a HAR or the proxy log for the next occurrence."
        }
    }
}
