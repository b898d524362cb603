import Foundation
import Migration

/// The CSV reader of `migrate --from dir:` sets (`DirectorySet.table`): a file of a set, as bytes.
///
/// Checks, beyond "never crash": every row the reader takes is as long as its header, and a table it
/// takes, written back with the set's writer (`DirectorySet.csv`), reads again as the same header and
/// rows (nulls and empty strings kept apart).
enum DirectorySetTarget {
    static func run(_ bytes: [UInt8]) async {
        let table: DirectorySet.Table
        do {
            table = try DirectorySet.table(Data(bytes), file: "fuzz.csv")
        } catch {
            return
        }
        for row in table.rows {
            precondition(row.values.count == table.header.count, "a row not as long as its header")
        }
        let written = DirectorySet.csv(header: table.header, rows: table.rows.map(\.values))
        guard let again = try? DirectorySet.table(written, file: "again.csv") else {
            preconditionFailure("a table the reader took, written by the set's writer, is refused")
        }
        precondition(again.header == table.header, "the header does not read back")
        precondition(again.rows.map(\.values) == table.rows.map(\.values), "the rows do not read back")
    }
}
