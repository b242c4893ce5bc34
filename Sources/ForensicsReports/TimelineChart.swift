import ForensicsCore

/// What a report's timeline draws, before any drawing syntax: rows of requests, errors, stalls
/// and findings with their times. `MermaidGantt` writes it for Markdown readers (GitHub renders
/// Mermaid); `SVGTimeline` draws it for the HTML report, with an axis in seconds since the session
/// began (Mermaid can only print wall-clock time, in the reader's time zone).
struct TimelineChart {
    enum Section: String, CaseIterable {
        case requests = "Requests", errors = "Errors", stalls = "Stalls", findings = "Findings"
    }

    enum Mark {
        case request, failedRequest, error, stall, stallWithoutDuration, finding, findingInstant

        var isInstant: Bool { self == .error || self == .stallWithoutDuration || self == .findingInstant }
    }

    struct Row {
        var section: Section
        /// Already redacted and reduced to letters, digits, spaces, dots and dashes.
        var label: String
        var mark: Mark
        var start: Timestamp
        var end: Timestamp
    }

    var title: String
    var closeUp: Bool
    var sessionStart: Timestamp
    /// The start of a close-up's window (nil: the whole session).
    var from: Timestamp?
    var rows: [Row]

    /// Rows grouped by section, sections in drawing order, rows in the order given.
    var sections: [(Section, [Row])] {
        Section.allCases.compactMap { section in
            let rows = rows.filter { $0.section == section }
            return rows.isEmpty ? nil : (section, rows)
        }
    }
}

/// A timeline as a Mermaid gantt block.
enum MermaidGantt {
    static func lines(_ chart: TimelineChart) -> [String] {
        var out = ["```mermaid", "gantt", "    dateFormat x", "    axisFormat \(chart.closeUp ? "%M:%S.%L" : "%M:%S")", "    title \(chart.title)"]
        for (section, rows) in chart.sections {
            out.append("    section \(section.rawValue)")
            for r in rows { out.append("    " + line(r)) }
        }
        out.append("```")
        return out
    }

    static func line(_ r: TimelineChart.Row) -> String {
        let start = MarkdownReporter.ms(r.start)
        let end = MarkdownReporter.ms(r.end)
        switch r.mark {
        case .request: return "\(r.label) :\(start), \(end)"
        case .failedRequest: return "\(r.label) :crit, \(start), \(end)"
        case .stall: return "\(r.label) :crit, \(start), \(end)"
        case .stallWithoutDuration, .error: return "\(r.label) :crit, milestone, \(start), 0ms"
        case .finding: return "\(r.label) :active, \(start), \(end)"
        case .findingInstant: return "\(r.label) :milestone, \(start), 0ms"
        }
    }
}
