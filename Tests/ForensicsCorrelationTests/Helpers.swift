import ForensicsTestSupport
import ForensicsCore
import ForensicsReports
import ForensicsRules
import PlaybackForensics

enum TimelineScriptFiles {
    static func dump(_ script: String, session: String) -> [UInt8] {
        Array(TimelineScript.compile(script, sessionID: session).utf8)
    }
}

enum MarkdownReporterProbe {
    static func render(_ report: AnalysisReport) -> String {
        MarkdownReporter(toolVersion: "test").render(report)
    }
}
