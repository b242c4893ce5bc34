import Foundation
import ForensicsCore

/// KTVHTTPCache logs written from the library's format strings at each release line (its
/// `KTVHCLog…(…)` call sites at tags 1.0.4, 1.1.7, 2.0.1 and 3.1.0), for the stories users send:
/// a cache miss, a cache hit, an origin 404, a Content-Type rejection and a server restart.
/// 1.0.x and 3.x are written as record-log files (UTC `NSDate` prefix), 1.1.x and 2.x as console
/// output (NSLog prefix with the process), as users paste them.
enum KTVHTTPCacheFixtures {
    enum Line: String, CaseIterable, Sendable { case v1_0 = "1.0.x", v1_1 = "1.1.x", v2 = "2.x", v3 = "3.x" }
    enum Story: String, CaseIterable, Sendable {
        case cacheMiss = "cache miss", cacheHit = "cache hit", origin404 = "origin 404"
        case contentTypeRejected = "content-type rejection", serverRestart = "server restart"
    }

    static let url = "https://media.example.com/vod/clip-042.mp4"
    static let session = "9A1E44C2-7D3B-4C55-8E21-0F6A2B9C1D77"

    /// The proxy path a player request arrives on, per release line.
    static func proxyPath(_ v: Line) -> String {
        let enc = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
        switch v {
        case .v1_0, .v2: return "/request.mp4?url=\(enc)"
        case .v1_1: return "/request.mp4?requestType=content&originalURL=\(enc)"
        case .v3: return "/\(enc)/KTVHTTPCachePlaceHolder/KTVHTTPCacheLastPathComponent.mp4"
        }
    }

    static func port(_ v: Line) -> Int { v == .v2 ? 80 : 52814 }

    static func date(_ v: Line) -> String {
        switch v {
        case .v1_0: "2018-05-20"
        case .v1_1: "2018-09-01"
        case .v2: "2019-06-01"
        case .v3: "2025-07-01"
        }
    }

    /// The 22-character padded tag, as `KTVHCLog.h` defines it.
    static func tag(_ t: String) -> String { t.padding(toLength: 22, withPad: " ", startingAt: 0) }

    /// The whole log of one story at one release line.
    static func log(_ v: Line, _ story: Story) -> String {
        var entries: [(String, String)] = []  // (tag, message)
        func add(_ t: String, _ m: String) { entries.append((t, m)) }
        let modern = v != .v1_0
        let errorDomain = "KTVHTTPCache error"
        let response = { (status: Int, type: String) in
            "<NSHTTPURLResponse: 0x2837c4a20> { URL: \(url) } { Status Code: \(status), Headers {\n    \"Content-Type\" =     (\n        \"\(type)\"\n    );\n} }"
        }
        // Server start and the player's request.
        add("KTVHCHTTPServer", modern ? "0x2811c4f60, Start server success" : "start server success")
        if story == .serverRestart {
            switch v {
            case .v1_0:
                add("KTVHCHTTPServer", "ping failured 1")
                add("KTVHCHTTPServer", "ping result, 0")
                add("KTVHCHTTPServer", "restart begin")
                add("KTVHCHTTPServer", "restart server success")
                add("KTVHCHTTPServer", "restart end")
            case .v1_1:
                add("KTVHCHTTPServer", "0x2811c4f60, Ping\nsuccess : 0\nindex : 0")
                add("KTVHCHTTPServer", "0x2811c4f60, Ping result : 0")
                add("KTVHCHTTPServer", "0x2811c4f60, Restart connection count : 0")
                add("KTVHCHTTPServer", "0x2811c4f60, Restart server success")
            case .v2:
                add("KTVHCHTTPServer", "0x2811c4f60, enter background and stop server")
                add("KTVHCHTTPServer", "0x2811c4f60, enter foreground")
                add("KTVHCHTTPServer", "0x2811c4f60, restart server")
                add("KTVHCHTTPServer", "0x2811c4f60, Start server success")
            case .v3:
                add("KTVHCHTTPServer", "0x2811c4f60, ping server")
                add("KTVHCHTTPServer", "0x2811c4f60, Start server success")
            }
        }
        let path = proxyPath(v)
        if modern {
            add(
                "KTVHCHTTPConnection",
                "0x2837f0a80, Receive request\nmethod : GET\npath : \(path)\nURL : \(path) -- http://localhost:\(port(v))/"
            )
            if v == .v3 { add("KTVHCHTTPConnection", "0x2837f0a80, Accept request\nURL : \(url)") }
            if v == .v1_1 {
                add(
                    "KTVHCHTTPRequest",
                    "0x2826f1c00, Create reqeust\nURL : \(url)\nHeaders : {\n    Range = \"bytes=0-1\";\n}")
            }
            add(
                "KTVHCDataRequest",
                "0x280d2c780 Create data request\nURL : \(url)\nHeaders : {\n    Range = \"bytes=0-1\";\n    \"X-Playback-Session-Id\" = \"\(session)\";\n}\nRange : Range : {0, 1}"
            )
            add("KTVHCHTTPResponse", "0x2835b0c60, Create response\nrequest : <KTVHCDataRequest: 0x280d2c780>")
            add(
                "KTVHCDataReader",
                "0x283c94150, Create reader\norignalRequest : <KTVHCDataRequest: 0x280d2c780>\nfinalRequest : <KTVHCDataRequest: 0x280d2c780>\nUnit : <KTVHCDataUnit: 0x2839a0b40>"
            )
        } else {
            add("KTVHCHTTPConnection", "receive request, GET, \(path)")
            add(
                "KTVHCDataRequest",
                "did setup\n\(url)\nrange, 0, 1\n{\n    Range = \"bytes=0-1\";\n    \"X-Playback-Session-Id\" = \"\(session)\";\n}"
            )
            add("KTVHCDataReader", "call prepare\n\(url)\n{\n    Range = \"bytes=0-1\";\n}")
        }
        switch story {
        case .cacheHit:
            if modern {
                add(
                    "KTVHCDataFileSource",
                    "0x2805d8e80, Create file source\npath : /var/mobile/Documents/KTVHTTPCache/d4/d4_0_0\nrange : Range : {0, 1}\nreadRange : Range : {0, 1}"
                )
                add("KTVHCDataFileSource", "0x2805d8e80, Read data : 2, 2, 2")
                add("KTVHCHTTPResponse", "0x2835b0c60, Connection did closed : 2, 2")
            } else {
                add("KTVHCDataFileSource", "did setup, 0, 2, 0, 2")
                add("KTVHCDataFileSource", "read data : 2, 2, 2")
                add("KTVHCHTTPResponse", "connection did close, 2, 2")
            }
        case .cacheMiss, .serverRestart, .origin404, .contentTypeRejected:
            if modern {
                add(
                    "KTVHCDataNetworkSource",
                    "0x2835e8c60, Create network source\nrequest : <KTVHCDataRequest: 0x280d2c990>\nrange : Range : {0, 1}"
                )
                add(
                    "KTVHCDownload",
                    "0x2804f1e30, Add Request\nrequest : <KTVHCDataRequest: 0x280d2c990>\nURL : \(url)\nheaders : {\n    Range = \"bytes=0-1\";\n}\nHTTPRequest headers : {\n    Range = \"bytes=0-1\";\n}\nCount : 1"
                )
            } else {
                add(
                    "KTVHCDataNetworkSource",
                    "did setup\n\(url)\n{\n    Range = \"bytes=0-1\";\n}\n(\n    \"video/\"\n)\noffset, 0, length, 2")
                add("KTVHCDownload", "add download begin\n\(url)\n{\n    Range = \"bytes=0-1\";\n}")
            }
        }
        switch story {
        case .cacheMiss, .serverRestart:
            if v == .v3 {
                add(
                    "KTVHCDownload",
                    "0x2804f1e30, Receive response\nrequest : <KTVHCDataRequest: 0x280d2c990>\nresponse : <KTVHCDataResponse: 0x2806e9b80>\nHTTPResponse : \(response(206, "video/mp4"))"
                )
            } else if modern {
                add(
                    "KTVHCDownload",
                    "0x2804f1e30, Receive response\nrequest : <KTVHCDataRequest: 0x280d2c990>\nresponse : <KTVHCDataResponse: 0x2806e9b80>\nHTTPResponse : {\n    \"Content-Type\" = \"video/mp4\";\n}"
                )
            } else {
                add("KTVHCDownload", "receive response\n\(url)\n{\n    \"Content-Type\" = \"video/mp4\";\n}")
            }
            if modern {
                add("KTVHCDataNetworkSource", "0x2835e8c60, Receive data : 2, 2, 2")
                add("KTVHCDownload", "0x2804f1e30, Complete\nError : (null)")
                add("KTVHCDataNetworkSource", "0x2835e8c60, Complete and finisehed")
                add("KTVHCHTTPResponse", "0x2835b0c60, Connection did closed : 2, 2")
            } else {
                add("KTVHCDataNetworkSource", "receive data, 2, 2, 2")
                add("KTVHCDownload", "complete, 0, \(url)")
                add("KTVHCDataNetworkSource", "complete by donwload finished, \(url)")
            }
        case .origin404, .contentTypeRejected:
            let is404 = story == .origin404
            let status = is404 ? 404 : 200
            let type = is404 ? "text/html" : "video/mp4;charset=GBK"
            if modern {
                // 3.0 renumbered the codes: 404 is -192703 (was -192700), Content-Type -192704 (was -192701).
                let code = v == .v3 ? (is404 ? -192703 : -192704) : (is404 ? -192700 : -192701)
                let error =
                    "Error Domain=\(errorDomain) Code=\(code) \"(null)\" UserInfo={KTVHCErrorUserInfoKeyRequest=<NSMutableURLRequest: 0x281a06c20> { URL: \(url) }, KTVHCErrorUserInfoKeyURL=\(url), KTVHCErrorUserInfoKeyResponse=\(response(status, type))}"
                add("KTVHCDownload", "0x2804f1e30, Invaild response\nError : \(error)")
                add(
                    "KTVHCDownload",
                    "0x2804f1e30, Complete\nError : Error Domain=NSURLErrorDomain Code=-999 \"cancelled\" UserInfo={NSErrorFailingURLStringKey=\(url)}"
                )
                add("KTVHCDataNetworkSource", "0x2835e8c60, Callback for failed\nError : \(error)")
                add("KTVHCDataSourceManager", "failure, \(code)")
                add(
                    "KTVHCDataSourceManager",
                    "0x2836a1b80, Callback for network source failed - Begin\nError : \(error)")
                add("KTVHCDataReader", "0x283c94150, Callback for failed - Begin\nError : \(error)")
                add("KTVHCHTTPResponse", "0x2835b0c60, Failed\nError : \(error)")
            } else {
                let reason = is404 ? "status code error" : "content type error"
                let domain = is404 ? "KTVHCErrorDomainResponseUnavailable" : "KTVHCErrorDomainUnsupportTheContent"
                let code = is404 ? -192700 : -192701
                add(
                    "KTVHCDataNetworkSource",
                    "response error\n\(url)\n\(reason)\n\(url)\n{\n    \"Content-Type\" = \"\(type)\";\n}")
                add("KTVHCDownload", "complete, -999, \(url)")
                add("KTVHCDataNetworkSource", "complete by error, \(url), -999")
                add("KTVHCDataSourcer", "network source failure, \(code)")
                add("KTVHCDataSourcer", "failure, \(code)")
                add("KTVHCDataReader", "callback for failure begin, \(url), \(code)")
                add(
                    "KTVHCDataReader",
                    "record error : Error Domain=\(domain) Code=\(code) \"(null)\" UserInfo={KTVHCErrorUserInfoKeyURLString=\(url)}"
                )
                add("KTVHCHTTPResponse", "failure, \(code), \(url)")
            }
        case .cacheHit:
            break
        }
        // Render: record file (1.0.x, 3.x) or console (1.1.x, 2.x), one second apart.
        var out: [String] = []
        for (i, (t, m)) in entries.enumerated() {
            let second = i < 10 ? "0\(i)" : "\(i % 60)"
            let body = "\(tag(t))  :   \(m)"
            if v == .v1_0 || v == .v3 {
                out.append("\(date(v)) 10:00:\(second) +0000  \(body)")
            } else {
                out.append("\(date(v)) 18:00:\(second).\(100_000 + i)+0800 PlayerApp[4127:1893344] \(body)")
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// 2.x's restart story as users hit it: the player's error log shows it could not connect.
    static func errorLogForRestart(_ v: Line) -> String? {
        guard v == .v2 else { return nil }
        let enc = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
        return """
            #Version: 1.0
            #Software: AppleCoreMedia/1.0.0.16F203 (iPhone; U; CPU OS 12_3 like Mac OS X; zh_cn)
            #Date: 2019/06/01 18:00:02.002
            #Fields: date time uri cs-guid s-ip status domain comment cs-iftype
            2019/06/01 18:00:02.002 http://localhost:80/request.mp4?url=\(enc) \(session) 127.0.0.1 -1004 "NSURLErrorDomain" "Could not connect to the server." en0

            """
    }
}
