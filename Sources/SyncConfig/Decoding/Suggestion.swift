/// "Did you mean" suggestions for misspelt keys, enumeration values and names: the one rule of
/// the package (config diagnostics, `plan --only`, unknown dependencies).
package enum Suggestion {
    /// The candidate closest to `word`: equal ignoring case, or within an edit distance of
    /// about a third of its length (at least 1, at most 3). `nil` when nothing is close; ties go
    /// to the earlier candidate.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        if let exact = candidates.first(where: { $0.lowercased() == word.lowercased() }) { return exact }
        let limit = min(3, max(1, word.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Levenshtein distance over characters.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        var current = previous
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
