import ForensicsCore
import ForensicsParsers
import Foundation

/// Runs one in-memory file through the real ingest path (gunzip, sniff, parse).
package func ingest(_ name: String, _ bytes: [UInt8], format: InputFormat? = nil) -> Ingestor.Outcome {
    Ingestor(forcedFormat: format).ingest(BundleMember(path: name, open: { MemoryByteSource(bytes) }))
}

package func ingest(_ name: String, _ text: String, format: InputFormat? = nil) -> Ingestor.Outcome {
    ingest(name, Array(text.utf8), format: format)
}

/// A HAR document with one entry whose response body is `body` (base64 when asked).
package func harDocument(url: String, body: String, base64: Bool, gzipBody: Bool = false) -> String {
    var bytes = Array(body.utf8)
    if gzipBody { bytes = GzipCompressor.compress(bytes) }
    let text: String
    if base64 || gzipBody {
        text = Data(bytes).base64EncodedString()
    } else {
        var escaped = ""
        for ch in body.unicodeScalars {
            switch ch {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.unicodeScalars.append(ch)
            }
        }
        text = escaped
    }
    let encoding = base64 || gzipBody ? ",\"encoding\":\"base64\"" : ""
    return """
        {"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[
        {"startedDateTime":"2026-11-21T10:00:00.000Z","time":50,"request":{"method":"GET","url":"\(url)","headers":[]},"response":{"status":200,"headers":[{"name":"Content-Type","value":"application/vnd.apple.mpegurl"}],"content":{"size":\(body.utf8.count),"mimeType":"application/vnd.apple.mpegurl","text":"\(text)"\(encoding)}}}
        ]}}
        """
}

import Foundation
