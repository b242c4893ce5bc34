import ForensicsCore

/// Amazon CloudFront standard logs (access logs): W3C extended, tab-separated rows under a
/// space-separated `#Fields:` line; 33 fields today, fewer in older files. A row is written when
/// the response ends (`date` + `time`, UTC, to the second), `time-taken` is the whole response,
/// `x-edge-request-id` is what the viewer got as `x-amz-cf-id`, `sc-status` `000` means the viewer
/// closed the connection first. Rows are not in time order.
package enum CloudFrontStandardLog: ServerLogVendor {
    package static let vendor = ServerLogDeclaration(
        format: InputFormat("cloudfront-standard"), displayName: "Amazon CloudFront standard log (W3C)",
        summary: "CloudFront standard (access) logs: W3C, tab-separated, one row per response, UTC, hourly gzip files.",
        layout: .w3c(separator: 0x09),
        fields: [
            ("cs(Cookie)", .personal), ("x-forwarded-for", .personal),
            ("date", .date), ("time", .time), ("x-edge-location", .pop), ("sc-bytes", .bytes), ("c-ip", .clientIP),
            ("cs-method", .method), ("x-host-header", .host), ("cs(Host)", .host), ("cs-uri-stem", .path),
            ("sc-status", .status), ("cs(User-Agent)", .encodedUserAgent), ("cs-uri-query", .query),
            ("x-edge-response-result-type", .cacheResult), ("x-edge-result-type", .edgeResult),
            ("x-edge-request-id", .requestID), ("time-taken", .duration(.seconds)),
            ("time-to-first-byte", .firstByte(.seconds)), ("x-edge-detailed-result-type", .detail),
            ("sc-range-start", .rangeStart), ("sc-range-end", .rangeEnd),
        ],
        anchor: .requestEnd, resolution: 1, requestIDHeader: "x-amz-cf-id",
        evidence: ["x-edge-location", "x-edge-request-id", "x-edge-result-type"],
        samples: [
            FormatDeclaration.Sample(
                text: """
                    #Version: 1.0
                    #Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken
                    2026-11-21\t10:00:04\tFRA56-P3\t1048576\t198.51.100.7\tGET\td1.cloudfront.net\t/v/720p/seg12.ts\t200\t-\tAppleCoreMedia/1.0.0\t-\t-\tHit\tAbC123==\tvideo.example.com\thttps\t310\t0.420

                    """,
                expectedSummaries: ["server GET /v/720p/seg12.ts → 200 Hit at FRA56-P3 id AbC123=="])
        ])
}
