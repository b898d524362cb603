import ArgumentParser
import SyncConfig

/// `--max-requests N`: the requests a sync up or a migration keeps in flight, overriding the
/// config's `options.maxConcurrentRequests` (`run`, `sync`, `migrate`); `--min-api-share` and
/// `--stop-api-share`: the API allocation shares at which a sync up slows down and stops
/// (`run`, `sync`; `options.minApiShare` / `options.stopApiShare`).
struct RequestOptions: ParsableArguments {
    @Option(
        name: .customLong("max-requests"),
        help: ArgumentHelp(
            "The most requests in flight at once (overrides each sync's 'maxConcurrentRequests', default "
                + "\(SyncOptions.defaultMaxConcurrentRequests)); 1 sends one request at a time.",
            valueName: "n"
        )
    )
    var maxRequests: Int?

    @Option(
        name: .customLong("min-api-share"),
        help: ArgumentHelp(
            "Below this percentage of the org's daily API requests left, sync up sends one request at a time "
                + "(overrides 'minApiShare', default \(SyncOptions.defaultMinApiShare)).",
            valueName: "percent"
        )
    )
    var minApiShare: Int?

    @Option(
        name: .customLong("stop-api-share"),
        help: ArgumentHelp(
            "Below this percentage left, sync up stops cleanly between batches; run again later to continue "
                + "(overrides 'stopApiShare', default \(SyncOptions.defaultStopApiShare)).",
            valueName: "percent"
        )
    )
    var stopApiShare: Int?

    func validate() throws {
        for (flag, value) in [("--min-api-share", minApiShare), ("--stop-api-share", stopApiShare)] {
            if let value, !(0...100).contains(value) {
                throw ValidationError("\(flag) \(value) is not a percentage; pass a number from 0 to 100")
            }
        }
        let range = SyncOptions.maxConcurrentRequestsRange
        if let maxRequests, !range.contains(maxRequests) {
            throw ValidationError(
                "--max-requests \(maxRequests) is outside \(range.lowerBound)...\(range.upperBound); pass a number "
                    + "in that range (1 sends one request at a time)"
            )
        }
    }

    /// The values parsed, as plain settings.
    var settings: RequestSettings {
        RequestSettings(maxRequests: maxRequests, minApiShare: minApiShare, stopApiShare: stopApiShare)
    }
}

/// ``RequestOptions``' values (`nil`: the config's), for commands without the flags too.
struct RequestSettings {
    var maxRequests: Int?
    var minApiShare: Int?
    var stopApiShare: Int?
}
