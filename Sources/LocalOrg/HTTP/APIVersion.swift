/// A REST API version such as `59.0`, as written after `v` in `/services/data/v59.0/`.
struct APIVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major number (`59`).
    var major: Int
    /// The minor number (`0` for every published version).
    var minor: Int

    /// Reads `59.0`; `nil` for anything else.
    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]), major > 0, minor >= 0 else {
            return nil
        }
        self.major = major
        self.minor = minor
    }

    /// Creates a version from its numbers.
    init(major: Int, minor: Int = 0) {
        self.major = major
        self.minor = minor
    }

    /// The version without the `v`, e.g. `59.0`.
    var description: String { "\(major).\(minor)" }

    static func < (lhs: APIVersion, rhs: APIVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// The oldest version the local org lists (Summer '14, the first in Salesforce's example list).
    static let oldest = APIVersion(major: 31)
    /// The newest version the local org lists.
    static let newest = APIVersion(major: 66)
    /// From this version on, upsert of an existing record answers `200` with `created: false`.
    static let upsertReportsCreated = APIVersion(major: 46)
}
