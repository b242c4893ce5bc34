import ForensicsCore

/// Akamai DataStream 2, JSON lines: the fields the stream was configured with, values often as
/// strings, `-` and empty ones left out. `reqTimeSec` is when the edge accepted the request
/// (seconds, often with milliseconds); the response's whole time is the turnaround (request's last
/// byte to the response's first) plus the transfer time (Akamai's own definitions of the two were
/// not found; third-party converters add them so). `cacheStatus` is 1 when the edge served from
/// its cache, 0 when it went to a parent or the origin. `range` is logged without `bytes=`; CMCD
/// arrives in `queryStr`.
package enum AkamaiDataStreamLog: ServerLogVendor {
    package static let vendor = ServerLogDeclaration(
        format: InputFormat("akamai-datastream"), displayName: "Akamai DataStream 2 (JSON lines)",
        summary: "Akamai DataStream 2 logs: one JSON object per line, request time in seconds, reqId.",
        layout: .jsonLines,
        fields: [
            ("cookie", .personal), ("xForwardedFor", .personal),
            ("reqTimeSec", .timestamp), ("reqId", .requestID), ("reqHost", .host), ("reqMethod", .method),
            ("reqPath", .path), ("queryStr", .query), ("statusCode", .status), ("totalBytes", .bytes),
            ("bytes", .bytes), ("cliIP", .clientIP), ("UA", .userAgent), ("cacheStatus", .cacheResult),
            ("timeToFirstByte", .firstByte(.milliseconds)), ("turnAroundTimeMSec", .firstByte(.milliseconds)),
            ("turnAroundTimeMSec", .durationPart(.milliseconds)), ("transferTimeMSec", .durationPart(.milliseconds)),
            ("errorCode", .detail), ("rangeHeader", .rangeHeader), ("range", .rangeHeader), ("cmcd", .cmcd),
            ("edgeIP", .pop),
        ],
        anchor: .requestStart, resolution: 0.001, requestIDHeader: "x-akamai-request-id",
        evidence: ["reqTimeSec", "reqPath", "statusCode"],
        samples: [
            FormatDeclaration.Sample(
                text: """
                    {"reqTimeSec":"1795255204.120","reqId":"1a2b3c4d","reqHost":"video.example.com","reqMethod":"GET","reqPath":"/v/720p/seg12.ts","statusCode":"200","cacheStatus":"1","turnAroundTimeMSec":"3","transferTimeMSec":"410","edgeIP":"23.0.0.1"}

                    """,
                expectedSummaries: ["server GET /v/720p/seg12.ts → 200 hit at 23.0.0.1 id 1a2b3c4d"])
        ])
}
