import SoupStore

// `MergeMode` exists in both SoupStore and SyncConfig; this file sees only the store's.

/// The store's merge mode (what `upsertPage` does with locally changed entries).
typealias StoreMergeMode = MergeMode
