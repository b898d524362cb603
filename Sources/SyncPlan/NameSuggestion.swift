/// Finds the known name closest to a mistyped one, for "did you mean" hints.
enum NameSuggestion {
    /// The candidate closest to `name` by edit distance (ignoring case first), or `nil` when
    /// nothing is close enough to be a plausible typo. Ties go to the earlier candidate.
    static func closest(to name: String, in candidates: [String]) -> String? {
        let lowered = name.lowercased()
        if let sameIgnoringCase = candidates.first(where: { $0.lowercased() == lowered }) {
            return sameIgnoringCase
        }
        let limit = max(2, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Levenshtein distance between `a` and `b`, over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
