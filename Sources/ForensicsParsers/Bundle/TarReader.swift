/// Reads a tar stream (ustar, GNU long names, pax `path`) member by member, without seeking, so a
/// `.tar.gz` is processed in one pass with bounded memory.
final class TarReader {
    struct Header {
        var name: String
        var size: Int
        var isRegularFile: Bool
    }

    /// Members skipped because they are not regular files: the first `maxSkippedNamed` by name
    /// and kind, the rest counted.
    private(set) var skippedEntries: [(name: String, kind: String)] = []
    private(set) var skippedUnnamed = 0
    static let maxSkippedNamed = 20
    static let unreadKinds: [UInt8: String] = [
        0x31: "a hard link", 0x32: "a symbolic link", 0x33: "a character device", 0x34: "a block device",
        0x36: "a FIFO",
    ]

    private var source: any ByteSource
    private var buffer: [UInt8] = []
    private var offset = 0
    /// Bytes of the current member body not yet consumed, and its padding.
    private var remaining = 0
    private var padding = 0
    let name: String

    init(_ source: any ByteSource, name: String) {
        self.source = source
        self.name = name
    }

    /// True when the bytes look like a tar header (the `ustar` magic, or a valid header checksum).
    static func looksLikeTar(_ b: [UInt8]) -> Bool {
        guard b.count >= 512 else { return false }
        if b[257] == 0x75, b[258] == 0x73, b[259] == 0x74, b[260] == 0x61, b[261] == 0x72 { return true }
        guard let stored = octal(b[148..<156]) else { return false }
        var sum = 0
        for i in 0..<512 { sum += (148..<156).contains(i) ? 32 : Int(b[i]) }
        return sum == stored && b[0] != 0
    }

    private func fill(_ count: Int) throws -> Bool {
        while buffer.count - offset < count {
            if offset > 0 {
                buffer.removeSubrange(0..<offset)
                offset = 0
            }
            guard let chunk = try source.nextChunk() else { return false }
            buffer.append(contentsOf: chunk)
        }
        return true
    }

    private func take(_ count: Int) throws -> ArraySlice<UInt8>? {
        guard try fill(count) else { return nil }
        defer { offset += count }
        return buffer[offset..<(offset + count)]
    }

    private func skip(_ count: Int) throws {
        var left = count
        while left > 0 {
            let available = buffer.count - offset
            if available == 0 {
                guard try fill(1) else {
                    throw InputError.corruptCompression(path: name, reason: "tar member truncated")
                }
                continue
            }
            let n = min(left, available)
            offset += n
            left -= n
        }
    }

    /// The next regular-file header; skips directories, links and metadata entries.
    func nextHeader() throws -> Header? {
        try skip(remaining + padding)
        remaining = 0
        padding = 0
        var longName: String?
        while true {
            guard let block = try take(512) else { return nil }
            if block.allSatisfy({ $0 == 0 }) { return nil }
            let b = Array(block)
            guard TarReader.looksLikeTar(b) else {
                throw InputError.corruptCompression(path: name, reason: "invalid tar header")
            }
            // Sizes beyond `maxMemberSize` (a base-256 field can say nearly Int.max) are corrupt, and
            // would overflow the skip arithmetic below.
            guard let size = TarReader.size(b[124..<136]), size >= 0, size <= TarReader.maxMemberSize else {
                throw InputError.corruptCompression(path: name, reason: "invalid tar member size")
            }
            let type = b[156]
            let pad = (512 - size % 512) % 512
            var entryName = longName ?? TarReader.string(b[0..<100])
            if longName == nil, b[257] == 0x75 {
                let prefix = TarReader.string(b[345..<500])
                if !prefix.isEmpty { entryName = prefix + "/" + entryName }
            }
            switch type {
            case 0x4C, 0x78:  // 'L' GNU long name, 'x' pax header
                guard size <= 1 << 20, let data = try take(size) else {
                    throw InputError.corruptCompression(path: name, reason: "invalid long name header")
                }
                try skip(pad)
                longName = type == 0x4C ? TarReader.string(data) : TarReader.paxPath(data)
                continue
            case 0x30, 0x00, 0x37:  // regular file
                remaining = size
                padding = pad
                return Header(name: entryName, size: size, isRegularFile: true)
            default:
                // Links, devices and FIFOs are never followed or read; they are named (the first
                // few), so that nothing in the archive vanishes without a word.
                if let kind = Self.unreadKinds[type], !entryName.isEmpty {
                    if skippedEntries.count < Self.maxSkippedNamed {
                        skippedEntries.append((entryName, kind))
                    } else {
                        skippedUnnamed += 1
                    }
                }
                try skip(size + pad)
                longName = nil
            }
        }
    }

    /// The current member's body as a byte source (valid until the next `nextHeader`).
    func memberSource() -> any ByteSource { MemberSource(reader: self) }

    fileprivate func readBody() throws -> [UInt8]? {
        guard remaining > 0 else { return nil }
        if buffer.count - offset == 0 {
            guard try fill(1) else { throw InputError.corruptCompression(path: name, reason: "tar member truncated") }
        }
        let n = min(remaining, buffer.count - offset, 1 << 20)
        let out = Array(buffer[offset..<(offset + n)])
        offset += n
        remaining -= n
        return out
    }

    private struct MemberSource: ByteSource {
        let reader: TarReader
        mutating func nextChunk() throws -> [UInt8]? { try reader.readBody() }
    }

    static func string(_ s: ArraySlice<UInt8>) -> String {
        String(decoding: s.prefix(while: { $0 != 0 }), as: UTF8.self)
    }

    static func octal(_ s: ArraySlice<UInt8>) -> Int? {
        var v = 0
        var any = false
        for c in s {
            if c == 0 || c == 32 { if any { break } else { continue } }
            guard c >= 48, c <= 55 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 8)
            let (a, o2) = m.addingReportingOverflow(Int(c - 48))
            guard !o1, !o2 else { return nil }
            v = a
            any = true
        }
        return any ? v : nil
    }

    /// The largest member size believed (1 TiB): far beyond any log, far below overflow.
    static let maxMemberSize = 1 << 40

    /// Octal, or GNU base-256 for large sizes (a negative base-256 value is rejected).
    static func size(_ s: ArraySlice<UInt8>) -> Int? {
        if let first = s.first, first & 0x80 != 0 {
            // 0xFF…: two's-complement negative.
            if first & 0x40 != 0 { return nil }
            var v = 0
            for (i, c) in s.enumerated() {
                let byte = i == 0 ? Int(c & 0x7F) : Int(c)
                let (m, o1) = v.multipliedReportingOverflow(by: 256)
                let (a, o2) = m.addingReportingOverflow(byte)
                guard !o1, !o2 else { return nil }
                v = a
            }
            return v
        }
        return octal(s)
    }

    static func paxPath(_ data: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        for record in text.split(separator: "\n") {
            guard let space = record.firstIndex(of: " ") else { continue }
            let kv = record[record.index(after: space)...]
            if kv.hasPrefix("path=") { return String(kv.dropFirst(5)) }
        }
        return nil
    }
}
