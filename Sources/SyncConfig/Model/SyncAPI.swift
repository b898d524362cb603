/// Which Salesforce API a sync moves its records through (target key `api`).
///
/// - `auto` (the default): REST below ``SOQLSyncDownTarget/bulkThreshold`` records, Bulk API 2.0
///   at or above it, decided from the first REST page's `totalSize` (no extra request).
/// - `rest`: always REST (query pages, sObject Collections), as the Mobile SDK does.
/// - `bulk`: always a Bulk API 2.0 job when the target can run as one; targets Bulk cannot run
///   stay on REST (`validate` warns).
public enum SyncAPI: String, Sendable, Hashable, CaseIterable {
    case auto
    case rest
    case bulk

    /// The default record count at which `auto` switches to Bulk API 2.0.
    public static let defaultBulkThreshold = 10_000
}
