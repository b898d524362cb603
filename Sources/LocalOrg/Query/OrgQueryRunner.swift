import Foundation
import GRDB

/// Runs compiled queries and serves their pages.
///
/// A result that fits one page is built by a single statement. A larger one is snapshotted: the row
/// IDs of the whole result, in order, go into `_org_cursor_rows` in one `INSERT … SELECT`, and each page
/// (the first, and every `queryMore`) joins a contiguous slice of that list back to the tables. Pages
/// are therefore cheap at any depth, stable while records change, and survive a restart; the cursor
/// row in `_org_cursor` keeps the SOQL text to rebuild the record projection.
struct OrgQueryRunner {
    let db: Database
    let context: OrgContext

    /// The prefix of locator IDs, as on Salesforce.
    static let locatorPrefix = "0r8"

    func query(_ soql: String, includeDeleted: Bool, pageSize: Int, apiVersion: String) throws -> OrgQueryPage {
        let pageSize = max(1, pageSize)
        let compiled = try OrgQueryCompiler(context: context, apiVersion: apiVersion, includeDeleted: includeDeleted)
            .compile(soql)
        let tail = compiled.tail
        let countSQL = "SELECT count(*) FROM (SELECT 1" + tail.sql + ")"
        let totalSize = try Int.fetchOne(db, sql: countSQL, arguments: tail.statementArguments) ?? 0
        if compiled.isCount {
            return OrgQueryPage(totalSize: totalSize, done: true, nextLocator: nil, recordsJSON: Data("[]".utf8))
        }
        if totalSize <= pageSize {
            let rows = SQLFragment("SELECT ") + compiled.projection + SQLFragment(" AS r") + tail
            return OrgQueryPage(
                totalSize: totalSize,
                done: true,
                nextLocator: nil,
                recordsJSON: try pageJSON(rows)
            )
        }
        try purgeExpiredCursors()
        let firstSeq = (try Int64.fetchOne(db, sql: "SELECT max(seq) FROM _org_cursor_rows") ?? 0) + 1
        // The INSERT assigns `seq` in the SELECT's order, so the snapshot keeps the query's ordering.
        let snapshot = SQLFragment("INSERT INTO _org_cursor_rows (rid) SELECT \(compiled.rootAlias).rowid") + tail
        try db.execute(sql: snapshot.sql, arguments: snapshot.statementArguments)
        let locator = OrgRecordID.make(prefix: Self.locatorPrefix, counter: try OrgMeta.nextIDCounter(db))
        try db.execute(
            sql: """
                INSERT INTO _org_cursor (id, soql, includeDeleted, totalSize, firstSeq, createdAt)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [locator, soql, includeDeleted, totalSize, firstSeq, context.nowMilliseconds]
        )
        return try page(
            compiled,
            locator: locator,
            firstSeq: firstSeq,
            totalSize: totalSize,
            offset: 0,
            pageSize: pageSize
        )
    }

    func queryMore(locator text: String, pageSize: Int, apiVersion: String) throws -> OrgQueryPage {
        let pageSize = max(1, pageSize)
        guard let dash = text.lastIndex(of: "-"), let offset = Int(text[text.index(after: dash)...]), offset >= 0 else {
            throw OrgError.invalidLocator(text)
        }
        let locator = String(text[..<dash])
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT soql, includeDeleted, totalSize, firstSeq, createdAt FROM _org_cursor WHERE id = ?",
                arguments: [locator]
            )
        else { throw OrgError.invalidLocator(text) }
        let createdAt: Int64 = row["createdAt"]
        let totalSize: Int = row["totalSize"]
        let lifetime = Int64(context.configuration.locatorLifetime * 1000)
        guard context.nowMilliseconds - createdAt <= lifetime, offset < totalSize else {
            throw OrgError.invalidLocator(text)
        }
        let compiled = try OrgQueryCompiler(
            context: context,
            apiVersion: apiVersion,
            includeDeleted: row["includeDeleted"]
        )
        .compile(row["soql"] as String)
        return try page(
            compiled,
            locator: locator,
            firstSeq: row["firstSeq"],
            totalSize: totalSize,
            offset: offset,
            pageSize: pageSize
        )
    }

    /// The records of a query as one JSON array, at most `maximum` of them, without paging (SOSL).
    func recordsJSON(_ soql: String, apiVersion: String, maximum: Int) throws -> Data {
        var compiler = OrgQueryCompiler(context: context, apiVersion: apiVersion, includeDeleted: false)
        compiler.checksClauseFields = false
        let compiled = try compiler.compile(soql)
        var rows = SQLFragment("SELECT r FROM (SELECT ") + compiled.projection + SQLFragment(" AS r") + compiled.tail
        rows.append(") LIMIT \(max(0, maximum))")
        return try pageJSON(rows)
    }

    /// One page of a snapshotted result.
    private func page(
        _ compiled: OrgCompiledQuery,
        locator: String,
        firstSeq: Int64,
        totalSize: Int,
        offset: Int,
        pageSize: Int
    ) throws -> OrgQueryPage {
        let alias = compiled.rootAlias
        let joins = compiled.joins
        var rows = SQLFragment("SELECT ") + compiled.projection
        rows.append(
            " AS r FROM _org_cursor_rows c JOIN \(OrgSQL.identifier(compiled.object.name)) \(alias) ON \(alias).rowid = c.rid \(joins) WHERE c.seq >= ? AND c.seq < ? ORDER BY c.seq"
        )
        let start = firstSeq + Int64(offset)
        let end = min(start + Int64(pageSize), firstSeq + Int64(totalSize))
        rows.arguments += [start.databaseValue, end.databaseValue]
        let next = offset + pageSize
        return OrgQueryPage(
            totalSize: totalSize,
            done: next >= totalSize,
            nextLocator: next >= totalSize ? nil : "\(locator)-\(next)",
            recordsJSON: try pageJSON(rows)
        )
    }

    /// The JSON array text of the rows a `SELECT <json> AS r …` statement yields, joined by SQLite.
    private func pageJSON(_ rows: SQLFragment) throws -> Data {
        let sql = "SELECT '[' || coalesce(group_concat(r, ','), '') || ']' FROM (" + rows.sql + ")"
        let text = try String.fetchOne(db, sql: sql, arguments: rows.statementArguments) ?? "[]"
        return Data(text.utf8)
    }

    /// Drops cursors older than the locator lifetime, with their snapshot rows.
    private func purgeExpiredCursors() throws {
        let limit = context.nowMilliseconds - Int64(context.configuration.locatorLifetime * 1000)
        let expired = try Row.fetchAll(
            db,
            sql: "SELECT id, firstSeq, totalSize FROM _org_cursor WHERE createdAt < ?",
            arguments: [limit]
        )
        for cursor in expired {
            let first: Int64 = cursor["firstSeq"]
            let total: Int64 = cursor["totalSize"]
            try db.execute(
                sql: "DELETE FROM _org_cursor_rows WHERE seq >= ? AND seq < ?",
                arguments: [first, first + total]
            )
            try db.execute(sql: "DELETE FROM _org_cursor WHERE id = ?", arguments: [cursor["id"] as String])
        }
    }
}
