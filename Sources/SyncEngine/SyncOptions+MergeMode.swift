import SoupStore
import SyncConfig

extension MergeMode {
    /// The merge mode as the store applies it to stored entries with local changes (§4.5): the
    /// one place a sync's `mergeMode` becomes the store's rule.
    public var localEntries: LocalEntries {
        switch self {
        case .overwrite: .overwrite
        case .leaveIfChanged: .keep
        }
    }
}
