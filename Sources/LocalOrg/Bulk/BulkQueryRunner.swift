import Foundation
import GRDB
import SOQL

/// Runs the SOQL of a Bulk query job into a result snapshot and serves its CSV pages.
///
/// The snapshot is the one REST query locators use (`_org_cursor_rows`, see ``OrgQueryRunner``):
/// the row IDs of the whole result in order, written by one `INSERT … SELECT`. A page joins a slice
/// of it back to the tables and writes CSV row by row from a database cursor, so no page holds
/// more than `maxRecords` rows and no step holds the whole result.
struct BulkQueryRunner {
    let db: Database
    let context: OrgContext

    /// One column of the CSV: its header and the SQL giving its text (`NULL` for null).
    struct Column {
        var header: String
        var sql: String
        /// The field's type, which Bulk API 1.0 JSON results type their values by.
        var type: OrgFieldType = .string
    }

    /// A completed job's rows as texts (`nil` for null), with the column headers and field types.
    struct Rows {
        var headers: [String]
        var types: [OrgFieldType]
        var rows: [[String?]]
    }

    /// Parses `soql` and refuses what Bulk API 2.0 cannot run (real-org.md §0.9).
    /// - Throws: ``OrgError`` `MALFORMED_QUERY`, or `API_ERROR` (400) naming the unsupported feature.
    static func parseForBulk(_ soql: String) throws -> SOQLQuery {
        let query = try OrgQueryCompiler.parse(soql)
        let unsupported = query.bulkUnsupportedFeature
        if let unsupported { throw OrgError.bulkUnsupportedQuery(unsupported) }
        return query
    }

    /// The CSV columns of `query`, in the order requested, with the schema's spelling of each name,
    /// over the joins of `scope` (which resolving the columns adds).
    ///
    /// Each column's SQL spells the value as Bulk does: text as stored, numbers as the REST JSON
    /// writes them (`json_quote`), booleans `true`/`false`, date-times in UTC with `Z`.
    func columns(_ query: SOQLQuery, scope: OrgQueryScope) throws -> [Column] {
        var columns: [Column] = []
        for path in query.selectedFields {
            var components = path.components
            if components.count > 1, components[0].lowercased() == scope.object.name.lowercased(),
                scope.object.field(forRelationship: components[0]) == nil
            {
                components.removeFirst()
            }
            var object = scope.object
            var names: [String] = []
            for name in components.dropLast() {
                guard let lookup = object.field(forRelationship: name) else {
                    throw OrgError.noSuchRelationship(name, object: object.name)
                }
                names.append(lookup.relationshipName ?? name)
                object = try scope.relationship(components.prefix(names.count)[...]).object
            }
            let resolved = try scope.resolve(components)
            names.append(resolved.field.name)
            let header = names.joined(separator: ".")
            guard !columns.contains(where: { $0.header.lowercased() == header.lowercased() }) else { continue }
            columns.append(
                Column(
                    header: header,
                    sql: Self.textSQL(OrgSQL.column(resolved.alias, resolved.field.name), resolved.field.type),
                    type: resolved.field.type
                )
            )
        }
        return columns
    }

    /// The CSV text of a stored column, `NULL` for null.
    static func textSQL(_ column: String, _ type: OrgFieldType) -> String {
        switch type {
        case .boolean:
            "(CASE WHEN \(column) IS NULL THEN NULL WHEN \(column) THEN 'true' ELSE 'false' END)"
        case .datetime:
            "(CASE WHEN \(column) IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%f', \(column) / 1000.0, 'unixepoch') || 'Z' END)"
        case .int, .double, .currency, .percent:
            "(CASE WHEN \(column) IS NULL THEN NULL ELSE json_quote(\(column)) END)"
        default:
            "CAST(\(column) AS TEXT)"
        }
    }

    /// Snapshots the result of `job`'s query: returns the cursor ID, first sequence number and size.
    func snapshot(_ job: BulkJob) throws -> (cursorID: String, firstSeq: Int64, totalSize: Int) {
        let query = try Self.parseForBulk(job.query ?? "")
        let compiled = try OrgQueryCompiler(
            context: context,
            apiVersion: job.apiVersion,
            includeDeleted: job.operation == "queryAll"
        )
        .compile(query)
        let firstSeq = (try Int64.fetchOne(db, sql: "SELECT max(seq) FROM _org_cursor_rows") ?? 0) + 1
        let snapshot =
            SQLFragment("INSERT INTO _org_cursor_rows (rid) SELECT \(compiled.rootAlias).rowid") + compiled.tail
        try db.execute(sql: snapshot.sql, arguments: snapshot.statementArguments)
        let totalSize = db.changesCount
        let cursorID = OrgRecordID.make(prefix: OrgQueryRunner.locatorPrefix, counter: try OrgMeta.nextIDCounter(db))
        try db.execute(
            sql: """
                INSERT INTO _org_cursor (id, soql, includeDeleted, totalSize, firstSeq, createdAt)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                cursorID, job.query, job.operation == "queryAll", totalSize, firstSeq, context.nowMilliseconds,
            ]
        )
        return (cursorID, firstSeq, totalSize)
    }

    /// One page of a completed job's results as CSV, header first.
    ///
    /// - Returns: the CSV bytes, the number of records in it, and the offset of the next page (`nil`
    ///   after the last).
    func page(_ job: BulkJob, offset: Int, maxRecords: Int) throws -> (csv: Data, count: Int, next: Int?) {
        var writer = BulkCSVWriter(delimiter: job.delimiterByte, lineEnding: job.lineEndingBytes)
        let end = min(offset + maxRecords, job.totalSize)
        var count = 0
        try forEachRow(job, offset: offset, end: end) { values in
            writer.appendRow(values)
            count += 1
        } header: { headers in
            writer.appendRow(headers)
        }
        return (writer.data, count, end < job.totalSize ? end : nil)
    }

    /// The rows `offset..<end` of a completed job's results as texts (`nil` for null), with the
    /// column headers (Bulk API 1.0 JSON and XML results).
    func rows(_ job: BulkJob, offset: Int, end: Int) throws -> Rows {
        var rows: [[String?]] = []
        let columns = try forEachRow(job, offset: offset, end: end, { rows.append($0) }, header: { _ in })
        return Rows(headers: columns.map(\.header), types: columns.map(\.type), rows: rows)
    }

    /// Calls `header` with the column headers, then `body` with each row of `offset..<end`, read from a
    /// database cursor (no step holds more than one row).
    @discardableResult
    private func forEachRow(
        _ job: BulkJob,
        offset: Int,
        end: Int,
        _ body: ([String?]) -> Void,
        header: ([String]) -> Void
    ) throws -> [Column] {
        let query = try Self.parseForBulk(job.query ?? "")
        let object = try context.queryObject(query.object)
        let scope = OrgQueryScope(object: object, schema: context.schema, aliases: OrgQueryScope.AliasGenerator())
        let columns = try columns(query, scope: scope)
        let headers = columns.map(\.header)
        header(headers)
        guard offset < end else { return columns }
        let sql =
            "SELECT " + columns.map(\.sql).joined(separator: ", ")
            + " FROM _org_cursor_rows c JOIN \(OrgSQL.identifier(object.name)) \(scope.alias)"
            + " ON \(scope.alias).rowid = c.rid \(scope.joinClause) WHERE c.seq >= ? AND c.seq < ? ORDER BY c.seq"
        let rows = try Row.fetchCursor(
            db,
            sql: sql,
            arguments: [job.firstSeq + Int64(offset), job.firstSeq + Int64(end)]
        )
        var values = [String?](repeating: nil, count: columns.count)
        while let row = try rows.next() {
            for index in columns.indices { values[index] = row[index] }
            body(values)
        }
        return columns
    }
}
