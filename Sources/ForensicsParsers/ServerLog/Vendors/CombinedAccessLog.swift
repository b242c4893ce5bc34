import ForensicsCore

/// A web server's access log in the NCSA combined format, nginx's and Apache's default
/// (`log_format combined`, `LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-agent}i\""`).
/// The two servers mean different instants by the same field — nginx writes `$time_local` when
/// the response is done, Apache's `%t` is when the request arrived — and the line does not say
/// which wrote it, so a row's anchor is unknown; it carries no duration, request id or session.
/// A log written with another `log_format` is not this format (its lines do not have this shape).
package enum CombinedAccessLog: ServerLogVendor {
    package static let vendor = ServerLogDeclaration(
        format: InputFormat("combined-access-log"),
        displayName: "Web server access log, combined format (nginx, Apache)",
        summary: "nginx or Apache access logs in the combined format: local time with its offset, to the second.",
        layout: .combined,
        fields: [
            ("time_local", .commonLogTime), ("request", .requestLine), ("status", .status),
            ("body_bytes_sent", .bytes), ("remote_addr", .clientIP), ("http_user_agent", .userAgent),
            ("remote_user", .personal), ("http_referer", .personal),
        ],
        anchor: .unknown, resolution: 1, evidence: [],
        samples: [
            FormatDeclaration.Sample(
                text: """
                    198.51.100.7 - - [21/Nov/2026:11:00:04 +0100] "GET /v/720p/seg12.ts HTTP/1.1" 200 1048576 "-" "AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; en_us)"

                    """,
                expectedSummaries: ["server GET /v/720p/seg12.ts → 200"])
        ],
        capabilities: [.failures])
}
