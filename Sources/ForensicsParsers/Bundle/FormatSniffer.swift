import ForensicsCore

/// Recognises an input's format from its first bytes (after decompression), never from its name.
public enum FormatSniffer {
    /// How many leading bytes the sniffer looks at.
    public static let sniffLength = 64 * 1024

    public static func sniff(_ prefix: [UInt8]) -> InputFormat? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        guard let first = trimmed.first else { return nil }
        if first == "{" || first == "[" {
            if trimmed.contains("\"log\""), trimmed.contains("\"entries\"") || trimmed.contains("\"creator\"") {
                return .har
            }
            if trimmed.contains("\"AVMetric") || trimmed.contains("\"events\"") { return .metricEvents }
            return nil
        }
        if first == "#" {
            let lines = trimmed.split(separator: "\n", maxSplits: 64, omittingEmptySubsequences: true)
            for line in lines {
                if line.hasPrefix("#EXTM3U") || line.hasPrefix("#EXTINF") || line.hasPrefix("#EXT-X-") { return .playlist }
                if line.hasPrefix("#Fields:") {
                    let names = line.split(separator: " ")
                    return names.contains("status") || names.contains("comment") || names.contains("domain")
                        ? .errorLog : .accessLog
                }
            }
            if trimmed.hasPrefix("#Version:") || trimmed.hasPrefix("#Software:") || trimmed.hasPrefix("#Date:") {
                return .accessLog
            }
        }
        if text.contains("KTVHC") { return .cacheLog }
        return nil
    }
}
