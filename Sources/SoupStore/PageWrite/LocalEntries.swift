/// What a page write does with a stored entry that has local changes (`__local__` set) when the
/// page brings a record with the same key (sync-semantics §4.5).
///
/// This is the store's side of a sync's merge mode: `OVERWRITE` is ``overwrite``,
/// `LEAVE_IF_CHANGED` is ``keep``. The config's `MergeMode` (SyncConfig, the only one) maps onto
/// it once, in the sync engine; every page write of the store (the one-pass page write, the
/// batch upsert, a bulk load's merge, the dry-run preview, the parent/children tree write)
/// asks this type, and nothing else, whether an entry is protected.
public enum LocalEntries: Sendable, Hashable, CaseIterable {
    /// The server's version replaces the entry (its local changes are lost).
    case overwrite
    /// The entry is kept as it is; the server's record is skipped and counted.
    case keep

    /// Whether a page record is skipped: its key matched a stored entry (`matched`) whose
    /// `__local__` is set (`entryIsLocal`), under ``keep``.
    package func skips(matched: Bool, entryIsLocal: Bool) -> Bool {
        self == .keep && matched && entryIsLocal
    }

    /// The SQL condition on a stored entry (of `layout`, its columns qualified by `table`) that
    /// protects it from the page; `nil` under ``overwrite``, where nothing is protected.
    package func protectedEntryCondition(in layout: SoupLayout, table: String? = nil) -> String? {
        self == .keep ? ControlFields.predicate(ControlFields.local, is: true, in: layout, table: table) : nil
    }
}
