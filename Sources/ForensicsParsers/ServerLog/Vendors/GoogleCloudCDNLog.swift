import ForensicsCore

/// Google Cloud CDN and Media CDN requests as Cloud Logging writes them: a `LogEntry` per line
/// (exported as JSON lines), `httpRequest` with the URL, status, size and `latency` (`"0.412s"`),
/// `cacheHit`, and `jsonPayload.statusDetails` / `cacheId` (the cache location; a chain whose
/// rightmost is nearest the viewer). `latency` runs from receiving the request to sending the
/// response; whether `timestamp` marks the start or the end is not stated in the documentation
/// read, so a row covers both readings (anchor unknown).
package enum GoogleCloudCDNLog: ServerLogVendor {
    package static let vendor = ServerLogDeclaration(
        format: InputFormat("google-cloud-cdn"), displayName: "Google Cloud CDN / Media CDN (Cloud Logging JSON)",
        summary: "Cloud CDN and Media CDN request logs: Cloud Logging LogEntry JSON, one per line.",
        layout: .jsonLines,
        fields: [
            ("timestamp", .timestamp), ("httpRequest.requestUrl", .url), ("httpRequest.requestMethod", .method),
            ("httpRequest.status", .status), ("httpRequest.responseSize", .bytes),
            ("httpRequest.remoteIp", .clientIP), ("httpRequest.userAgent", .userAgent),
            ("httpRequest.latency", .duration(.seconds)), ("httpRequest.cacheHit", .cacheResult),
            ("jsonPayload.cacheStatus", .cacheResult), ("jsonPayload.statusDetails", .detail),
            ("jsonPayload.cacheId", .pop), ("insertId", .requestID),
            // Media CDN: the wait for the origin's first byte on a miss (`"8.600s"`).
            ("jsonPayload.backendInitialLatency", .originFirstByte(.seconds)),
        ],
        anchor: .unknown, resolution: 0.001,
        evidence: ["httpRequest.requestUrl", "httpRequest.status", "jsonPayload.statusDetails"],
        samples: [
            FormatDeclaration.Sample(
                text: """
                    {"insertId":"abc123","timestamp":"2026-11-21T10:00:04.120Z","httpRequest":{"requestMethod":"GET","requestUrl":"https://video.example.com/v/720p/seg12.ts","status":200,"responseSize":"1048576","latency":"0.410s","cacheHit":true},"jsonPayload":{"statusDetails":"response_from_cache","cacheId":"FRA-1f2e"}}

                    """,
                expectedSummaries: ["server GET /v/720p/seg12.ts → 200 hit at FRA-1f2e id abc123"])
        ])
}
