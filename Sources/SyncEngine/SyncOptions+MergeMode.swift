import SyncConfig

// `MergeMode` exists in both SoupStore and SyncConfig; this file sees only the config's.

extension SyncOptions {
    /// The config's merge mode as the store's `upsertPage` takes it (§4.5).
    var storeMergeMode: StoreMergeMode {
        switch mergeMode {
        case .overwrite: .overwrite
        case .leaveIfChanged: .leaveIfChanged
        }
    }
}
