import ForensicsCore
import Testing

@testable import ForensicsCorrelation

/// When a server row's status can be the client's view of the same request (probe M): equal,
/// both successes, a row of a client that went away, or a side that saw no status. Each branch
/// and its near miss.
@Suite struct JoinStatusTests {
    func client(_ status: Int?) -> RequestJoiner.ClientRequest {
        RequestJoiner.ClientRequest(
            entry: 0, path: "/a/s1.ts", host: nil, query: nil, rangeStart: 0, start: 0, end: 1, kind: .segment,
            headers: [:], status: status)
    }

    func row(_ status: Int?, closed: Bool = false) -> ServerRequest {
        var r = ServerRequest(path: "/a/s1.ts", raw: "")
        r.status = status
        r.clientClosed = closed
        return r
    }

    @Test func statusesAgreeOrNot() {
        #expect(RequestJoiner.statusAgrees(row(404), client(404)))
        #expect(!RequestJoiner.statusAgrees(row(200), client(404)))
        #expect(!RequestJoiner.statusAgrees(row(503), client(404)))
        #expect(RequestJoiner.statusAgrees(row(206), client(200)))
        #expect(RequestJoiner.statusAgrees(row(304), client(200)))
        #expect(!RequestJoiner.statusAgrees(row(302), client(200)))
        #expect(RequestJoiner.statusAgrees(row(nil, closed: true), client(404)))
        #expect(RequestJoiner.statusAgrees(row(499), client(404)))
        #expect(RequestJoiner.statusAgrees(row(200), client(nil)))
        #expect(RequestJoiner.statusAgrees(row(nil), client(404)))
    }
}
