import Testing

@testable import ForensicsParsers

/// The metric-dump shortcuts (interned keys, ordered objects, line fingerprints) must not change
/// what is read.
@Suite struct JSONFastPathTests {
    @Test func fingerprintsSeparateNearDuplicates() {
        var seen: [UInt64: [UInt8]] = [:]
        let base = Array(#"{"type":"AVMetricHLSMediaSegmentRequestEvent","date":"2026-11-21T10:00:00Z"}"#.utf8)
        var inputs: [[UInt8]] = [[], [0], [0, 0], base]
        for length in 0...base.count { inputs.append(Array(base.prefix(length))) }
        for position in base.indices {
            var changed = base
            changed[position] ^= 1
            inputs.append(changed)
        }
        for input in inputs {
            let fingerprint = input.withUnsafeBufferPointer { ByteFingerprint.of($0) }
            if let earlier = seen[fingerprint] {
                #expect(earlier == input, "two different inputs share a fingerprint")
            }
            seen[fingerprint] = input
            #expect(fingerprint == input.withUnsafeBufferPointer { ByteFingerprint.of($0) })
        }
        #expect(seen.count == Set(inputs).count)
    }

    @Test func internedKeysEqualFreshStrings() {
        let cache = JSONKeyCache()
        // Long keys that land in the same slots and short ones, read twice in turn.
        var keys = [
            "mediaResourceRequestEvent", "networkTransactionMetrics", "countOfResponseBodyBytesReceived", "type",
        ]
        keys += (0..<600).map { "someRatherLongKey_\($0)_x" }
        for _ in 0..<2 {
            for key in keys {
                var copy = key
                #expect(copy.withUTF8 { cache.key($0) } == key)
            }
        }
    }

    @Test func repeatedKeysKeepTheLastValueAndMembersTheirOrder() throws {
        let value = try Array(#"{"a":1,"b":"x","a":"last","c":{"d":[1,2]}}"#.utf8).withUnsafeBufferPointer {
            try JSONByteParser.parse($0, keys: JSONKeyCache())
        }
        #expect(value["a"]?.string == "last")
        #expect(value["b"]?.string == "x")
        #expect(value["c"]?["d"]?.array?.count == 2)
        #expect(value["missing"] == nil)
        #expect(value.object?.members.map(\.key) == ["a", "b", "a", "c"])
        var object = try #require(value.object)
        object["a"] = .string("set")
        #expect(object["a"]?.string == "set")
        #expect(object.members.map(\.key) == ["b", "c", "a"])
    }

    @Test func repeatedHeadersKeepTheirLastValue() throws {
        let value = try Array(
            #"{"Content-Type":"text/plain","Age":3,"Content-Type":"video/mp4","X":"y","X":null}"#.utf8
        )
        .withUnsafeBufferPointer { try JSONByteParser.parse($0) }
        let headers = MetricValues.headers(value)
        #expect(headers == ["Content-Type": "video/mp4", "Age": "3"])
    }
}
