/// `AVFoundationErrorDomain` codes (`AVError.Code`), as Apple documents them (values from the
/// AVError.h header Apple publishes with the SDK).
enum AVFoundationErrorCodes {
    static let source = "https://developer.apple.com/documentation/avfoundation/averror/code"

    static func e(_ code: Int, _ name: String, _ meaning: String, _ advice: String) -> ErrorCodeEntry {
        ErrorCodeEntry(
            "AVFoundationErrorDomain", code, name, meaning: meaning, advice: advice, source: source,
            confidence: .documented)
    }

    static let underlying =
        "Look at the underlying error (NSUnderlyingErrorKey): the CoreMedia or URL error there names the cause."

    static let all: [ErrorCodeEntry] = [
        e(-11800, "unknown", "An unknown error occurred.", underlying),
        e(
            -11812, "mediaDiscontinuity", "The media has a discontinuity the player could not handle.",
            "Check the stream around the failure for timestamp jumps without EXT-X-DISCONTINUITY."),
        e(
            -11819, "mediaServicesWereReset", "The media services were reset (iOS).",
            "Recreate the player and its items; not a stream problem."),
        e(
            -11828, "fileFormatNotRecognized", "The media's format is not recognised.",
            "Check the Content-Type and the bytes served: an HTML error page or a wrong container."),
        e(
            -11829, "fileFailedToParse", "The media could not be parsed (it may be damaged).",
            "Check the segment or playlist the player was reading."),
        e(
            -11831, "contentIsProtected", "The content is protected and cannot be played.",
            "Check the DRM setup for this asset."),
        e(
            -11833, "decoderNotFound", "No decoder for the media's format.",
            "Check the CODECS attribute against what the device decodes."),
        e(
            -11835, "contentIsNotAuthorized", "The user is not authorized to play the content.",
            "Check the content-key and entitlement responses."),
        e(
            -11836, "applicationIsNotAuthorized", "The application is not authorized to play the content.",
            "Check the app's FairPlay credentials and entitlements."),
        e(
            -11838, "operationNotSupportedForAsset", "The operation is not supported for this asset.",
            "Check what the app asked of the asset (export, tracks) and its kind."),
        e(
            -11839, "decoderTemporarilyUnavailable", "The decoder is temporarily unavailable.",
            "Another app or player holds the decoder; retry, and release unused players."),
        e(-11849, "failedToLoadMediaData", "The media data could not be loaded.", underlying),
        e(
            -11850, "serverIncorrectlyConfigured",
            "The HTTP server is not correctly configured (for example, byte-range requests are not supported).",
            "Check that the server answers Range requests with 206 and correct headers."),
        e(
            -11863, "contentIsUnavailable", "The content is unavailable.",
            "Check that the asset exists and is published for this viewer."),
        e(
            -11866, "contentNotUpdated", "The content was not updated (a live playlist stopped changing).",
            "Check the live packager and the CDN's caching of the playlist (see CoreMediaErrorDomain -12888)."),
        e(
            -11867, "noLongerPlayable", "The content is no longer playable.",
            "Check the content's availability window and keys."),
    ]
}
