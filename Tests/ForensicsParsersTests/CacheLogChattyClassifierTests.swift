import ForensicsCore
import Testing

@testable import ForensicsParsers

/// The byte-level classifier of progress chatter answers exactly what the general classifier
/// answers, and leaves to it every entry it is not sure of. Templates as the library's sources
/// write them (`KTVHCLogDownload(@"%p, Receive data - Begin\nLength : %lld\nURL : %@", …)`,
/// `KTVHCLogDataNetworkSource(@"%p, Receive data : %lld, %lld, %lld", …)`, …), in the record
/// file's layout (`date +0000  Tag<padding>  :   message`).
@Suite struct CacheLogChattyClassifierTests {
    /// The entry as the parser holds it when the next entry starts.
    static func pending(_ text: String) -> CacheLogPendingEntry {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let first = lines.removeFirst()
        var entry = CacheLogPendingEntry()
        first.withUnsafeBufferPointer { b in
            let head = CacheLogLine.head(b)
            entry.start(
                line: 1, time: head?.time, prefix: head?.prefix,
                body: UnsafeBufferPointer(rebasing: b[(head?.bodyStart ?? 0)...]))
        }
        for line in lines { line.withUnsafeBufferPointer { entry.appendContinuation($0) } }
        return entry
    }

    static func general(_ entry: CacheLogPendingEntry) -> ProxyEvent? {
        let texts = entry.entry()
        guard case .proxy(let e, _) = CacheLogClassifier.classify(texts, fullText: texts.fullText) else { return nil }
        return e
    }

    static let typed: [String] = [
        "2026-11-21 10:00:00 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Receive data : 16384, 32768, 5510872",
        "2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin\nLength : 16384\nURL : https://media.example.com/vod/clip-0.mp4",
        "2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - End\nLength : 16384\nURL : https://media.example.com/a/b.ts -- https://media.example.com/",
        "2026-11-21 10:00:00 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Complete and finisehed",
        "2026-11-21 10:00:00 +0000  KTVHCDataReader         :   0x283c94150, Create reader\nrequest : <KTVHCDataRequest: 0x281893b70>",
        "2026-11-21 10:00:00 +0000  KTVHCDataReader         :   0x283c94150, Read data : 16384",
        "2026-11-21 10:00:00 +0000  KTVHCDataFileSource     :   0x283c94150, Read data : 16384, 32768, 1048576",
        "2026-11-21 10:00:00 +0000  KTVHCHTTPResponse       :   0x283c94150, Create response\nrequest : <KTVHCDataUnit: 0x28111>, <KTVHCDataReader: 0x28222>",
        "2026-11-21 10:00:00 +0000  KTVHCHTTPConnection     :   0x283c94150, Read data : 16384",
        "2026-11-21 10:00:00 +0000  KTVHCDataUnitItem       :   0x283c94150, Set length : 16384",
        "2018-12-13 12:58:33.143562+0800 Demo[1234:5678] KTVHCDataNetworkSource  :   0x2835e8c60, Receive data : 1, 2, 3",
        "2026-11-21 10:00:00 +0000  KTVHCDataNetworkSource :   0x2835e8c60, Receive data : 1, 2, 3",
    ]

    @Test(arguments: typed)
    func chatterIsTypedAsTheGeneralClassifierTypesIt(text: String) throws {
        let entry = Self.pending(text)
        let fast = try #require(CacheLogChattyClassifier.classify(entry))
        #expect(fast == Self.general(entry))
    }

    @Test func theRunningTotalAndTheDownloadsURLAreRead() throws {
        let net = try #require(CacheLogChattyClassifier.classify(Self.pending(Self.typed[0])))
        #expect(net.kind == .networkData && net.contentLength == 32768 && net.pointer == "0x2835e8c60")
        let download = try #require(CacheLogChattyClassifier.classify(Self.pending(Self.typed[1])))
        #expect(download.kind == .downloadData && download.contentLength == 16384)
        #expect(download.url == "https://media.example.com/vod/clip-0.mp4")
        let relative = try #require(CacheLogChattyClassifier.classify(Self.pending(Self.typed[2])))
        #expect(relative.url == "https://media.example.com/a/b.ts")
        let response = try #require(CacheLogChattyClassifier.classify(Self.pending(Self.typed[7])))
        #expect(response.references == ["0x28222"])  // a cache unit ties no request together
    }

    /// Near misses: an error, a range, headers, a non-ASCII byte, a legacy message without a
    /// pointer, an unknown module — each goes to the general classifier.
    static let untouched: [String] = [
        "2026-11-21 10:00:00 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Callback for failed\nError : Error Domain=NSURLErrorDomain Code=-1001 \"timed out\"",
        "2026-11-21 10:00:00 +0000  KTVHCDataNetworkSource  :   0x2835e8c60, Create network source\nRange : {0, 1}",
        "2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x2804f1e30, Complete\nError : (null)",
        "2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x2804f1e30, Receive response\nresponse : <NSHTTPURLResponse: 0x1> { URL: https://a/b } { Status Code: 404, Headers {\n} }",
        "2026-11-21 10:00:00 +0000  KTVHCHTTPResponse       :   0x283c94150, Content length : 1024",
        "2026-11-21 10:00:00 +0000  KTVHCDataRequest        :   0x283c94150, Create data request\nURL : https://a/b",
        "2026-11-21 10:00:00 +0000  KTVHCDownload           :   0x2804f1e30, Receive data - Begin\nLength : 16384\nURL : https://media.example.com/vidéo.mp4",
        "2026-11-21 10:00:00 +0000  KTVHCDataNetworkSource  :   receive data, 16384",
        "2026-11-21 10:00:00 +0000  KTVHCNewModule          :   0x2835e8c60, Receive data : 1, 2, 3",
        "2026-11-21 10:00:00 +0000  <KTVHCDataReader: 0x283c94150>  :   alloc",
    ]

    @Test(arguments: untouched)
    func entriesItIsNotSureOfGoToTheGeneralClassifier(text: String) {
        #expect(CacheLogChattyClassifier.classify(Self.pending(text)) == nil)
    }

    @Test func asciiCheckReadsEveryByte() {
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                var bytes = [UInt8](repeating: 0x41, count: length)
                if length > 0 { bytes[position] = 0xC3 }
                let ascii = bytes.withUnsafeBufferPointer(\.isASCII)
                #expect(ascii == (length == 0), "length \(length), high byte at \(position)")
            }
        }
    }
}
