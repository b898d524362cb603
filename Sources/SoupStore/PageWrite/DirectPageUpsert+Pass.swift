import Foundation
import GRDB
import GRDBSQLite

extension DirectPageUpsert {
    /// One page's work: classify every record (returning `nil` at the first one this path does
    /// not handle), look up stored entries, then write.
    struct Pass {
        let upsert: DirectPageUpsert
        let plan: Plan
        let layout: SoupLayout
        let scan: PageScan
        let base: UnsafePointer<UInt8>
        let now: Int64

        /// Per record: its key.
        private var keys: [Slice] = []
        /// Per record and member column: the value (`memberCells[record * memberColumns + i]`).
        private var memberCells: [Cell] = []
        private var memberColumns = 0
        /// Per record: whether it is the last of its key in the page (the one kept).
        private var isLast: [Bool] = []
        /// Per record: the stored entry with its key, and whether that entry has local changes.
        private var existing: [Int64?] = []
        private var isLocal: [Bool] = []
        /// Per record with a stored entry: bit `i` set when index column `i` already holds the
        /// value the record would write (the update leaves that column, and its SQL index, alone).
        private var unchanged: [UInt64] = []
        /// Per record with a clean stored entry: whether that entry's document is exactly the one
        /// the write would store but for its `_soupLastModifiedDate` (the record came again,
        /// unchanged: a tie-safe resync re-reads the records at its watermark). It is not
        /// rewritten, and counted as unchanged rather than updated.
        private var sameDocument: [Bool] = []

        init(
            upsert: DirectPageUpsert,
            plan: Plan,
            layout: SoupLayout,
            scan: PageScan,
            base: UnsafePointer<UInt8>,
            now: Int64
        ) {
            self.upsert = upsert
            self.plan = plan
            self.layout = layout
            self.scan = scan
            self.base = base
            self.now = now
        }

        mutating func run(_ db: Database) throws -> BatchUpsert.Result? {
            guard classify() else { return nil }
            if upsert.appendsWithoutLookup {
                existing = Array(repeating: nil, count: keys.count)
                isLocal = Array(repeating: false, count: keys.count)
                unchanged = Array(repeating: 0, count: keys.count)
            } else {
                guard try lookUp(db) else { return nil }
            }
            return try write(db)
        }

        // MARK: - Classification

        private mutating func classify() -> Bool {
            let count = scan.records.count
            let keyCount = scan.keyCount
            memberColumns = plan.columns.count
            keys.reserveCapacity(count)
            memberCells.reserveCapacity(count * memberColumns)
            var lastOfKey: [Slice: Int] = [:]
            lastOfKey.reserveCapacity(count)
            for record in 0..<count {
                guard scan.records[record].isPlainObject else { return false }
                let values = record * keyCount
                guard let key = keySlice(scan.values[values + plan.keySlot]) else { return false }
                keys.append(key)
                lastOfKey[key] = record
                if let slot = plan.modificationSlot {
                    switch scan.values[values + slot].kind {
                    case .absent, .null, .plainString: break
                    default: return false
                    }
                }
                for (index, source) in plan.columns {
                    guard case .member(let slot) = source else {
                        memberCells.append(.null)
                        continue
                    }
                    guard let cell = Self.cell(scan.values[values + slot], type: index.type, base: base) else {
                        return false
                    }
                    memberCells.append(cell)
                }
            }
            isLast = (0..<count).map { lastOfKey[keys[$0]] == $0 }
            return true
        }

        /// The key's bytes; `nil` when missing or of a type whose column text would not be its
        /// bytes.
        private func keySlice(_ value: PageScan.Value) -> Slice? {
            switch value.kind {
            case .plainString where !plan.keyIsInteger:
                break
            case .integer:
                guard Self.integer(value, base: base) != nil, !Self.isNegativeZero(value, base: base) else {
                    return nil
                }
            default:
                return nil
            }
            return Slice(pointer: base + Int(value.start), count: Int(value.end - value.start))
        }

        /// The column value SoupProjection's SQL would compute (store.md §3.2, Android); `nil`
        /// when only SQLite's own conversion would give it exactly.
        static func cell(_ value: PageScan.Value, type: SoupIndexType, base: UnsafePointer<UInt8>) -> Cell? {
            switch type {
            case .string, .fullText:
                switch value.kind {
                case .absent, .null: return .null
                case .true: return .literal("true")
                case .false: return .literal("false")
                case .plainString, .object, .array: return .slice(value.start, value.end)
                case .integer:
                    guard integer(value, base: base) != nil, !isNegativeZero(value, base: base) else { return nil }
                    return .slice(value.start, value.end)
                case .escapedString, .real: return nil
                }
            case .integer:
                switch value.kind {
                case .integer: return integer(value, base: base).map { .integer($0) }
                case .real: return nil
                default: return .null
                }
            case .floating:
                switch value.kind {
                case .integer: return integer(value, base: base).map { .real(Double($0)) }
                // The token as text: the column's REAL affinity converts it with sqlite3AtoF, the
                // function json_extract uses.
                case .real: return .slice(value.start, value.end)
                default: return .null
                }
            case .json1:
                return .null
            }
        }

        /// An integer token of at most 18 digits (so it cannot overflow), as SQLite reads it.
        static func integer(_ value: PageScan.Value, base: UnsafePointer<UInt8>) -> Int64? {
            var position = Int(value.start)
            let end = Int(value.end)
            let negative = base[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            guard end - position <= 18 else { return nil }
            var result: Int64 = 0
            while position < end {
                result = result * 10 + Int64(base[position] &- UInt8(ascii: "0"))
                position += 1
            }
            return negative ? -result : result
        }

        static func isNegativeZero(_ value: PageScan.Value, base: UnsafePointer<UInt8>) -> Bool {
            value.end - value.start == 2 && base[Int(value.start)] == UInt8(ascii: "-")
                && base[Int(value.start) + 1] == UInt8(ascii: "0")
        }

        // MARK: - Lookup

        /// Finds the stored entry of every kept record; `false` when a key matches several entries.
        private mutating func lookUp(_ db: Database) throws -> Bool {
            let isLocalSQL = ControlFields.predicate(ControlFields.local, is: true, in: layout, table: "t")
            // The stored index columns come along (from the one matching row when there is one),
            // so the update can leave the columns whose value does not change.
            let storedColumns = plan.columns.map { ", t.\($0.index.columnName)" }.joined() + ", t.soup"
            let probe = try RawStatement(
                db,
                sql: """
                    SELECT min(t.id), count(t.id), coalesce(max(CASE WHEN \(isLocalSQL) THEN 1 ELSE 0 END), 0)\
                    \(storedColumns) FROM \(layout.tableName) AS t WHERE t.\(plan.keyColumn) = ?1
                    """
            )
            let count = keys.count
            existing = Array(repeating: nil, count: count)
            isLocal = Array(repeating: false, count: count)
            unchanged = Array(repeating: 0, count: count)
            sameDocument = Array(repeating: false, count: count)
            let documentColumn = Int32(plan.columns.count + 3)
            var document = DocumentBuilder(syncID: upsert.syncID, now: now)
            for record in 0..<count where isLast[record] {
                let key = keys[record]
                // An integer key of more than 18 digits is compared as text (SQLite applies the
                // column's integer affinity to it).
                if plan.keyIsInteger,
                    let integerKey = Self.integer(scan.values[record * scan.keyCount + plan.keySlot], base: base)
                {
                    probe.bind(1, integer: integerKey)
                } else {
                    probe.bind(1, text: key.pointer, count: key.count)
                }
                defer { probe.reset() }
                guard try probe.step() else { continue }
                let matches = probe.int64(column: 1)
                if matches > 1 { return false }
                if matches == 1 {
                    let id = probe.int64(column: 0)
                    existing[record] = id
                    isLocal[record] = probe.int64(column: 2) != 0
                    var mask: UInt64 = 0
                    for column in plan.columns.indices.prefix(64)
                    where stored(probe, column: Int32(column + 3), holds: cell(record, column: column, id: id)) {
                        mask |= 1 << UInt64(column)
                    }
                    unchanged[record] = mask
                    if !isLocal[record], let stored = probe.text(column: documentColumn) {
                        let span = scan.records[record]
                        sameDocument[record] = document.matches(
                            stored,
                            record: UnsafeBufferPointer(start: base + span.start, count: span.end - span.start),
                            isEmpty: span.isEmptyObject,
                            entryID: id
                        )
                    }
                }
            }
            return true
        }

        // MARK: - Writes

        private func write(_ db: Database) throws -> BatchUpsert.Result {
            var result = BatchUpsert.Result()
            let count = keys.count
            var kept = [Bool](repeating: false, count: count)
            var highestExisting: Int64 = 0
            var latest: Slice?
            for record in 0..<count where isLast[record] {
                if upsert.localEntries.skips(matched: existing[record] != nil, entryIsLocal: isLocal[record]) {
                    result.skipped += 1
                    continue
                }
                kept[record] = true
                if let id = existing[record] {
                    if sameDocument[record] {
                        result.unchanged += 1
                    } else {
                        result.updated += 1
                    }
                    highestExisting = max(highestExisting, id)
                } else {
                    result.inserted += 1
                }
                if let slot = plan.modificationSlot {
                    let value = scan.values[record * scan.keyCount + slot]
                    if value.kind == .plainString {
                        let slice = Slice(pointer: base + Int(value.start), count: Int(value.end - value.start))
                        if latest.map({ $0 < slice }) ?? true { latest = slice }
                    }
                }
            }
            if let latest {
                result.maxModificationDate = .text(
                    String(decoding: UnsafeBufferPointer(start: latest.pointer, count: latest.count), as: UTF8.self)
                )
            }

            let sequence =
                try Int64.fetchOne(
                    db,
                    sql: "SELECT seq FROM sqlite_sequence WHERE name = ?",
                    arguments: [layout.tableName]
                ) ?? 0
            let firstNew = max(sequence, highestExisting) + 1

            let columnNames = plan.columns.map(\.index.columnName)
            var entryIDs: [Int64] = []
            var document = DocumentBuilder(syncID: upsert.syncID, now: now)
            if result.updated > 0 {
                // One statement per set of columns that change: an UPDATE assigning a column
                // rewrites its index entry even when the value is the same.
                var updates: [UInt64: (statement: RawStatement, columns: [Int])] = [:]
                for record in 0..<count where kept[record] && !sameDocument[record] {
                    guard let id = existing[record] else { continue }
                    let mask = unchanged[record]
                    if updates[mask] == nil {
                        let columns = plan.columns.indices.filter { $0 >= 64 || mask & (1 << UInt64($0)) == 0 }
                        let assignments = columns.enumerated().map { ", \(columnNames[$1]) = ?\($0 + 4)" }.joined()
                        let statement = try RawStatement(
                            db,
                            sql:
                                "UPDATE \(layout.tableName) SET soup = ?2, lastModified = ?3\(assignments) WHERE id = ?1"
                        )
                        updates[mask] = (statement, columns)
                    }
                    if let update = updates[mask] {
                        try save(record, id: id, with: update.statement, columns: update.columns, document: &document)
                    }
                    entryIDs.append(id)
                }
            }
            if result.inserted > 0 {
                let names = (["id", "soup", "created", "lastModified"] + columnNames).joined(separator: ", ")
                let values = (["?1", "?2", "?3", "?3"] + columnNames.indices.map { "?\($0 + 4)" })
                    .joined(separator: ", ")
                let insert = try RawStatement(db, sql: "INSERT INTO \(layout.tableName) (\(names)) VALUES (\(values))")
                var next = firstNew
                let allColumns = Array(plan.columns.indices)
                for record in 0..<count where kept[record] && existing[record] == nil {
                    try save(record, id: next, with: insert, columns: allColumns, document: &document)
                    entryIDs.append(next)
                    next += 1
                }
            }
            if layout.hasFullTextTable, !entryIDs.isEmpty {
                let ids = SoupReader.idList(entryIDs)
                try FullText.refresh(
                    db,
                    layout: layout,
                    idsSQL: "SELECT value FROM json_each(?)",
                    arguments: [ids]
                )
            }
            if let target = upsert.keys {
                try insertKeys(db, into: target)
            }
            return result
        }

        /// The value index column `column` gets for `record` stored as entry `id`.
        private func cell(_ record: Int, column: Int, id: Int64) -> Cell {
            let index = plan.columns[column].index
            switch plan.columns[column].source {
            case .member: return memberCells[record * memberColumns + column]
            case .absent: return .null
            case .clearedFlag: return index.type == .string || index.type == .fullText ? .literal("false") : .null
            case .syncID: return upsert.syncID.map { Self.number($0, as: index.type) } ?? .null
            case .entryID: return Self.number(id, as: index.type)
            case .lastModified: return Self.number(now, as: index.type)
            }
        }

        /// Whether result column `column` of `probe` holds exactly what binding `cell` would store.
        /// Any difference of type counts as a change (a text bound to a REAL column, for one), so
        /// the answer is `true` only when writing the cell would leave the column as it is.
        private func stored(_ probe: RawStatement, column: Int32, holds cell: Cell) -> Bool {
            switch cell {
            case .null:
                return probe.isNull(column: column)
            case .slice(let start, let end):
                return probe.textEquals(column: column, base + Int(start), count: Int(end - start))
            case .literal(let text):
                return probe.textEquals(column: column, text.utf8Start, count: text.utf8CodeUnitCount)
            case .string(let text):
                var copy = text
                return copy.withUTF8 { probe.textEquals(column: column, $0.baseAddress ?? base, count: $0.count) }
            case .integer(let value):
                return probe.type(column: column) == SQLITE_INTEGER && probe.int64(column: column) == value
            case .real(let value):
                return probe.type(column: column) == SQLITE_FLOAT && probe.double(column: column) == value
            }
        }

        /// Binds and runs `statement` for one record stored as entry `id`: the entry id, the
        /// document, the stamp, and index columns `columns` as parameters 4, 5, ….
        private func save(
            _ record: Int,
            id: Int64,
            with statement: RawStatement,
            columns: [Int],
            document: inout DocumentBuilder
        ) throws {
            let span = scan.records[record]
            statement.bind(1, integer: id)
            statement.bind(3, integer: now)
            for (position, column) in columns.enumerated() {
                bind(cell(record, column: column, id: id), to: Int32(position + 4), of: statement)
            }
            try document.build(
                record: UnsafeBufferPointer(start: base + span.start, count: span.end - span.start),
                isEmpty: span.isEmptyObject,
                entryID: id
            ) { pointer, count in
                statement.bind(2, text: pointer, count: count)
                try statement.run()
            }
        }

        private static func number(_ value: Int64, as type: SoupIndexType) -> Cell {
            switch type {
            case .string, .fullText: .string(String(value))
            case .integer: .integer(value)
            case .floating: .real(Double(value))
            case .json1: .null
            }
        }

        @inline(__always) private func bind(_ cell: Cell, to parameter: Int32, of statement: RawStatement) {
            switch cell {
            case .null: statement.bindNull(parameter)
            case .slice(let start, let end): statement.bind(parameter, text: base + Int(start), count: Int(end - start))
            case .literal(let text): statement.bind(parameter, text: text)
            case .integer(let value): statement.bind(parameter, integer: value)
            case .real(let value): statement.bind(parameter, real: value)
            case .string(let text): statement.bind(parameter, string: text)
            }
        }

        /// The caller's rows for every record of the page (kept, skipped or duplicate), the key
        /// bound as text from the page's bytes.
        private func insertKeys(_ db: Database, into target: PageKeysTarget) throws {
            let insert = try RawStatement(db, sql: target.insertSQL)
            insert.bind(1, string: layout.name)
            insert.bind(3, integer: target.value)
            for key in keys {
                insert.bind(2, text: key.pointer, count: key.count)
                try insert.run()
            }
        }
    }

    /// Builds a stored document: the record's bytes with the control fields and store stamps
    /// appended, as `json_set` writes them for a minified record without those keys.
    struct DocumentBuilder {
        private var buffer: [UInt8] = []
        private let suffix: [UInt8]
        private let now: [UInt8]

        init(syncID: Int64?, now: Int64) {
            var suffix = Array(
                #""__local__":false,"__locally_created__":false,"__locally_updated__":false,"__locally_deleted__":false"#
                    .utf8
            )
            if let syncID { suffix += Array(#","__sync_id__":\#(syncID)"#.utf8) }
            suffix += Array(#","_soupEntryId":"#.utf8)
            self.suffix = suffix
            self.now = Self.stampKey + Array("\(now)}".utf8)
            buffer.reserveCapacity(4096)
        }

        mutating func build(
            record: UnsafeBufferPointer<UInt8>,
            isEmpty: Bool,
            entryID: Int64,
            _ body: (UnsafePointer<UInt8>, Int) throws -> Void
        ) throws {
            startDocument(record: record, isEmpty: isEmpty, entryID: entryID)
            buffer.append(contentsOf: now)
            try buffer.withUnsafeBufferPointer { bytes in
                // Never empty: it holds at least the record's members and the suffix.
                guard let start = bytes.baseAddress else { return }
                try body(start, bytes.count)
            }
        }

        /// Whether `stored` is the document ``build(record:isEmpty:entryID:_:)`` makes of `record`
        /// as entry `entryID`, whatever its `_soupLastModifiedDate` (digits, then the closing brace).
        mutating func matches(
            _ stored: UnsafeBufferPointer<UInt8>,
            record: UnsafeBufferPointer<UInt8>,
            isEmpty: Bool,
            entryID: Int64
        ) -> Bool {
            startDocument(record: record, isEmpty: isEmpty, entryID: entryID)
            buffer.append(contentsOf: Self.stampKey)
            guard stored.count > buffer.count + 1, stored.last == UInt8(ascii: "}") else { return false }
            let same = buffer.withUnsafeBufferPointer { prefix in
                guard let start = prefix.baseAddress, let storedStart = stored.baseAddress else { return false }
                return memcmp(storedStart, start, prefix.count) == 0
            }
            guard same else { return false }
            return stored[buffer.count..<(stored.count - 1)].allSatisfy {
                $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
            }
        }

        /// Fills the buffer with the document of `record` as entry `entryID` up to its
        /// `_soupLastModifiedDate` member: the record's members, the control fields, the entry id.
        private mutating func startDocument(record: UnsafeBufferPointer<UInt8>, isEmpty: Bool, entryID: Int64) {
            buffer.removeAll(keepingCapacity: true)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: record.dropLast()))
            if !isEmpty { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: suffix)
            Self.appendDecimal(entryID, to: &buffer)
        }

        /// What precedes the stamp's digits in a built document.
        private static let stampKey = Array(#","_soupLastModifiedDate":"#.utf8)

        private static func appendDecimal(_ value: Int64, to buffer: inout [UInt8]) {
            if value < 0 {
                buffer.append(contentsOf: String(value).utf8)
                return
            }
            var digits:
                (
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
                ) =
                    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            var rest = UInt64(value)
            withUnsafeMutableBytes(of: &digits) { raw in
                repeat {
                    raw[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                buffer.append(contentsOf: raw[(20 - count)...])
            }
        }
    }
}
