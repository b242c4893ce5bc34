/// "Did you mean …?" for a misspelt subcommand or rule id: the closest known name within a small
/// edit distance (insertions, deletions, substitutions and swaps of neighbours), if any.
enum Suggestion {
    static func closest(to word: String, in names: [String], maxDistance: Int = 2) -> String? {
        let w = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let d = distance(w, Array(name.lowercased()))
            if d <= maxDistance, d < (best?.distance ?? .max) { best = (name, d) }
        }
        return best?.name
    }

    /// Optimal-string-alignment distance; words here are short (a command or rule id).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        guard a.count < 64, b.count < 64 else { return .max }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
