import ForensicsCore

/// One `%` directive of an Apache `LogFormat` (mod_log_config) or of a Fastly log format, by its
/// template name (`%>s`, `%{X-Playback-Session-Id}i`, `%{fastly_info.state}V`): what it holds.
struct ApacheDirective {
    let letter: Character
    let argument: String?
    let final: Bool

    /// `%U%q` read as one field.
    let joinedPathAndQuery: Bool

    init(_ name: String) {
        joinedPathAndQuery = name == "%U%q"
        var rest = Substring(name.dropFirst())
        final = rest.hasPrefix(">")
        if final { rest = rest.dropFirst() }
        letter = rest.last ?? " "
        if rest.first == "{", let close = rest.lastIndex(of: "}") {
            argument = String(rest[rest.index(after: rest.startIndex)..<close])
        } else {
            argument = nil
        }
    }

    /// A time directive: whether it is the response's end, and its resolution.
    var time: (end: Bool, resolution: Double)? {
        switch letter {
        case "t":
            guard var format = argument else { return (false, 1) }
            var end = false
            if format.hasPrefix("end:") {
                end = true
                format.removeFirst(4)
            } else if format.hasPrefix("begin:") {
                format.removeFirst(6)
            }
            return (end, format == "msec" ? 0.001 : format == "usec" ? 1e-6 : 1)
        case "V":
            guard let v = argument.map(Self.unwrapped) else { return nil }
            if v.hasPrefix("time.start") { return (false, v.hasSuffix("sec") && v != "time.start.sec" ? 0.001 : 1) }
            if v.hasPrefix("time.end") { return (true, v.hasSuffix("sec") && v != "time.end.sec" ? 0.001 : 1) }
            return nil
        default: return nil
        }
    }

    /// What the directive fills, and its rank among directives filling the same part.
    var meaning: (field: ServerLogDeclaration.Field, rank: Int)? {
        if joinedPathAndQuery { return (.pathAndQuery, 1) }
        switch letter {
        case "h", "a": return (.clientIP, 0)
        case "l", "u": return (.personal, 0)
        case "t":
            guard var format = argument else { return (.commonLogTime, 0) }
            let end = format.hasPrefix("end:")
            for prefix in ["begin:", "end:"] where format.hasPrefix(prefix) { format.removeFirst(prefix.count) }
            // `msec_frac`, `usec_frac`, a zone or a date alone are parts of an instant, not one:
            // only an epoch count or a format with a date and a time is a row's time.
            let epoch = ["sec", "msec", "usec"].contains(format)
            let date = ["%Y", "%F", "%D", "%d", "%s"].contains { format.contains($0) }
            let time = ["%T", "%H", "%R", "%s"].contains { format.contains($0) }
            guard epoch || (date && time) else { return nil }
            return (end ? .end : .start, 0)
        case "r": return (.requestLine, 0)
        case "m": return (.method, 1)
        case "U": return (.path, 1)
        case "q": return (.query, 1)
        case "s": return (.status, final ? 0 : 1)
        case "b", "B": return (.bytes, 0)
        case "O": return (.bytes, 1)
        case "D": return (.duration(.microseconds), 0)
        case "T":
            switch argument {
            case "ms": return (.duration(.milliseconds), 0)
            case "us": return (.duration(.microseconds), 0)
            default: return (.duration(.seconds), 1)
            }
        case "v": return (.host, 2)
        case "V" where argument == nil: return (.host, 2)
        case "L": return (.requestID, 1)
        case "e" where argument?.uppercased() == "UNIQUE_ID": return (.requestID, 0)
        case "C": return (.personal, 0)
        case "i": return argument.flatMap(NginxAccessLog.requestHeader)
        case "o": return argument.flatMap(NginxAccessLog.responseHeader)
        case "V": return argument.flatMap { Self.vcl(Self.unwrapped($0)) }
        default: return nil
        }
    }

    /// A VCL expression without the escaping functions around it (`json.escape(req.url)`), or
    /// the variable a `strftime({"…"}, time.start)` formats.
    static func unwrapped(_ expression: String) -> String {
        var e = Substring(expression.trimmingCharacters(in: " "))
        for _ in 0..<4 {
            guard e.hasSuffix(")"), let open = e.firstIndex(of: "(") else { break }
            var inner = e[e.index(after: open)..<e.index(before: e.endIndex)]
            if let comma = inner.lastIndex(of: ",") { inner = inner[inner.index(after: comma)...] }
            e = Substring(inner.trimmingCharacters(in: " "))
        }
        return e.lowercased()
    }

    /// A Fastly VCL variable's meaning.
    static func vcl(_ v: String) -> (field: ServerLogDeclaration.Field, rank: Int)? {
        switch v {
        case "fastly_info.state": return (.cacheResult, 0)
        case "server.datacenter": return (.pop, 0)
        case "server.identity", "server.hostname": return (.pop, 1)
        case "client.ip": return (.clientIP, 0)
        case "req.url": return (.pathAndQuery, 0)
        case "req.url.path": return (.path, 0)
        case "req.url.qs": return (.query, 0)
        case "req.method", "req.request": return (.method, 0)
        case "resp.status": return (.status, 0)
        case "beresp.status": return (.originStatus, 0)
        case "resp.body_bytes_written": return (.bytes, 0)
        case "resp.bytes_written": return (.bytes, 1)
        case "time.elapsed.usec": return (.duration(.microseconds), 0)
        case "time.elapsed.msec": return (.duration(.milliseconds), 0)
        case "time.elapsed.sec", "time.elapsed": return (.duration(.seconds), 1)
        case "time.to_first_byte": return (.firstByte(.seconds), 0)
        case "req.xid": return (.requestID, 0)
        default:
            if v.hasPrefix("time.start") { return (.start, 0) }
            if v.hasPrefix("time.end") { return (.end, 0) }
            if v.hasPrefix("req.http.") { return NginxAccessLog.requestHeader(String(v.dropFirst(9))) }
            if v.hasPrefix("resp.http.") { return NginxAccessLog.responseHeader(String(v.dropFirst(10))) }
            return nil
        }
    }
}

/// The members of a JSON log template whose values are directives, not JSON (`{"s":%>s,
/// "url":"%{json.escape(req.url)}V"}`): each key with its value's text, a nested object's keys
/// written `outer.inner`. Quotes and braces inside a `%{…}` directive are part of it.
enum JSONTemplate {
    static func members(_ text: String) throws(ConfigurationError) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        var chars = Array(text)[...]
        try object(&chars, prefix: "", into: &out)
        guard !out.isEmpty else {
            throw ConfigurationError.invalid("fastly log format: a JSON template with no member")
        }
        return out
    }

    private static func skipSpace(_ c: inout ArraySlice<Character>) {
        while let f = c.first, f == " " || f == "\t" || f == "\n" || f == "\r" { c = c.dropFirst() }
    }

    private static func object(
        _ c: inout ArraySlice<Character>, prefix: String, into out: inout [(key: String, value: String)]
    ) throws(ConfigurationError) {
        skipSpace(&c)
        guard c.first == "{" else { throw ConfigurationError.invalid("fastly log format: '{' expected") }
        c = c.dropFirst()
        while true {
            skipSpace(&c)
            if c.first == "}" {
                c = c.dropFirst()
                return
            }
            if c.first == "," {
                c = c.dropFirst()
                continue
            }
            guard c.first == "\"" else { throw ConfigurationError.invalid("fastly log format: a quoted key expected") }
            c = c.dropFirst()
            var key = ""
            while let f = c.first, f != "\"" {
                key.append(f)
                c = c.dropFirst()
            }
            c = c.dropFirst()
            skipSpace(&c)
            guard c.first == ":" else {
                throw ConfigurationError.invalid("fastly log format: ':' expected after \"\(key)\"")
            }
            c = c.dropFirst()
            skipSpace(&c)
            if c.first == "{" {
                try object(&c, prefix: prefix + key + ".", into: &out)
                continue
            }
            // A value: to its closing quote, or to `,` / `}`, never inside a `%{…}`.
            let quoted = c.first == "\""
            if quoted { c = c.dropFirst() }
            var value = ""
            var depth = 0
            while let f = c.first {
                if depth == 0 {
                    if quoted, f == "\"" { break }
                    if !quoted, f == "," || f == "}" { break }
                    if quoted, f == "\\", c.count > 1 {
                        value.append(f)
                        c = c.dropFirst()
                        if let g = c.first { value.append(g) }
                        c = c.dropFirst()
                        continue
                    }
                }
                if f == "{", value.last == "%" || depth > 0 { depth += 1 }
                if f == "}", depth > 0 { depth -= 1 }
                value.append(f)
                c = c.dropFirst()
            }
            if quoted { c = c.dropFirst() }
            out.append((prefix + key, value.trimmingCharacters(in: " ")))
        }
    }
}
