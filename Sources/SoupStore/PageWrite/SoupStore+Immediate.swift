import GRDB

extension SoupStore {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: the write lock is taken before the first
    /// read, so what `body` reads cannot be changed by another process before it writes.
    ///
    /// The sync engine claims a sync (reads its status, writes `RUNNING`) this way, so two
    /// processes can never both see a sync idle and both start it. Another process holding the
    /// lock makes this wait up to the store's busy timeout, then fail.
    ///
    /// - Throws: `SoupStoreError`, or whatever `body` throws (the transaction is rolled back).
    public func writeImmediately<T>(_ body: (SoupWriter) throws -> T) throws -> T {
        let context = StoreContext(path: path, logger: logger)
        return try mapErrors {
            try pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(SoupWriter(db: db, context: context))
                    return .commit
                }
                guard let result else {
                    throw SoupStoreError.invalidSyncState("the claim transaction returned nothing")
                }
                return result
            }
        }
    }
}
