import Foundation
import GRDB

/// Sync down's page upsert in one pass over the page bytes (sync-semantics §4.5–§4.6): the page is
/// scanned once in Swift, each record's final document is its own bytes with the control fields
/// appended, and index columns are bound from the scanned values. SQLite only looks up existing
/// entries and writes rows; no JSON function runs per record.
///
/// It gives exactly what ``BatchUpsert`` gives with `.serverRecord` control, and covers the
/// shape of every page Salesforce sends: minified objects keyed by a plain string, top-level index
/// paths. Anything else (whitespace inside records, keys starting with `_`, escaped or non-string
/// values where the conversion would need SQLite's number formatting, dotted index paths, a missing
/// or ambiguous key, a malformed page) makes ``run(_:layout:page:now:)`` return `nil` before
/// writing anything, and the caller takes the SQL path, which handles and reports all of it.
struct DirectPageUpsert {
    /// The external id path (`Id`).
    var keyPath: String
    /// Written as `__sync_id__` when set.
    var syncID: Int64?
    /// What happens to stored entries with local changes.
    var localEntries: LocalEntries
    var modificationDateField: String?
    /// When set, the key of every record of the page also goes to this table of the caller's.
    var keys: PageKeysTarget?
    /// An append into a soup that held none of these records (``PageUpsertOptions/appendsWithoutLookup``):
    /// nothing is looked up, every kept record is inserted.
    var appendsWithoutLookup = false

    /// Runs the upsert, or returns `nil` (having written nothing) when the page or soup is not
    /// of the shape this path handles.
    ///
    /// - Throws: `DatabaseError` from SQLite.
    func run(_ db: Database, layout: SoupLayout, page: String, now: Int64) throws -> BatchUpsert.Result? {
        guard let plan = Plan(layout: layout, keyPath: keyPath, modificationDateField: modificationDateField) else {
            return nil
        }
        var text = page
        return try text.withUTF8 { bytes -> BatchUpsert.Result? in
            guard bytes.count < Int(Int32.max), let base = bytes.baseAddress,
                let scan = PageScan.scan(bytes, keys: plan.keys)
            else { return nil }
            var pass = Pass(upsert: self, plan: plan, layout: layout, scan: scan, base: base, now: now)
            return try pass.run(db)
        }
    }
}

extension DirectPageUpsert {
    /// A column value, as bound.
    enum Cell {
        case null
        /// Bytes of the page.
        case slice(Int32, Int32)
        case literal(StaticString)
        case integer(Int64)
        case real(Double)
        case string(String)
    }

    /// Where a column's value comes from.
    enum Source {
        /// A member of the server record (scanned slot).
        case member(Int)
        /// A control flag the upsert sets to `false`.
        case clearedFlag
        /// `__sync_id__`.
        case syncID
        /// `_soupEntryId`.
        case entryID
        /// `_soupLastModifiedDate`.
        case lastModified
        /// A path absent from every document this path writes.
        case absent
    }

    /// What the layout asks for, decided once per page.
    struct Plan {
        var keys: [[UInt8]] = []
        var keySlot = 0
        var keyIsInteger = false
        var keyColumn: String
        var modificationSlot: Int?
        var columns: [(index: SoupLayout.Index, source: Source)] = []

        init?(layout: SoupLayout, keyPath: String, modificationDateField: String?) {
            func isTopLevel(_ path: String) -> Bool {
                SoupPath.isValid(path) && !path.contains(".")
            }
            guard isTopLevel(keyPath), !keyPath.hasPrefix("_"), let key = layout.index(forPath: keyPath) else {
                return nil
            }
            switch key.type {
            case .string, .fullText: keyIsInteger = false
            case .integer: keyIsInteger = true
            case .floating, .json1: return nil
            }
            keyColumn = key.columnName
            if let field = modificationDateField {
                guard isTopLevel(field), !field.hasPrefix("_") else { return nil }
            }
            var slots: [String: Int] = [:]
            func slot(_ path: String) -> Int {
                if let slot = slots[path] { return slot }
                keys.append(Array(path.utf8))
                slots[path] = keys.count - 1
                return keys.count - 1
            }
            keySlot = slot(keyPath)
            modificationSlot = modificationDateField.map(slot)
            for index in layout.columns {
                guard isTopLevel(index.path) else { return nil }
                let source: Source
                switch index.path {
                case ControlFields.local, ControlFields.locallyCreated, ControlFields.locallyUpdated,
                    ControlFields.locallyDeleted:
                    source = .clearedFlag
                case ControlFields.syncID: source = .syncID
                case SoupPath.entryID: source = .entryID
                case SoupPath.lastModified: source = .lastModified
                case let path where path.hasPrefix("_"): source = .absent
                case let path: source = .member(slot(path))
                }
                columns.append((index, source))
            }
        }
    }

    /// A byte range of the page used as a dictionary key (`Id` values, compared as SQL compares
    /// text with the BINARY collation).
    struct Slice: Hashable {
        let pointer: UnsafePointer<UInt8>
        let count: Int

        static func == (lhs: Slice, rhs: Slice) -> Bool {
            lhs.count == rhs.count && memcmp(lhs.pointer, rhs.pointer, lhs.count) == 0
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: UnsafeRawBufferPointer(start: pointer, count: count))
        }

        /// SQLite's BINARY order.
        static func < (lhs: Slice, rhs: Slice) -> Bool {
            let common = memcmp(lhs.pointer, rhs.pointer, min(lhs.count, rhs.count))
            return common != 0 ? common < 0 : lhs.count < rhs.count
        }
    }
}
