import ForensicsCore

/// A server log whose lines the operator laid out (nginx's `log_format`, Apache's and Fastly's
/// `LogFormat`, the fields a CloudFront real-time log configuration selected): nothing in a line
/// says which field is which, so such a log is read only with its layout given
/// (`--cdn-log-format KIND=LAYOUT`), and recognised only by its lines matching that layout.
///
/// A kind is one type here and one line in `FormatRegistry.configurable`; its layout compiles to
/// a `ServerLogDeclaration` that the field-map reader reads like any vendor's.
package protocol ConfigurableServerLog: Sendable {
    /// The word before `=` in `--cdn-log-format` (`nginx`).
    static var kind: String { get }
    static var format: InputFormat { get }
    static var displayName: String { get }
    /// What the layout is (for `formats` and the option's help).
    static var layoutHelp: String { get }
    /// The declaration for one layout, or why the layout cannot be read.
    static func declaration(layout: String) throws(ConfigurationError) -> ServerLogDeclaration
}

extension ConfigurableServerLog {
    /// What a declaration with these fields can show, and what its silence proves.
    static func capabilities(
        _ fields: [(name: String, field: ServerLogDeclaration.Field)]
    )
        -> SourceSemantics.Capabilities
    {
        var c: SourceSemantics.Capabilities = []
        for (_, f) in fields {
            switch f {
            case .status: c.insert(.failures)
            case .duration, .durationPart: c.formUnion([.requestTimings, .serverTimings])
            case .firstByte: c.insert(.serverTimings)
            case .originFirstByte: c.insert(.originTimings)
            case .cacheResult: c.insert(.cacheResult)
            default: break
            }
        }
        return c
    }

    /// Fields by rank, in the order given among equals: the preferred field fills a part first.
    static func ranked(
        _ fields: [(name: String, field: ServerLogDeclaration.Field, rank: Int)]
    ) -> [(name: String, field: ServerLogDeclaration.Field)] {
        fields.enumerated().sorted { a, b in
            a.element.rank != b.element.rank ? a.element.rank < b.element.rank : a.offset < b.offset
        }.map { (name: $0.element.name, field: $0.element.field) }
    }

    /// The declaration of a template's fields, checked to place a row in time and name its path.
    static func declaration(
        template: LogFormatTemplate, map: (String) -> (field: ServerLogDeclaration.Field, rank: Int)?,
        anchor: SourceSemantics.Anchor, resolution: Double
    ) throws(ConfigurationError) -> ServerLogDeclaration {
        var fields: [(name: String, field: ServerLogDeclaration.Field, rank: Int)] = []
        for case .field(let name, _) in template.pieces {
            if let m = map(name) { fields.append((name, m.field, m.rank)) }
        }
        let ordered = ranked(fields)
        return try checked(layout: .template(template), fields: ordered, anchor: anchor, resolution: resolution)
    }

    static func checked(
        layout: ServerLogDeclaration.Layout, fields: [(name: String, field: ServerLogDeclaration.Field)],
        anchor: SourceSemantics.Anchor, resolution: Double, requestIDHeader: String? = nil
    ) throws(ConfigurationError) -> ServerLogDeclaration {
        let kinds = fields.map(\.field)
        guard kinds.contains(where: \.isTime) else {
            throw ConfigurationError.invalid("\(kind) log format: no field gives a row's time")
        }
        guard kinds.contains(where: \.isPath) else {
            throw ConfigurationError.invalid("\(kind) log format: no field gives the request's path")
        }
        return ServerLogDeclaration(
            format: format, displayName: displayName, summary: "\(displayName), with the layout given", layout: layout,
            fields: fields, anchor: anchor, resolution: resolution, requestIDHeader: requestIDHeader, evidence: [],
            capabilities: capabilities(fields))
    }

    /// A request header's meaning, by name (any case, `-` or `_`).
    static func requestHeader(_ name: String) -> (field: ServerLogDeclaration.Field, rank: Int)? {
        let n = name.lowercased().replacingOccurrences(of: "_", with: "-")
        switch n {
        case "x-playback-session-id": return (.sessionHeader, 0)
        case "cmcd-request", "cmcd-object", "cmcd-status", "cmcd-session": return (.cmcd, 0)
        case "user-agent": return (.userAgent, 0)
        case "range": return (.rangeHeader, 0)
        case "host": return (.host, 1)
        case "fastly-client-ip", "true-client-ip", "cf-connecting-ip": return (.clientIP, 1)
        case "referer", "cookie", "authorization", "x-forwarded-for", "forwarded": return (.personal, 0)
        default: return nil
        }
    }

    /// A response header's meaning.
    static func responseHeader(_ name: String) -> (field: ServerLogDeclaration.Field, rank: Int)? {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "x-cache", "x-cache-status", "cache-status": (.cacheResult, 1)
        case "set-cookie": (.personal, 0)
        default: nil
        }
    }
}

extension ServerLogDeclaration.Field {
    var isTime: Bool {
        switch self {
        case .date, .timestamp, .start, .end, .commonLogTime: true
        default: false
        }
    }

    var isPath: Bool {
        switch self {
        case .path, .pathAndQuery, .requestLine, .url: true
        default: false
        }
    }
}

/// nginx access logs with the `log_format` they were written with (`$variable` text): a row's
/// time is when it was logged, the response's end (`$time_local`, `$time_iso8601`, `$msec`);
/// `$request_time` is the whole response, so the start is rebuilt from it.
package enum NginxAccessLog: ConfigurableServerLog {
    package static let kind = "nginx"
    package static let format = InputFormat("nginx-access-log")
    package static let displayName = "nginx access log (log_format given)"
    package static let layoutHelp = "the log_format text: $remote_addr - [$time_local] \"$request\" $status …"

    package static func declaration(layout: String) throws(ConfigurationError) -> ServerLogDeclaration {
        let template = try LogFormatTemplate.nginx(layout)
        let hasMilliseconds = template.pieces.contains { $0 == .field(name: "msec", spaces: 0) }
        return try declaration(
            template: template, map: field, anchor: .requestEnd, resolution: hasMilliseconds ? 0.001 : 1)
    }

    /// An nginx variable's meaning (`$http_<header>`, `$sent_http_<header>`, `$cookie_<name>`).
    static func field(_ name: String) -> (field: ServerLogDeclaration.Field, rank: Int)? {
        switch name {
        case "remote_addr", "realip_remote_addr", "binary_remote_addr": return (.clientIP, 0)
        case "remote_user": return (.personal, 0)
        case "msec": return (.timestamp, 0)
        case "time_iso8601": return (.timestamp, 1)
        case "time_local": return (.commonLogTime, 2)
        case "request": return (.requestLine, 0)
        case "request_method": return (.method, 1)
        case "request_uri": return (.pathAndQuery, 1)
        case "uri", "document_uri": return (.path, 2)
        case "args", "query_string": return (.query, 2)
        case "status": return (.status, 0)
        case "upstream_status": return (.originStatus, 0)
        case "body_bytes_sent": return (.bytes, 0)
        case "bytes_sent": return (.bytes, 1)
        case "request_time": return (.duration(.seconds), 0)
        case "upstream_header_time": return (.originFirstByte(.seconds), 0)
        // The whole upstream response: an upper bound of the origin's first byte, and on a miss
        // the time the edge spent on the origin (`-` when served from cache). Second to
        // `$upstream_header_time` when both are logged.
        case "upstream_response_time": return (.originFirstByte(.seconds), 1)
        case "upstream_cache_status": return (.cacheResult, 0)
        case "request_id": return (.requestID, 0)
        case "host", "server_name": return (.host, 0)
        case "hostname": return (.pop, 0)
        default:
            if name.hasPrefix("http_") { return requestHeader(String(name.dropFirst(5))) }
            if name.hasPrefix("sent_http_") { return responseHeader(String(name.dropFirst(10))) }
            if name.hasPrefix("cookie_") { return (.personal, 0) }
            return nil
        }
    }
}

/// Apache httpd access logs with the `LogFormat` they were written with (`%` directives): `%t`
/// is when the request was received, `%{end:…}t` when the response was done; `%D` is the whole
/// response in microseconds.
package enum ApacheAccessLog: ConfigurableServerLog {
    package static let kind = "apache"
    package static let format = InputFormat("apache-access-log")
    package static let displayName = "Apache access log (LogFormat given)"
    package static let layoutHelp = "the LogFormat text: %h %l %u %t \"%r\" %>s %b %D …"

    package static func declaration(layout: String) throws(ConfigurationError) -> ServerLogDeclaration {
        try apacheLike(layout)
    }

    /// A template of Apache directives, Fastly's `%{…}V` among them.
    static func apacheLike(_ layout: String) throws(ConfigurationError) -> ServerLogDeclaration {
        let template = try LogFormatTemplate.apache(layout)
        var anchor: SourceSemantics.Anchor = .requestStart
        var resolution = 1.0
        for case .field(let name, _) in template.pieces {
            guard let time = ApacheDirective(name).time else { continue }
            if time.end { anchor = .requestEnd }
            resolution = time.resolution
            break
        }
        return try declaration(
            template: template, map: { ApacheDirective($0).meaning }, anchor: anchor, resolution: resolution)
    }
}

/// Fastly real-time log streaming, Apache-like (`%h %t "%r" %>s %{fastly_info.state}V …`) or a
/// JSON object whose values are such directives (`{"url":"%{json.escape(req.url)}V", …}`): `%t`
/// is when the request was received unless written `%{end:…}t`; VCL variables name the rest.
package enum FastlyLog: ConfigurableServerLog {
    package static let kind = "fastly"
    package static let format = InputFormat("fastly-log")
    package static let displayName = "Fastly log (format given)"
    package static let layoutHelp =
        "the logging endpoint's format: Apache-like directives, or a JSON object of them"

    package static func declaration(layout: String) throws(ConfigurationError) -> ServerLogDeclaration {
        let trimmed = layout.trimmingCharacters(in: " \t\n")
        guard trimmed.hasPrefix("{") else {
            var d = try ApacheAccessLog.apacheLike(layout)
            d.format = format
            d.displayName = displayName
            d.summary = "\(displayName), with the layout given"
            return d
        }
        var fields: [(name: String, field: ServerLogDeclaration.Field, rank: Int)] = []
        var anchor: SourceSemantics.Anchor = .requestStart
        var resolution = 1.0
        var timed = false
        for (key, value) in try JSONTemplate.members(trimmed) {
            // A value of one directive (quoted or bare) says what its key holds.
            guard let template = try? LogFormatTemplate.apache(value),
                case let names = template.pieces.compactMap({ p -> String? in
                    if case .field(let n, _) = p { n } else { nil }
                }), names.count == 1, let name = names.first
            else { continue }
            let directive = ApacheDirective(name)
            if let time = directive.time, !timed {
                timed = true
                if time.end { anchor = .requestEnd }
                resolution = time.resolution
            }
            if let m = directive.meaning { fields.append((key, m.field, m.rank)) }
        }
        let ordered = ranked(fields)
        return try checked(layout: .jsonLines, fields: ordered, anchor: anchor, resolution: resolution)
    }
}

/// Amazon CloudFront real-time logs: tab-separated rows with no header, the fields the real-time
/// log configuration selected in CloudFront's canonical order. `timestamp` (seconds since 1970,
/// to the millisecond) is when the edge finished responding; `cs-uri-stem` may carry the query.
package enum CloudFrontRealtimeLog: ConfigurableServerLog {
    package static let kind = "cloudfront-realtime"
    package static let format = InputFormat("cloudfront-realtime")
    package static let displayName = "Amazon CloudFront real-time log (fields given)"
    package static let layoutHelp = "the configuration's field names, in order: timestamp,c-ip,time-to-first-byte,…"

    package static func declaration(layout: String) throws(ConfigurationError) -> ServerLogDeclaration {
        let names = layout.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" })
            .map { $0.lowercased() }
        guard !names.isEmpty else { throw ConfigurationError.invalid("\(kind) log format: no field names") }
        if let unknown = names.first(where: { !Self.known.contains($0) }) {
            throw ConfigurationError.invalid(
                "\(kind) log format: '\(unknown)' is not a CloudFront real-time log field")
        }
        var fields: [(name: String, field: ServerLogDeclaration.Field, rank: Int)] = []
        for name in names { if let m = field(name) { fields.append((name, m.field, m.rank)) } }
        let ordered = ranked(fields)
        return try checked(
            layout: .delimited(separator: 0x09, columns: names), fields: ordered, anchor: .requestEnd,
            resolution: 0.001, requestIDHeader: "x-amz-cf-id")
    }

    static func field(_ name: String) -> (field: ServerLogDeclaration.Field, rank: Int)? {
        switch name {
        case "timestamp": (.timestamp, 0)
        case "c-ip": (.clientIP, 0)
        case "time-to-first-byte": (.firstByte(.seconds), 0)
        case "sc-status": (.status, 0)
        case "sc-bytes": (.bytes, 0)
        case "cs-method": (.method, 0)
        case "x-host-header": (.host, 0)
        case "cs-host": (.host, 1)
        case "cs-uri-stem": (.pathAndQuery, 0)
        case "cs-uri-query": (.query, 0)
        case "x-edge-location": (.pop, 0)
        case "x-edge-request-id": (.requestID, 0)
        case "time-taken": (.duration(.seconds), 0)
        case "cs-user-agent": (.encodedUserAgent, 0)
        case "cs-referer", "cs-cookie", "x-forwarded-for": (.personal, 0)
        case "x-edge-response-result-type": (.cacheResult, 0)
        case "x-edge-result-type": (.cacheResult, 1)
        case "x-edge-detailed-result-type": (.detail, 0)
        case "sc-range-start": (.rangeStart, 0)
        case "sc-range-end": (.rangeEnd, 0)
        case "origin-fbl": (.originFirstByte(.seconds), 0)
        case "cs-headers": (.encodedHeaders, 0)
        default:
            if let key = cmcdKeys[name] { (.cmcdKey(key), 0) } else { nil }
        }
    }

    /// The CMCD columns and the keys they hold.
    static let cmcdKeys: [String: String] = [
        "cmcd-encoded-bitrate": "br", "cmcd-buffer-length": "bl", "cmcd-buffer-starvation": "bs",
        "cmcd-content-id": "cid", "cmcd-object-duration": "d", "cmcd-deadline": "dl",
        "cmcd-measured-throughput": "mtp", "cmcd-next-object-request": "nor", "cmcd-next-range-request": "nrr",
        "cmcd-object-type": "ot", "cmcd-playback-rate": "pr", "cmcd-requested-maximum-throughput": "rtp",
        "cmcd-streaming-format": "sf", "cmcd-session-id": "sid", "cmcd-stream-type": "st", "cmcd-startup": "su",
        "cmcd-top-bitrate": "tb", "cmcd-version": "v",
    ]

    /// Every field a real-time log configuration can select (CloudFront Developer Guide,
    /// "Real-time log configuration fields"); a name outside it is a typing error, said at once.
    static let known: Set<String> = Set(
        [
            "timestamp", "c-ip", "time-to-first-byte", "sc-status", "sc-bytes", "cs-method", "cs-protocol", "cs-host",
            "cs-uri-stem", "cs-bytes", "x-edge-location", "x-edge-request-id", "x-host-header", "time-taken",
            "cs-protocol-version", "c-ip-version", "cs-user-agent", "cs-referer", "cs-cookie", "cs-uri-query",
            "x-edge-response-result-type", "x-forwarded-for", "ssl-protocol", "ssl-cipher", "x-edge-result-type",
            "fle-encrypted-fields", "fle-status", "sc-content-type", "sc-content-len", "sc-range-start",
            "sc-range-end", "c-port", "x-edge-detailed-result-type", "c-country", "cs-accept-encoding", "cs-accept",
            "cache-behavior-path-pattern", "cs-headers", "cs-header-names", "cs-headers-count",
            "primary-distribution-id", "primary-distribution-dns-name", "origin-fbl", "origin-lbl", "asn",
            "r-host", "sr-reason", "x-edge-mqcs", "s-ip", "distribution-tenant-id", "connection-id",
        ] + cmcdKeys.keys)
}
