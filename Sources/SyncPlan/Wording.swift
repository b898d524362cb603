/// Small helpers for the module's messages and renderings.
enum Wording {
    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    static func quotedList(_ names: [String]) -> String {
        let quoted = names.map { "'\($0)'" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " and " + last
    }

    /// `1 step`, `2 steps`.
    static func count(_ value: Int, _ singular: String, _ plural: String) -> String {
        "\(value) \(value == 1 ? singular : plural)"
    }
}
