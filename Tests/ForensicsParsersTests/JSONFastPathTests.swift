import Testing

@testable import ForensicsParsers

/// The metric-dump shortcuts (the token tape, ordered objects, line fingerprints) must not change
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

    @Test func repeatedKeysKeepTheLastValueAndMembersTheirOrder() throws {
        let value = try Array(#"{"a":1,"b":"x","a":"last","c":{"d":[1,2]}}"#.utf8).withUnsafeBufferPointer {
            try JSONByteParser.parse($0)
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
        let text = Array(#"{"Content-Type":"text/plain","Age":3,"Content-Type":"video/mp4","X":"y","X":null}"#.utf8)
        let headers = try text.withUnsafeBufferPointer { bytes in
            var tape = JSONTape()
            try tape.scan(bytes)
            return tape.withRoot(bytes) { MetricValues.headers($0) }
        }
        #expect(headers == ["Content-Type": "video/mp4", "Age": "3"])
    }

    /// The tape reads what the tree parser reads: the same values (rebuilt from the tape), and on
    /// broken input the same error at the same byte, over hand-written cases and mutations of them.
    @Test func tapeAgreesWithTheTreeParser() {
        var cases = [
            #"{"type":"AVMetricHLSMediaSegmentRequestEvent","date":"2026-11-21T10:00:00.000Z","n":-1.5e3,"#
                + #""a":[1,[2,{}],[],{"x":null,"y":true,"z":false}],"s":"\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t","#
                + #""t\u0079pe":"k","big":123456789012345678901234,"e":1E+2,"m":-0,"inf":1e999}"#,
            "[]", "{}", " [ 1 , 2 ] ", "\"x\"", "3", "true", "null", "[[[[]]]]", String(repeating: "[", count: 600),
            String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
            "", " ", "{", "[1,]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{1:2}", "[1 2]", "\"abc", "\"a\\x\"",
            "\"\\u12\"",
            "\"\\u12G4\"", "\"a\u{01}b\"", "tru", "nul", "-", "1.", "1e", "01", "[1]x", "{\"a\":1}}", "\"\\",
            "\"0123456789abcdef\\", "\"0123456789abcde\u{1F}\"", "{\"k\":\"v\"\n,\t\"w\":[ ]\r}",
        ]
        var generator = SystemRandomNumberGenerator()
        for seed in cases where !seed.isEmpty {
            for _ in 0..<40 {
                var bytes = Array(seed.utf8)
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(Array("\\\"{}[],:0e-. \u{01}".utf8).randomElement(using: &generator) ?? 0, at: at)
                default: bytes = Array(bytes[..<at])
                }
                cases.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        for text in cases {
            Array(text.utf8).withUnsafeBufferPointer { b in
                let tree = Result { try JSONByteParser.parse(b) }
                var tape = JSONTape()
                let scanned = Result { try tape.scan(b) }
                switch (tree, scanned) {
                case (.success(let value), .success):
                    #expect(tape.withRoot(b) { Self.tree($0) } == value, "\(text)")
                case (.failure(let treeError), .failure(let tapeError)):
                    #expect(String(describing: treeError) == String(describing: tapeError), "\(text)")
                default:
                    Issue.record("the tape and the tree parser disagree on \(text)")
                }
            }
        }
    }

    /// A `JSONValue` rebuilt from a tape node, through the node's own readers.
    static func tree(_ node: JSONNode) -> JSONValue {
        switch node.kind {
        case .object: return .object(JSONObject(node.members.map { ($0.key, tree($0.value)) }))
        case .array: return .array((node.elements ?? []).map(tree))
        case .string, .escapedString: return .string(node.string ?? "")
        case .number: return .number(node.number ?? .nan)
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .null: return .null
        }
    }
}
