import Foundation
import ForensicsCore

/// The device and app a session ran on, as far as its requests tell: the `User-Agent` the player
/// sent (HAR captures and proxy logs keep request headers; access logs and metric dumps do not).
///
/// What is read from the header, and why only this: AVFoundation sends
/// `AppleCoreMedia/1.0.0.21C62 (iPhone; U; CPU OS 17_2 like Mac OS X; en_us)` (device family and
/// OS version), an app that sets its own agent usually leads with `Name/Version`. Nothing else is
/// guessed: a field no header tells stays nil (unknown, not "other").
package struct ClientInfo: Sendable, Hashable {
    package var userAgent: String?
    package var device: String?
    package var osVersion: String?
    package var app: String?
    package var appVersion: String?

    package init() {}

    /// The agent most of the session's requests sent (ties: the smaller text), parsed.
    package init(_ session: Session, redact: (String) -> String = { $0 }) {
        self.init()
        var counts: [String: Int] = [:]
        // Every view of a request: a HAR entry is often the second view of a request another
        // source saw first.
        for entry in session.entries {
            for record in [entry.record] + entry.otherViews {
                guard let request = record.request else { continue }
                for (name, value) in request.requestHeaders where name.lowercased() == "user-agent" && !value.isEmpty {
                    counts[value, default: 0] += 1
                }
            }
        }
        guard let agent = counts.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key
        else { return }
        self.init(userAgent: redact(String(agent.prefix(512))))
    }

    package init(userAgent: String) {
        self.userAgent = userAgent
        let lower = userAgent.lowercased()
        for (needle, family) in [
            ("appletv", "Apple TV"), ("apple tv", "Apple TV"), ("tvos", "Apple TV"), ("ipad", "iPad"),
            ("iphone", "iPhone"), ("ipod", "iPod"), ("macintosh", "Mac"), ("mac os x", "Mac"),
        ] where lower.contains(needle) {
            device = family
            break
        }
        osVersion = Self.osVersion(userAgent)
        // The first product token that is not the system's own networking stack is the app's.
        let system: Set<String> = ["applecoremedia", "cfnetwork", "darwin", "mozilla", "applewebkit", "safari"]
        for token in userAgent.split(separator: " ") {
            let parts = token.split(separator: "/", maxSplits: 1)
            guard parts.count == 2, let name = parts.first, let version = parts.last,
                !name.hasPrefix("("), !system.contains(name.lowercased())
            else { continue }
            app = String(name.prefix(64))
            appVersion = String(version.prefix(32))
            break
        }
    }

    /// `CPU OS 17_2`, `CPU iPhone OS 16_6_1`, `iOS 17.2`, `tvOS 17.1`, `Mac OS X 10_15_7`.
    static func osVersion(_ agent: String) -> String? {
        let markers = [" OS ", "iOS ", "tvOS ", "iPadOS ", "Mac OS X "]
        for marker in markers {
            guard let range = agent.range(of: marker) else { continue }
            let version = agent[range.upperBound...].prefix { $0.isASCII && ($0.isNumber || $0 == "_" || $0 == ".") }
            guard let first = version.first, first.isNumber else { continue }
            return String(String(version.map { $0 == "_" ? "." : $0 }).prefix(16))
        }
        return nil
    }
}
