import ForensicsCore
import ForensicsTestSupport
import Foundation
import Testing

@testable import ForensicsParsers

/// CMCD (CTA-5004 v1, CTA-5004-B v2) as players send it — the query argument, the four headers —
/// from the shared corpus (Common Media Library's test vectors, Bitmovin's and dash.js's
/// requests), read leniently, non-conformance counted.
@Suite struct CMCDTests {
    static let cdn = TestPaths.corpus.appendingPathComponent("real-world/cdn")

    func text(_ name: String) throws -> String {
        try String(contentsOf: Self.cdn.appendingPathComponent(name), encoding: .utf8)
    }

    /// The quoted payload of a `const NAME = '…'` line of a test vector file, unescaped as
    /// JavaScript would (`\\` is one backslash).
    func vector(_ line: Substring) -> Substring {
        let body = line.drop { $0 != "'" }.dropFirst().prefix { $0 != "'" }
        return Substring(body.replacingOccurrences(of: "\\\\", with: "\\"))
    }

    @Test func theV1TestVectorReadsEveryKey() throws {
        let line = try #require(try text("cml-cmcd-v1-string-testvector.ts").split(separator: "\n").first)
        let c = CMCDPayload(vector(line))
        #expect(c.values["sid"] == "session-id")
        #expect(c.values["cid"] == "content-id")
        #expect(c.values["bs"] == "true")
        #expect(c.values["su"] == "true")
        #expect(c.number("bl") == 5000)
        #expect(c.number("br") == 200)
        #expect(c.values["ot"] == "m")
        #expect(c.values["st"] == "v")
        #expect(c.values["com.example-quote"] == "\"Quote\"")
        #expect(c.nonConformant == 0)
    }

    @Test func theV2HeadersMergeWithInnerLists() throws {
        var c = CMCDPayload()
        for line in try text("cml-cmcd-v2-headers-testvector.ts").split(separator: "\n") where line.contains("'CMCD-") {
            let value = line.split(separator: ":", maxSplits: 1).last.map { vector($0) } ?? ""
            c.merge(CMCDPayload(value))
        }
        #expect(c.values["sid"] == "session-id")
        #expect(c.values["v"] == "2")
        #expect(c.number("bl") == 5000, "inner list (5000)")
        #expect(c.number("mtp") == 10000)
        // An inner list of strings keeps its members (without their quotes).
        #expect(c.values["ec"] == "(ERR001 ERR002)")
    }

    @Test func dashJSQueriesCarryTheSessionInTheQuery() throws {
        let lines = try text("cmcd-dashjs-queries.txt").split(separator: "\n")
        #expect(lines.count >= 5)
        for line in lines {
            let query = try #require(line.split(separator: "?", maxSplits: 1).last)
            let c = try #require(CMCDPayload.fromQuery(query), "\(line)")
            #expect(c.values["sid"] == "b248658d-1d1a-4039-91d0-8c08ba597da5")
            #expect(c.values["sf"] == "d")
            #expect(c.nonConformant == 0)
        }
    }

    @Test func bitmovinURLLinesAndHeaderLinesAgree() throws {
        let url = try text("cmcd-bitmovin-8.100-url.log").split(separator: "\n").filter { $0.hasPrefix("CMCD=") }
        #expect(url.count > 10)
        for line in url {
            let c = try #require(CMCDPayload.fromQuery(line))
            #expect(c.values["sid"] == "6e2fb550-c457-11e9-bb97-0800200c9a66")
        }
        let headers = try text("cmcd-bitmovin-8.100-headers.log").split(separator: "\n").filter {
            $0.hasPrefix("{CMCD")
        }
        #expect(headers.count > 10)
        for line in headers {
            // `{CMCD-Request: '…', CMCD-Object: '…', CMCD-Session: '…'}`
            var c = CMCDPayload()
            for part in line.split(separator: "'").enumerated() where part.offset % 2 == 1 {
                c.merge(CMCDPayload(part.element))
            }
            #expect(c.values["sid"] == "6e2fb550-c457-11e9-bb97-0800200c9a66")
        }
    }

    /// dash.js's request headers as a CDN logs them: the session header for the join comes from
    /// `CMCD-Session`'s `sid`.
    @Test func requestHeadersGiveTheSessionForTheJoin() throws {
        let block = try text("cmcd-dashjs-request-headers.txt").components(separatedBy: "\n\n").first ?? ""
        var r = ServerRequest(path: "/", raw: "")
        var c = CMCDPayload()
        ServerRowReader.readHeaders(block, into: &r, cmcd: &c)
        #expect(c.values["sid"] == "b62ac932-1967-4368-8e9a-31df70ef2bc5")
        #expect(c.number("bl") == 31700)
        #expect(c.values["ot"] == "a")
    }

    /// Lenient, and says so: a duplicated key keeps its first value, an unbalanced quote and an
    /// empty key are counted, nothing is dropped silently and nothing crashes.
    @Test func nonConformantPayloadsAreReadAndCounted() {
        let c = CMCDPayload("br=100,br=200,=5,sid=\"open")
        #expect(c.values["br"] == "100")
        #expect(c.nonConformant == 3)
        #expect(c.values["sid"] == "open")
        // Near miss: a conformant payload counts nothing.
        #expect(CMCDPayload("br=100,sid=\"s\",su").nonConformant == 0)
    }
}
