/// `NSURLErrorDomain` codes (`URLError.Code`), as Apple documents them.
enum URLLoadingErrorCodes {
    static let source = "https://developer.apple.com/documentation/foundation/1508628-url_loading_system_error_codes"

    static func e(_ code: Int, _ name: String, _ meaning: String, _ advice: String) -> ErrorCodeEntry {
        ErrorCodeEntry(
            "NSURLErrorDomain", code, name, meaning: meaning, advice: advice, source: source, confidence: .documented)
    }

    static let network = "Check the viewer's network; if many viewers see it, check the host's DNS and reachability."

    static let all: [ErrorCodeEntry] = [
        e(-1, "unknown", "An unknown error occurred.", "Look at the error's underlying error and the request's URL."),
        e(
            -999, "cancelled", "The request was cancelled (by the app or by the player).",
            "Usually not a fault: the player cancels requests it no longer needs (a variant switch, a seek)."),
        e(-1000, "badURL", "The URL is malformed.", "Check the URL the playlist or the app built."),
        e(
            -1001, "timedOut", "The request timed out.",
            "A slow or unreachable server or a congested network: compare with the server's response times."),
        e(
            -1002, "unsupportedURL", "The URL's scheme is not supported.",
            "Check the URL scheme (a custom scheme needs a resource loader)."),
        e(-1003, "cannotFindHost", "The host name could not be resolved.", network),
        e(-1004, "cannotConnectToHost", "A connection to the host could not be made.", network),
        e(
            -1005, "networkConnectionLost", "The connection was lost during the request.",
            "Usually the viewer's network (Wi-Fi to cellular hand-over, a dropped connection)."),
        e(-1006, "dnsLookupFailed", "The DNS lookup failed.", network),
        e(
            -1007, "httpTooManyRedirects", "Too many HTTP redirects.",
            "Check the CDN's or origin's redirect rules for a loop."),
        e(-1008, "resourceUnavailable", "The resource could not be retrieved.", "Check that the resource exists."),
        e(
            -1009, "notConnectedToInternet", "The device is not connected to the internet.",
            "The viewer was offline: not a server problem."),
        e(
            -1011, "badServerResponse", "The server's response was not valid.",
            "Check the server's response (status, headers) for the request."),
        e(
            -1017, "cannotParseResponse", "The response could not be parsed.",
            "Check the server's HTTP response framing."),
        e(
            -1018, "internationalRoamingOff", "Roaming data is off.",
            "The viewer's device setting: not a server problem."),
        e(
            -1020, "dataNotAllowed", "The cellular network does not allow data for the app.",
            "The viewer's device or carrier setting."),
        e(
            -1022, "appTransportSecurityRequiresSecureConnection",
            "App Transport Security blocked a cleartext (http) load.", "Serve over HTTPS or declare an ATS exception."),
        e(-1100, "fileDoesNotExist", "The file does not exist.", "Check the local path (downloaded or cached media)."),
        e(
            -1200, "secureConnectionFailed", "The TLS connection failed.",
            "Check the server's TLS setup (protocol versions, ciphers, certificate chain)."),
        e(
            -1201, "serverCertificateHasBadDate", "The server's certificate has expired or is not yet valid.",
            "Renew the certificate; check the device clock."),
        e(
            -1202, "serverCertificateUntrusted", "The server's certificate is not trusted.",
            "Check the certificate chain and the host name it names."),
        e(
            -1203, "serverCertificateHasUnknownRoot", "The server's certificate root is unknown.",
            "Use a certificate from a trusted authority; serve the whole chain."),
        e(
            -1204, "serverCertificateNotYetValid", "The server's certificate is not yet valid.",
            "Check the certificate's dates and the device clock."),
        e(
            -1205, "clientCertificateRejected", "The server rejected the client certificate.",
            "Check the client certificate setup."),
        e(
            -1206, "clientCertificateRequired", "The server requires a client certificate.",
            "Check the client certificate setup."),
    ]
}
