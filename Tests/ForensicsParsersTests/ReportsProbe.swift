import ForensicsCore
import ForensicsReports

enum ForensicsReportsProbe {
    static func render(_ report: AnalysisReport) -> String {
        MarkdownReporter(toolVersion: "t").render(report) + JSONReporter(toolVersion: "t").render(report)
    }
}
