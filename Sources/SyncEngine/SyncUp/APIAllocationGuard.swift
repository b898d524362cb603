import OrgClient
import SyncConfig

/// Watches the org's daily API allocation (`Sforce-Limit-Info: api-usage=USED/MAX`, the latest
/// response's) during a sync up: below `minApiShare` percent left the run drops to one request at
/// a time (and says so once); below `stopApiShare` percent it stops cleanly between batches, every
/// batch sent written back, so the next run continues where it stopped.
///
/// The allocation is a rolling 24-hour count shared by every client of the org (Salesforce
/// Developer Limits and Allocations Quick Reference, "API Request Limits and Allocations"):
/// a sync that uses it up locks out the org's other integrations until it recovers.
struct APIAllocationGuard: Sendable {
    /// Below this share left (percent), one request at a time.
    var slowBelow: Double
    /// Below this share left (percent), the run stops.
    var stopBelow: Double

    /// What the latest usage calls for.
    enum Verdict: Sendable, Equatable {
        case proceed
        case slowDown(percentLeft: Double)
        case stop(percentLeft: Double)
    }

    /// The verdict for `usage` (`nil`: the org reported none, nothing to do).
    func verdict(_ usage: APIUsage?) -> Verdict {
        guard let usage, usage.max > 0 else { return .proceed }
        let left = Double(usage.remaining) * 100 / Double(usage.max)
        if left < stopBelow { return .stop(percentLeft: left) }
        if left < slowBelow { return .slowDown(percentLeft: left) }
        return .proceed
    }

    /// `12.5` → `"12.5%"`, `3` → `"3%"`.
    static func percent(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))%" : "\(rounded)%"
    }

    /// The warning said once when the run slows down.
    func slowDownMessage(_ usage: APIUsage, percentLeft: Double) -> String {
        "the org has \(Self.percent(percentLeft)) of its daily API requests left (\(usage.used) of \(usage.max) "
            + "used), below minApiShare \(Self.percent(slowBelow)): sending one request at a time for the rest "
            + "of this sync"
    }

    /// Why the run stopped, and what to do.
    func stopMessage(_ usage: APIUsage, percentLeft: Double, syncName: String) -> String {
        "sync '\(syncName)' stopped between batches: the org has \(Self.percent(percentLeft)) of its daily API "
            + "requests left (\(usage.used) of \(usage.max) used), below stopApiShare \(Self.percent(stopBelow)); "
            + "every record sent is saved. Run it again once the allocation has recovered (it counts the last 24 "
            + "hours), or lower 'stopApiShare' in the sync's options (or pass --stop-api-share) to go on now"
    }
}

/// Thrown inside a sync up to stop it cleanly when the API allocation is nearly used up.
struct APIAllocationStop: Error, Sendable {
    let message: String
}
