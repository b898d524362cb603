import Foundation

// Every message the module produces, in one place, so wording stays consistent.
extension SoupStoreError {
    static func unknownSoup(_ soup: String) -> SoupStoreError {
        SoupStoreError(
            code: .unknownSoup,
            message: "unknown soup '\(soup)'; register it first (syncrun store init) or check the name's case"
        )
    }

    static func invalidSoupSpec(_ soup: String, _ problem: String) -> SoupStoreError {
        SoupStoreError(code: .invalidSoupSpec, message: "soup '\(soup)': \(problem)")
    }

    static func invalidPath(_ path: String) -> SoupStoreError {
        SoupStoreError(
            code: .invalidPath,
            message: "invalid path '\(path)': a path is one or more names of letters, digits and '_', "
                + "separated by '.' (for example 'Account.Name')"
        )
    }

    static func malformedJSON(line: Int, column: Int, _ problem: String, source: String? = nil) -> SoupStoreError {
        let prefix = source.map { "\($0):\(line):\(column): " } ?? ""
        return SoupStoreError(
            code: .malformedJSON,
            message: "\(prefix)malformed JSON at line \(line) column \(column): \(problem)"
        )
    }

    static func notAnObject(entry index: Int, found type: String) -> SoupStoreError {
        SoupStoreError(
            code: .notAnObject,
            message: "entry \(index) is not an object (found \(type)); every entry must be a JSON object"
        )
    }

    static func notAnArray(found type: String) -> SoupStoreError {
        SoupStoreError(
            code: .malformedJSON,
            message: "expected a JSON array of entries (or an object with a 'records' array), found \(type)"
        )
    }

    static func missingExternalID(entry index: Int, path: String) -> SoupStoreError {
        SoupStoreError(
            code: .missingExternalID,
            message: "entry \(index) has no value at external id path '\(path)'; every entry upserted "
                + "by '\(path)' needs a non-null value there"
        )
    }

    static func ambiguousExternalID(entry index: Int, path: String, soup: String, count: Int) -> SoupStoreError {
        SoupStoreError(
            code: .ambiguousExternalID,
            message: "entry \(index): \(count) entries of soup '\(soup)' share its value at '\(path)'; "
                + "an upsert by '\(path)' needs it to be unique (delete the duplicates first)"
        )
    }

    static func unindexedExternalIDPath(_ path: String, soup: String) -> SoupStoreError {
        SoupStoreError(
            code: .invalidPath,
            message: "soup '\(soup)' has no index on '\(path)'; an upsert by external id needs one "
                + "(add {\"path\": \"\(path)\", \"type\": \"string\"} to the soup's indexes)"
        )
    }

    static func invalidQuery(_ problem: String) -> SoupStoreError {
        SoupStoreError(code: .invalidQuery, message: "invalid Smart SQL: \(problem)")
    }

    static func encryptedStore(_ path: String) -> SoupStoreError {
        SoupStoreError(
            code: .encryptedStore,
            message: "'\(path)' is not a plain SQLite file; it is most likely an encrypted (SQLCipher) "
                + "SmartStore, which syncrun cannot open. Use an unencrypted store (for example one "
                + "exported from the app with a null key) or run against a fresh store",
            storePath: path
        )
    }

    static func notASmartStore(_ path: String) -> SoupStoreError {
        SoupStoreError(
            code: .notASmartStore,
            message: "'\(path)' is an SQLite database but not a SmartStore (it has tables but no "
                + "soup_attrs / soup_index_map); pass another --store file",
            storePath: path
        )
    }

    static func newerStore(_ path: String, unknownSteps: [String]) -> SoupStoreError {
        SoupStoreError(
            code: .newerStore,
            message: "'\(path)' was written by a newer syncrun (its schema has "
                + "\(unknownSteps.count == 1 ? "the step" : "the steps") \(unknownSteps.joined(separator: ", ")), "
                + "which this one does not know); it was left unchanged. Upgrade syncrun to open it, or point "
                + "--store at another file",
            storePath: path
        )
    }

    static func readOnlyMedium(_ path: String) -> SoupStoreError {
        SoupStoreError(
            code: .io,
            message: "'\(path)' cannot be read where it is: its folder or file system is read-only and its "
                + "write-ahead log (-wal) holds changes not yet in the store file. Copy the store with its -wal "
                + "file to a writable folder and pass that path with --store",
            storePath: path
        )
    }

    static func foreignOperation(_ path: String, type: String) -> SoupStoreError {
        SoupStoreError(
            code: .foreignOperation,
            message: "'\(path)' holds an unfinished '\(type)' operation written by an SDK app; open the "
                + "store in that app to let it finish, then retry",
            storePath: path
        )
    }

    static func unknownEntry(_ id: Int64, soup: String) -> SoupStoreError {
        SoupStoreError(code: .unknownEntry, message: "soup '\(soup)' has no entry with _soupEntryId \(id)")
    }

    static func unknownSyncState(_ key: String) -> SoupStoreError {
        SoupStoreError(code: .unknownSyncState, message: "no sync state \(key) in soup 'syncs_soup'")
    }

    static func duplicateSyncName(_ name: String) -> SoupStoreError {
        SoupStoreError(
            code: .duplicateSyncName,
            message: "there is already a sync with name '\(name)'; delete it or choose another name"
        )
    }

    static func invalidSyncState(_ problem: String) -> SoupStoreError {
        SoupStoreError(code: .invalidSyncState, message: "invalid sync state: \(problem)")
    }

    static func io(_ problem: String, path: String, underlying: (any Error & Sendable)? = nil) -> SoupStoreError {
        SoupStoreError(code: .io, message: "'\(path)': \(problem)", storePath: path, underlying: underlying)
    }

    static func sqlite(_ error: any Error & Sendable, path: String?) -> SoupStoreError {
        let place = path.map { " in '\($0)'" } ?? ""
        return SoupStoreError(
            code: .sqlite,
            message: "SQLite error\(place): \(String(describing: error))",
            storePath: path,
            underlying: error
        )
    }
}
