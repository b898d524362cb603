import ArgumentParser
import SyncConfig

/// `--max-requests N`: the requests a sync up or a migration keeps in flight, overriding the
/// config's `options.maxConcurrentRequests` (`run`, `sync`, `migrate`).
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

    func validate() throws {
        let range = SyncOptions.maxConcurrentRequestsRange
        if let maxRequests, !range.contains(maxRequests) {
            throw ValidationError(
                "--max-requests \(maxRequests) is outside \(range.lowerBound)...\(range.upperBound); pass a number "
                    + "in that range (1 sends one request at a time)"
            )
        }
    }
}
