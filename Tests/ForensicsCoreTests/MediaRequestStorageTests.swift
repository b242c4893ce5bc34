import Testing

@testable import ForensicsCore

/// A request and a timeline entry are stored compactly (presence bits, a shared details box) and
/// must still read and behave as plain values: what is set reads back, nil stays nil (never 0),
/// and changing one request never changes another that shares its box.
@Suite struct MediaRequestStorageTests {
    @Test func everyOptionalReadsBackWhatWasSetAndNilStaysNil() {
        var r = MediaRequest(kind: .segment, url: "https://h.example/s1.m4s")
        #expect(r.status == nil && r.start == nil && r.end == nil && r.bytes == nil && r.segmentDuration == nil)
        #expect(r.byteRange == nil && r.error == nil && r.requestHeaders.isEmpty && r.bodySize == nil)
        r.status = 0
        r.bytes = 0
        r.start = Timestamp(0)
        r.segmentDuration = -0.0
        // Zero is a value, not "unknown".
        #expect(r.status == 0 && r.bytes == 0 && r.start == Timestamp(0) && r.segmentDuration == 0)
        #expect(r.end == nil)
        r.status = Int.max
        r.bytes = Int64.min
        r.end = Timestamp(1_790_000_000.125)
        #expect(r.status == Int.max && r.bytes == Int64.min && r.end == Timestamp(1_790_000_000.125))
        r.status = nil
        r.bytes = nil
        #expect(r.status == nil && r.bytes == nil)
        r.byteRange = ByteRange(offset: 0, length: 100)
        r.bodySize = 0
        #expect(r.byteRange == ByteRange(offset: 0, length: 100) && r.bodySize == 0)
        r.byteRange = nil
        r.bodySize = nil
        #expect(r.details.isEmpty)
        #expect(
            r
                == MediaRequest(
                    kind: .segment, url: "https://h.example/s1.m4s", start: Timestamp(0), end: r.end,
                    status: nil, segmentDuration: 0))
    }

    @Test func equalRequestsAreEqualAndHashAlikeWhateverTheirHistory() {
        var a = MediaRequest(kind: .segment, url: "u", status: 200)
        a.status = 404
        a.status = nil
        a.contentType = "video/mp4"
        a.contentType = nil
        let b = MediaRequest(kind: .segment, url: "u")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != MediaRequest(kind: .segment, url: "u", status: 0))
    }

    @Test func requestsThatShareDetailsStayIndependentValues() {
        var sharing = MediaRequest.DetailsSharing()
        var details = MediaRequest.Details()
        details.responseHeaders = ["Content-Type": "video/mp4", "Age": "3"]
        details.serverAddress = "192.0.2.1"
        var first = MediaRequest(kind: .segment, url: "https://h.example/s1.m4s")
        var second = MediaRequest(kind: .segment, url: "https://h.example/s2.m4s")
        sharing.set(details, on: &first)
        sharing.set(details, on: &second)
        #expect(second.sharesDetailsBox(with: first))
        // Changing one changes only that one.
        second.responseHeaders["Age"] = "9"
        second.error = ErrorInfo(domain: "NSURLErrorDomain", code: -1001, description: nil)
        #expect(first.responseHeaders["Age"] == "3" && first.error == nil)
        #expect(second.responseHeaders["Age"] == "9" && second.error?.code == -1001)
        #expect(!second.sharesDetailsBox(with: first))
        // Different details get their own box; empty details none.
        var third = MediaRequest(kind: .segment, url: "https://h.example/s3.m4s")
        var other = details
        other.serverAddress = "192.0.2.2"
        sharing.set(other, on: &third)
        #expect(!third.sharesDetailsBox(with: first) && third.serverAddress == "192.0.2.2")
        sharing.set(MediaRequest.Details(), on: &third)
        #expect(third.details.isEmpty && third.serverAddress == nil)
    }

    @Test func aTimelineEntryKeepsItsTimesAndPlace() {
        let record = Record(
            time: Timestamp(10), location: SourceLocation(file: "f", line: 1), format: .metricEvents, sessionID: nil,
            payload: .unknown("x"))
        var e = TimelineEntry(record: record, time: nil, endTime: Timestamp(0))
        #expect(e.time == nil && e.endTime == Timestamp(0) && e.index == nil)
        e.time = Timestamp(12.5)
        e.endTime = nil
        e.index = 7
        #expect(e.time == Timestamp(12.5) && e.endTime == nil && e.index == 7)
        e.index = Int(Int32.max) + 1
        #expect(e.index == nil)
    }
}

/// The redaction stage reads a run of requests' shared details once (`CleanDetailsMemo`): it must
/// never skip details that hold a secret, shared or not.
@Suite struct CleanDetailsMemoTests {
    func record(_ request: MediaRequest, line: Int) -> Record {
        Record(
            time: nil, location: SourceLocation(file: "f", line: line), format: .metricEvents, sessionID: nil,
            payload: .request(request))
    }

    @Test func aSharedOrNewBoxWithASecretIsAlwaysCleaned() {
        let redactor = Redactor()
        var sharing = MediaRequest.DetailsSharing()
        var clean = MediaRequest.Details()
        clean.responseHeaders = ["Content-Type": "video/mp4"]
        var secret = MediaRequest.Details()
        secret.requestHeaders = ["Authorization": "Bearer PLANTED-SECRET-42"]
        var memo = Redactor.CleanDetailsMemo()
        var requests: [MediaRequest] = []
        for (k, details) in [clean, clean, secret, secret, clean].enumerated() {
            var r = MediaRequest(kind: .segment, url: "https://h.example/s\(k).m4s")
            sharing.set(details, on: &r)
            requests.append(r)
        }
        let verdicts = requests.enumerated().map { redactor.needsCleaning(record($1, line: $0), memo: &memo) }
        #expect(verdicts == [false, false, true, true, false])
        // The memo agrees with reading each record alone.
        #expect(verdicts == requests.enumerated().map { redactor.needsCleaning(record($1, line: $0)) })
        let cleaned = redactor.clean(record(requests[3], line: 3)).request
        #expect(cleaned?.requestHeaders["Authorization"].map { !$0.contains("PLANTED-SECRET-42") } == true)
        // The box it shared is untouched: the next request of the run still reads its own value.
        #expect(requests[2].requestHeaders["Authorization"] == "Bearer PLANTED-SECRET-42")
    }
    /// What a failed request is (one list for KPIs and rules): an error status, a transport
    /// error; not a request the client cancelled, whatever status it had got (a body cut short
    /// by a seek), nor a segment above its declared bandwidth that arrived (-12318). Near miss:
    /// an error status stays a failure, cancelled or not.
    @Test func whatAFailureIs() {
        func request(status: Int?, code: Int?, domain: String = "NSURLErrorDomain") -> MediaRequest {
            var r = MediaRequest(kind: .segment, url: "https://cdn.example.com/v/s1.ts")
            r.status = status
            r.error = code.map { ErrorInfo(domain: domain, code: $0, description: nil) }
            return r
        }
        #expect(!request(status: nil, code: -999).failed)
        #expect(!request(status: 200, code: -999).failed)
        #expect(!request(status: -999, code: -999).failed)
        #expect(request(status: 404, code: -999).failed)
        #expect(!request(status: nil, code: -12318, domain: "CoreMediaErrorDomain").failed)
        #expect(request(status: nil, code: -1001).failed)
        #expect(request(status: 503, code: nil).failed)
        #expect(!request(status: 200, code: nil).failed)
    }
}
