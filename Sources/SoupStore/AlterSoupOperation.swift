import Foundation
import GRDB
import Logging

/// SmartStore's resumable "alter soup" (store.md §6): swaps a soup's index specs keeping its
/// table number, ids and documents, journalled in `long_operations_status` with Android's type
/// (`alterSoup`) and step names. Each step commits together with its journal update, so an
/// interrupted alter resumes where it stopped the next time the store is opened.
struct AlterSoupOperation {
    /// The steps, in order; the journal's `status` is the last completed one.
    enum Step: String, CaseIterable, Comparable {
        case starting = "STARTING"
        case renameOldSoupTable = "RENAME_OLD_SOUP_TABLE"
        case dropOldIndexes = "DROP_OLD_INDEXES"
        case registerSoupUsingTableName = "REGISTER_SOUP_USING_TABLE_NAME"
        case copyTable = "COPY_TABLE"
        case reIndexSoup = "RE_INDEX_SOUP"
        case dropOldTable = "DROP_OLD_TABLE"

        static func < (lhs: Step, rhs: Step) -> Bool {
            (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
        }

        var next: Step? {
            let all = Step.allCases
            let position = (all.firstIndex(of: self) ?? all.count) + 1
            return position < all.count ? all[position] : nil
        }
    }

    /// The journal's `details` document (Android's keys).
    struct Details: Codable {
        struct Spec: Codable {
            var path: String
            var type: String
            var columnName: String
        }

        var soupName: String
        var soupTableName: String
        var oldIndexSpecs: [Spec]
        var newIndexSpecs: [Spec]
        var reIndexData: Bool
    }

    static let operationType = "alterSoup"

    var journalID: Int64
    var old: SoupLayout
    var new: SoupLayout
    var reIndexData: Bool

    private var oldTable: String { "\(old.tableName)_old" }
    private var oldFTSTable: String { "\(old.tableName)_old_fts" }

    /// Inserts the journal row (`STARTING`) and returns the operation.
    static func start(_ db: Database, from old: SoupLayout, to specs: [IndexSpec], reIndexData: Bool) throws
        -> AlterSoupOperation
    {
        let new = SoupLayout(name: old.name, tableID: old.tableID, specs: specs)
        let details = Details(
            soupName: old.name,
            soupTableName: old.tableName,
            oldIndexSpecs: old.indexes.map { .init(path: $0.path, type: $0.type.rawValue, columnName: $0.columnName) },
            newIndexSpecs: new.indexes.map { .init(path: $0.path, type: $0.type.rawValue, columnName: $0.columnName) },
            reIndexData: reIndexData
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(details), as: UTF8.self)
        let now = SoupWriter.now()
        try db.execute(
            sql: """
                INSERT INTO long_operations_status (type, details, status, created, lastModified) \
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [operationType, text, Step.starting.rawValue, now, now]
        )
        return AlterSoupOperation(journalID: db.lastInsertedRowID, old: old, new: new, reIndexData: reIndexData)
    }

    /// Rebuilds an operation from its journal row.
    static func load(_ db: Database, journalID: Int64, details text: String) throws -> AlterSoupOperation {
        let details = try JSONDecoder().decode(Details.self, from: Data(text.utf8))
        let tableID = Int64(details.soupTableName.dropFirst("TABLE_".count)) ?? 0
        func indexes(_ specs: [Details.Spec]) throws -> [SoupLayout.Index] {
            try specs.enumerated().map { position, spec in
                guard let type = SoupIndexType(rawValue: spec.type) else {
                    throw SoupStoreError.invalidSoupSpec(details.soupName, "unknown index type '\(spec.type)'")
                }
                let suffix = spec.columnName.split(separator: "_").last.flatMap { Int($0) }
                return .init(path: spec.path, type: type, columnName: spec.columnName, position: suffix ?? position)
            }
        }
        let oldIndexes = try indexes(details.oldIndexSpecs)
        let old = SoupLayout(
            name: details.soupName,
            tableID: tableID,
            indexes: oldIndexes,
            hasFullTextTable: oldIndexes.contains { $0.type == .fullText }
        )
        let new = SoupLayout(
            name: details.soupName,
            tableID: tableID,
            specs: try indexes(details.newIndexSpecs).map { IndexSpec(path: $0.path, type: $0.type) }
        )
        return AlterSoupOperation(journalID: journalID, old: old, new: new, reIndexData: details.reIndexData)
    }

    /// Performs `step` and records it in the journal (the last step deletes the journal row).
    func perform(_ step: Step, _ db: Database) throws {
        switch step {
        case .starting:
            return
        case .renameOldSoupTable:
            try db.execute(sql: "ALTER TABLE \(old.tableName) RENAME TO \(oldTable)")
            if try db.tableExists(old.ftsTableName) {
                try db.execute(sql: "ALTER TABLE \(old.ftsTableName) RENAME TO \(oldFTSTable)")
            }
        case .dropOldIndexes:
            var names = ["\(old.tableName)_created_idx", "\(old.tableName)_lastModified_idx"]
            names += old.indexes.map { "\(old.tableName)_\($0.position)_idx" }
            for name in names { try db.execute(sql: "DROP INDEX IF EXISTS \(name)") }
            try db.execute(sql: "DELETE FROM soup_index_map WHERE soupName = ?", arguments: [old.name])
        case .registerSoupUsingTableName:
            try SoupSchema.createSoupTables(db, layout: new)
        case .copyTable:
            var target = ["id", "soup", "created", "lastModified"]
            var source = target
            for index in new.columns {
                guard let previous = old.index(forPath: index.path), previous.hasColumn,
                    previous.type.columnSQLType == index.type.columnSQLType
                else { continue }
                target.append(index.columnName)
                source.append(previous.columnName)
            }
            try db.execute(
                sql: """
                    INSERT INTO \(new.tableName) (\(target.joined(separator: ", "))) \
                    SELECT \(source.joined(separator: ", ")) FROM \(oldTable)
                    """
            )
        case .reIndexSoup:
            let fresh = new.columns.filter { index in
                !old.indexes.contains { $0.path == index.path && $0.type == index.type }
            }
            if reIndexData, !fresh.isEmpty {
                let assignments = fresh.map { "\($0.columnName) = \(SoupProjection.sql(for: $0, document: "soup"))" }
                try db.execute(sql: "UPDATE \(new.tableName) SET \(assignments.joined(separator: ", "))")
            }
            try FullText.rebuild(db, layout: new)
        case .dropOldTable:
            try db.execute(sql: "DROP TABLE IF EXISTS \(oldTable)")
            try db.execute(sql: "DROP TABLE IF EXISTS \(oldFTSTable)")
            try db.execute(sql: "DELETE FROM long_operations_status WHERE id = ?", arguments: [journalID])
            return
        }
        try db.execute(
            sql: "UPDATE long_operations_status SET status = ?, lastModified = ? WHERE id = ?",
            arguments: [step.rawValue, SoupWriter.now(), journalID]
        )
    }

    /// Alters inside the caller's transaction (all steps commit together).
    static func run(in db: Database, from old: SoupLayout, to specs: [IndexSpec], logger: Logger) throws {
        let operation = try start(db, from: old, to: specs, reIndexData: true)
        for step in Step.allCases { try operation.perform(step, db) }
        logger.debug("Altered soup", metadata: ["store.soup": "\(old.name)"])
    }
}
