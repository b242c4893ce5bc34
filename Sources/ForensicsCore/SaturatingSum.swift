extension Int {
    /// `a + b`, held at `Int.max` (or `Int.min`) instead of trapping: a sum of counts read from
    /// input (a log's stall counts, a stored file's rows) must never stop the tool.
    package static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }
}
