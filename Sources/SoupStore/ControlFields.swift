/// MobileSync's control fields (sync-semantics.md §2.1) and the SQL that reads them leniently.
///
/// syncrun writes JSON booleans into documents, and projects them into `string` index columns
/// as `'true'` / `'false'` (the Android convention). It reads a flag as set when the document
/// holds JSON `true`, the string `"true"` or the string `"1"` (what iOS projects), so stores and
/// documents written under either platform's convention are understood.
public enum ControlFields {
    /// `__local__`: the entry has unsynced local changes.
    public static let local = "__local__"
    /// `__locally_created__`.
    public static let locallyCreated = "__locally_created__"
    /// `__locally_updated__`.
    public static let locallyUpdated = "__locally_updated__"
    /// `__locally_deleted__`.
    public static let locallyDeleted = "__locally_deleted__"
    /// `__sync_id__`: the sync down that last wrote the entry.
    public static let syncID = "__sync_id__"
    /// `__last_error__`: the server's error body of the last failed sync up.
    public static let lastError = "__last_error__"
    /// Prefix of ids given to locally created records.
    public static let localIDPrefix = "local_"

    /// SQL true when the flag at `path` is set (`value == true`) or explicitly cleared
    /// (`value == false`); an entry without the key matches neither.
    package static func predicate(_ path: String, is value: Bool, in layout: SoupLayout, table: String? = nil) -> String
    {
        let qualifier = table.map { "\($0)." } ?? ""
        if let index = layout.index(forPath: path), index.type == .string || index.type == .fullText {
            // Uses the index: projections give 'true'/'false' (Android) or '1'/'0' (iOS files).
            return value
                ? "\(qualifier)\(index.columnName) IN ('true', '1')"
                : "\(qualifier)\(index.columnName) IN ('false', '0')"
        }
        return documentPredicate(path, is: value, document: "\(qualifier)soup")
    }

    /// SQL true when the flag at `path` of the document expression is set / cleared.
    package static func documentPredicate(_ path: String, is value: Bool, document: String) -> String {
        let extract = "json_extract(\(document), \(SoupPath.jsonPathLiteral(path)))"
        return value ? "\(extract) IN (1, 'true', '1')" : "\(extract) IN (0, 'false', '0')"
    }
}
