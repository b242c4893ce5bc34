/// `CoreMediaErrorDomain` codes and FairPlay's OSStatus codes: not documented by Apple; known
/// from the text AVPlayer logs with them (its error log's comment) as public reports quote it.
/// The same code has been seen with other texts: a report should show the comment logged.
enum CoreMediaErrorCodes {
    static func e(
        _ code: Int, _ meaning: String, _ advice: String, _ source: String, domain: String = "CoreMediaErrorDomain"
    ) -> ErrorCodeEntry {
        ErrorCodeEntry(domain, code, nil, meaning: meaning, advice: advice, source: source, confidence: .observed)
    }

    static let all: [ErrorCodeEntry] = [
        e(
            -12938, "HTTP 404: File Not Found (logged with the resource's URL).",
            "Check that the resource exists at the CDN and the origin (see the server side when CDN logs are given).",
            "https://github.com/lionheart/openradar-mirror/issues/4785"),
        e(
            -12660, "HTTP 403: Forbidden.",
            "Check tokens, signed URLs, geo-blocking and the CDN's access rules for the resource.",
            "https://github.com/lionheart/openradar-mirror/issues/4785"),
        e(
            -12661, "HTTP 5xx from the server (seen as \"HTTP 503: Unavailable\").",
            "Check the origin's and the CDN's health at that time.",
            "https://soinside.com/question/22QHWepWp9kmci94K2qiWT"),
        e(
            -12642,
            "Playlist parse error (also logged with other texts, e.g. \"No matching mediaFile from playlist\").",
            "Run `playback-forensics check` on the playlist: the stream checks name the line.",
            "https://github.com/vinhnx/notes/issues/123"),
        e(
            -12888, "Playlist File unchanged for longer than 1.5 * target duration: a live playlist stopped advancing.",
            "Check the live packager and the CDN's caching of the playlist (at most half a target duration).",
            "https://developer.apple.com/forums/thread/783255"),
        e(
            -12318,
            "Segment exceeds specified bandwidth for variant: a segment's bit rate is above the variant's declared BANDWIDTH.",
            "Declare BANDWIDTH as the peak segment bit rate (measure it, e.g. with mediastreamvalidator).",
            "https://soinside.com/question/22QHWepWp9kmci94K2qiWT"),
        e(
            -12645, "No response for a media file in 10 s (also seen with other texts).",
            "Check the server's response times for the request.", "https://soinside.com/question/22QHWepWp9kmci94K2qiWT"
        ),
        e(
            -42656, "FairPlay: the lease duration has expired.", "Request a new content key (renew the lease).",
            "https://github.com/SRGSSR/pillarbox-apple/issues/1205", domain: "NSOSStatusErrorDomain"),
        e(
            -42669,
            "FairPlay: seen under AVFoundationErrorDomain -11800 when creating the content-key request (SPC); its meaning is not documented.",
            "Check the FairPlay certificate, the asset id and the device's FairPlay state; retrying rarely helps.",
            "https://github.com/SRGSSR/pillarbox-apple/issues/1232", domain: "NSOSStatusErrorDomain"),
        e(
            -42800, "FairPlay: a persistent (offline) key has expired.", "Request a new persistent key.",
            "http://www.developerinsider.in/fairplay-streaming-error-codes/", domain: "NSOSStatusErrorDomain"),
        e(
            -42803, "FairPlay: the offline key is invalid.", "Request a new persistent key.",
            "http://www.developerinsider.in/fairplay-streaming-error-codes/", domain: "NSOSStatusErrorDomain"),
    ]
}
