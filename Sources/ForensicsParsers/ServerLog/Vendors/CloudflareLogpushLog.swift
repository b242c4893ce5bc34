import ForensicsCore

/// Cloudflare Logpush, `http_requests` dataset: one JSON object per line with the fields the job
/// selected. `EdgeStartTimestamp`/`EdgeEndTimestamp` are nanoseconds since 1970 by default (or
/// seconds, or RFC 3339, by the job's `timestamp_format`; numbers arrive as strings too).
/// `RayID` is what the viewer got as `CF-Ray` (`<ray>-<COLO>`). `OriginResponseStatus` 0 means
/// no origin request. No field logs the request's `Range` (custom fields cannot capture it), so
/// ranges are not compared when joining. Request headers (the session header, `CMCD-*`) arrive
/// only as Logpush custom fields, under `RequestHeaders`.
package enum CloudflareLogpushLog: ServerLogVendor {
    package static let vendor = ServerLogDeclaration(
        format: InputFormat("cloudflare-logpush"), displayName: "Cloudflare Logpush http_requests (JSON lines)",
        summary: "Cloudflare Logpush HTTP requests: one JSON object per line, edge start and end times, RayID.",
        layout: .jsonLines,
        fields: [
            ("Cookies", .personal),
            ("EdgeStartTimestamp", .start), ("EdgeEndTimestamp", .end), ("RayID", .requestID),
            ("EdgeColoCode", .pop), ("ClientRequestHost", .host), ("ClientRequestMethod", .method),
            ("ClientRequestURI", .pathAndQuery), ("ClientRequestPath", .path), ("EdgeResponseStatus", .status),
            ("OriginResponseStatus", .originStatus), ("EdgeResponseBytes", .bytes), ("ClientIP", .clientIP),
            ("ClientRequestUserAgent", .userAgent), ("CacheCacheStatus", .cacheResult),
            ("EdgeTimeToFirstByteMs", .firstByte(.milliseconds)),
            ("OriginResponseHeaderReceiveDurationMs", .originFirstByte(.milliseconds)),
            ("OriginResponseDurationMs", .originFirstByte(.milliseconds)), ("RequestHeaders", .requestHeaders),
        ],
        anchor: .requestStart, resolution: 0.001, requestIDHeader: "cf-ray",
        evidence: ["RayID", "EdgeStartTimestamp"],
        samples: [
            FormatDeclaration.Sample(
                text: """
                    {"EdgeStartTimestamp":1795255204120000000,"EdgeEndTimestamp":1795255204530000000,"RayID":"8e1f2a3b4c5d6e7f","EdgeColoCode":"FRA","ClientRequestHost":"video.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/v/720p/seg12.ts","EdgeResponseStatus":200,"OriginResponseStatus":0,"CacheCacheStatus":"hit","EdgeTimeToFirstByteMs":4}

                    """,
                expectedSummaries: ["server GET /v/720p/seg12.ts → 200 hit at FRA id 8e1f2a3b4c5d6e7f"])
        ])
}
