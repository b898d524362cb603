/// The org's daily API consumption, from the `Sforce-Limit-Info` response header.
public struct APIUsage: Sendable, Hashable {
    /// Requests counted in the rolling 24-hour window.
    public var used: Int
    /// The org's allocation for that window.
    public var max: Int

    /// Creates a usage figure.
    public init(used: Int, max: Int) {
        self.used = used
        self.max = max
    }

    /// Requests left before the org answers `REQUEST_LIMIT_EXCEEDED`.
    public var remaining: Int { Swift.max(0, max - used) }

    /// Reads `api-usage=USED/MAX` out of a `Sforce-Limit-Info` value, which may also carry
    /// `per-app-api-usage=USED/MAX(appName=NAME)` entries (ignored here).
    ///
    /// - Parameter headerValue: The header's value, e.g. `api-usage=18/15000`.
    /// - Returns: The usage, or `nil` when the value has no well-formed `api-usage` entry.
    public init?(limitInfoHeader headerValue: String) {
        for entry in headerValue.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingSpaces == "api-usage"
            else { continue }
            let numbers = parts[1].trimmingSpaces.split(separator: "/")
            guard numbers.count == 2, let used = Int(numbers[0]), let max = Int(numbers[1]) else { return nil }
            self.init(used: used, max: max)
            return
        }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return result
    }
}
