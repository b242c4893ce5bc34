import Foundation
import ForensicsCore
import ForensicsReports
import ForensicsRules
import PlaybackForensics
import ForensicsTestSupport
import Testing

@Suite struct ReportSafetyTests {
    /// A hostile log: a URL with a pipe, backticks, a script tag and an escaped newline.
    static let hostileURL = "https://evil.example.com/a|b`c`/<script>alert(1)</script>\\nX.ts"

    func hostileReport() -> AnalysisReport {
        let script = """
            0.000 multivariant https://evil.example.com/master.m3u8 200 0.100
            0.700 initial-ltku variant=8M
            10.00 segment \(Self.hostileURL) 503 0.050 dur=6
            10.20 segment \(Self.hostileURL) 503 0.050 dur=6
            10.50 segment \(Self.hostileURL) 503 0.050 dur=6
            """
        var dump = TimelineScript.compile(script)
        // A newline inside the URL (JSON-escaped, so it survives JSON Lines).
        dump = dump.replacingOccurrences(of: "\\\\nX.ts", with: "\\nX.ts")
        return Analyzer().analyze(files: [("events.jsonl", Array(dump.utf8))])
    }

    @Test func hostileLogTextCannotBreakOrInjectIntoMarkdown() throws {
        let report = hostileReport()
        #expect(report.sessions.first?.findings.contains { $0.ruleID == "segment-errors" } == true)
        let markdown = MarkdownReporter(toolVersion: "test").render(report)
        #expect(!markdown.contains("<script>"))
        #expect(markdown.contains("&lt;script&gt;"))
        #expect(!markdown.contains("a|b"))
        #expect(markdown.contains("a\\|b"))
        #expect(!markdown.contains("`c`"))
        // Every table row keeps its column count: no unescaped pipe from the log.
        for line in markdown.split(separator: "\n") where line.hasPrefix("| ") && line.contains("evil.example.com") {
            let columns = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            #expect(columns == 4, "\(line)")
        }
        // The newline in the URL does not start a new Markdown line.
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("X.ts") })
    }

    /// A CDN host carrying a line end, a fake heading, an HTML element and a comment opener: the
    /// `segment-errors` finding names the host, and that must not inject anywhere it is shown.
    @Test func aHostileHostCannotInjectThroughTheAdvice() throws {
        let host = "evil\\nALLCLEAR<img\\tsrc=x\\tonerror=alert(1)><!--.example.com"
        let script = """
            0.000 multivariant https://\(host)/master.m3u8 200 0.100
            0.700 initial-ltku variant=8M
            10.00 segment https://\(host)/s1.ts 503 0.050 dur=6
            10.20 segment https://\(host)/s2.ts 503 0.050 dur=6
            10.50 segment https://\(host)/s3.ts 503 0.050 dur=6
            """
        var dump = TimelineScript.compile(script)
        dump = dump.replacingOccurrences(of: "\\\\n", with: "\\n").replacingOccurrences(of: "\\\\t", with: "\\t")
        let report = Analyzer().analyze(files: [("events.jsonl", Array(dump.utf8))])
        let finding = try #require(report.sessions.first?.findings.first { $0.ruleID == "segment-errors" })
        let named =
            [finding.title, finding.advice]
            + finding.details.values.compactMap { if case .string(let v) = $0 { v } else { nil } }
        #expect(named.contains { $0.contains("<img") }, "the finding names the hostile host: \(named)")
        let markdown = MarkdownReporter(toolVersion: "test").render(report)
        #expect(!markdown.contains("<img"))
        #expect(!markdown.contains("<!--"))
        #expect(!markdown.split(separator: "\n").contains { $0.hasPrefix("ALLCLEAR") })
    }

    @Test func hostileFileNamesCannotBreakOrInjectIntoMarkdown() throws {
        // Archive members can be named anything: a pipe, a backtick carrying a combining mark
        // (one Character with it), a line end and a heading.
        let name = "logs/a|b`\u{301}c\r\n## Injected heading.jsonl"
        let script = """
            0.000 multivariant https://cdn.example.com/master.m3u8 200 0.100
            0.700 initial-ltku variant=8M
            10.00 segment https://cdn.example.com/s1.ts 503 0.050 dur=6
            10.20 segment https://cdn.example.com/s2.ts 503 0.050 dur=6
            10.50 segment https://cdn.example.com/s3.ts 503 0.050 dur=6
            """
        let report = Analyzer().analyze(files: [(name, Array(TimelineScript.compile(script).utf8))])
        let markdown = MarkdownReporter(toolVersion: "test").render(report)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("## Injected") })
        #expect(!markdown.contains("\r"))
        func pipes(_ line: Substring) -> Int {
            line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
        }
        var rows = 0
        var separator: Substring?  // the `| --- | --- |` row of the table being read
        for line in lines {
            if line.hasPrefix("| ---") { separator = line }
            guard line.contains("Injected heading") else { continue }
            // No bare pipe from the name, and its code span is never closed early.
            #expect(!line.contains("a|b"), "\(line)")
            #expect(!line.contains("`\u{301}"), "\(line)")
            if line.hasPrefix("| "), let separator {
                rows += 1
                #expect(pipes(line) == pipes(separator), "\(line)")
            }
        }
        #expect(rows > 0)
    }

    @Test func jsonReportStaysValidJSONWithHostileText() throws {
        let json = JSONReporter(toolVersion: "test").render(hostileReport())
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["schema_version"] as? Int == 1)
    }

    @Test func signedURLsAndAuthorizationAreRedactedByDefault() throws {
        let signed =
            "https://cdn.example.com/v/s1.ts?Policy=eyJTdGF0ZW1lbnQiOlt7IlJlc291cmNlIjoi&Signature=AbCdEf123&Key-Pair-Id=APKA123&token=sekrit&X-Amz-Signature=deadbeef&quality=hd"
        let har = """
            {"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[
            {"startedDateTime":"2026-11-21T10:00:00.000Z","time":50,"request":{"method":"GET","url":"\(signed)","headers":[{"name":"Authorization","value":"Bearer abc.def.ghi-secret"},{"name":"X-Playback-Session-Id","value":"S1"}]},"response":{"status":403,"headers":[],"content":{"size":0,"mimeType":"text/html"}}},
            {"startedDateTime":"2026-11-21T10:00:01.000Z","time":50,"request":{"method":"GET","url":"\(signed)","headers":[{"name":"Authorization","value":"Bearer abc.def.ghi-secret"},{"name":"X-Playback-Session-Id","value":"S1"}]},"response":{"status":403,"headers":[],"content":{"size":0,"mimeType":"text/html"}}},
            {"startedDateTime":"2026-11-21T10:00:02.000Z","time":50,"request":{"method":"GET","url":"\(signed)","headers":[{"name":"Authorization","value":"Bearer abc.def.ghi-secret"},{"name":"X-Playback-Session-Id","value":"S1"}]},"response":{"status":403,"headers":[],"content":{"size":0,"mimeType":"text/html"}}}
            ]}}
            """
        let report = Analyzer().analyze(files: [("capture.har", Array(har.utf8))])
        #expect(report.sessions.first?.findings.contains { $0.ruleID == "segment-errors" } == true)
        for text in [MarkdownReporter(toolVersion: "t").render(report), JSONReporter(toolVersion: "t").render(report)] {
            for secret in [
                "AbCdEf123", "APKA123", "sekrit", "deadbeef", "eyJTdGF0ZW1lbnQiOlt7IlJlc291cmNlIjoi", "ghi-secret",
            ] {
                #expect(!text.contains(secret), "\(secret) leaked")
            }
            #expect(text.contains("quality=hd"))
        }
        // Redaction is the ingest stage's: turned off there (and in the writer), the secret is kept.
        var analyzer = Analyzer()
        analyzer.ingestor.redactor = Redactor(enabled: false)
        let raw = analyzer.analyze(files: [("capture.har", Array(har.utf8))])
        let unredacted = JSONReporter(redactor: Redactor(enabled: false), toolVersion: "t").render(raw)
        #expect(unredacted.contains("AbCdEf123"))
    }

    @Test func redactorHandlesHeadersJWTsAndKeyIdentifiers() {
        let r = Redactor()
        #expect(r.redact("Authorization: Bearer xyz") == "Authorization: REDACTED")
        #expect(r.redact("Cookie = session=abc;") == "Cookie = REDACTED;")
        #expect(r.redact("skd://key-42?x=1 then") == "skd://REDACTED then")
        #expect(r.redact("t eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl x") == "t REDACTED x")
        #expect(r.redact("https://a/b?sig=1&ok=2") == "https://a/b?sig=REDACTED&ok=2")
    }
}
