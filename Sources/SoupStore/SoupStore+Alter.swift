import GRDB

extension SoupStore {
    /// Registers the soups of a store config: creates the missing ones and alters (re-indexes)
    /// the ones whose index specs differ, keeping their entries. Returns what was done to each
    /// soup, in the order of `specs`.
    ///
    /// - Throws: `SoupStoreError` (`.invalidSoupSpec`, `.invalidPath`, `.sqlite`).
    @discardableResult
    public func registerSoups(_ specs: [SoupSpec]) throws -> [SoupRegistration] {
        for spec in specs { try spec.validate() }
        var outcomes: [SoupRegistration] = []
        for spec in specs {
            let existing = try read { try SoupLayout.load($0.db, soup: spec.name) }
            if let existing, existing.specs != spec.indexes {
                try alterSoup(spec.name, to: spec.indexes)
                outcomes.append(.altered)
            } else {
                outcomes.append(try write { try $0.registerSoup(spec) })
            }
        }
        return outcomes
    }

    /// Alters `soup` to `indexes` as SmartStore does (store.md §6): one transaction per step,
    /// journalled, so an interruption resumes at the next open. Entries, ids and times are kept;
    /// with `reIndexData`, new index columns are filled from the documents.
    ///
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidSoupSpec`, `.invalidPath`, `.sqlite`).
    public func alterSoup(_ soup: String, to indexes: [IndexSpec], reIndexData: Bool = true) throws {
        try alterSoup(soup, to: indexes, reIndexData: reIndexData, stoppingAfter: nil)
    }

    /// `alterSoup`, optionally stopping after a step (to test resumption).
    func alterSoup(
        _ soup: String,
        to indexes: [IndexSpec],
        reIndexData: Bool,
        stoppingAfter last: AlterSoupOperation.Step?
    ) throws {
        try SoupSpec(name: soup, indexes: indexes).validate()
        let operation = try write { writer in
            let old = try writer.layout(soup)
            return try AlterSoupOperation.start(writer.db, from: old, to: indexes, reIndexData: reIndexData)
        }
        if last == .starting { return }
        try continueOperation(operation, after: .starting, stoppingAfter: last)
    }

    private func continueOperation(
        _ operation: AlterSoupOperation,
        after done: AlterSoupOperation.Step,
        stoppingAfter last: AlterSoupOperation.Step?
    ) throws {
        var step = done.next
        while let current = step {
            try mapErrors { try pool.write { db in try operation.perform(current, db) } }
            logger.debug(
                "Alter soup step done",
                metadata: ["store.soup": "\(operation.old.name)", "store.alter.step": "\(current.rawValue)"]
            )
            if current == last { return }
            step = current.next
        }
    }

    /// Finishes alter operations left unfinished in the journal; refuses operations of other types.
    static func resumeUnfinishedOperations(_ store: SoupStore) throws {
        let rows = try store.read { reader in
            try Row.fetchAll(
                reader.db,
                sql: "SELECT id, type, details, status FROM long_operations_status ORDER BY id"
            ).map { row in
                (
                    id: row[0] as Int64, type: row[1] as String? ?? "", details: row[2] as String? ?? "",
                    status: row[3] as String? ?? ""
                )
            }
        }
        for row in rows {
            guard row.type == AlterSoupOperation.operationType,
                let done = AlterSoupOperation.Step(rawValue: row.status)
            else { throw SoupStoreError.foreignOperation(store.path, type: row.type) }
            let operation = try store.read {
                try AlterSoupOperation.load($0.db, journalID: row.id, details: row.details)
            }
            store.logger.debug("Resuming alter soup", metadata: ["store.soup": "\(operation.old.name)"])
            try store.continueOperation(operation, after: done, stoppingAfter: nil)
        }
    }
}
