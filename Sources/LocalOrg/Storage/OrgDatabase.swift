import FileSchema
import Foundation
import GRDB

/// The local org's records: one SQLite database (`DIR/org.sqlite`, WAL) with a table per sObject,
/// SOQL evaluated as SQL, writes with Salesforce's validation and error codes, describe and search.
///
/// Every method is synchronous and thread-safe; reads run concurrently, writes are serialised. All
/// methods throw ``OrgError`` (HTTP status + Salesforce error code), never a GRDB error.
///
/// ```swift
/// let org = try OrgDatabase(directory: dataDirectory)
/// let id = try org.write { try $0.create("Account", fields: ["Name": "Acme"]) }
/// let page = try org.query("SELECT Id, Name FROM Account", pageSize: 2000, apiVersion: "59.0")
/// response.body = page.responseBody(apiVersion: "59.0")
/// ```
public final class OrgDatabase: Sendable {
    /// Settings of a local org database.
    public struct Configuration: Sendable {
        /// The clock for audit fields and date literals. Default: the system clock.
        public var now: @Sendable () -> Date
        /// The time zone that date literals (`TODAY`, `LAST_N_DAYS:n`) and date-only values use.
        /// Default: UTC.
        public var timeZone: TimeZone
        /// How long query locators stay valid. Default: 2 days, as on Salesforce.
        public var locatorLifetime: TimeInterval
        /// Seeds the ID space a new org draws (its pod and numbering start, hence its organization
        /// ID and every record ID), so a test gets the same IDs on every run. `nil` (the default)
        /// draws at random. Ignored when the database already exists: its ID space is stored.
        public var idSeed: UInt64?
        /// How long change events are kept for replay. Default: 72 hours, as on Salesforce.
        public var changeEventRetention: TimeInterval

        /// Creates a configuration.
        public init(
            now: @escaping @Sendable () -> Date = { Date() },
            timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current,
            locatorLifetime: TimeInterval = 2 * 24 * 3600,
            idSeed: UInt64? = nil,
            changeEventRetention: TimeInterval = 72 * 3600
        ) {
            self.now = now
            self.timeZone = timeZone
            self.locatorLifetime = locatorLifetime
            self.idSeed = idSeed
            self.changeEventRetention = changeEventRetention
        }
    }

    /// The database file name inside the data directory.
    public static let fileName = "org.sqlite"

    /// The data directory.
    public let directory: URL
    /// The schema in use (the persisted one, or the one given to `init`, which is then persisted).
    public let schema: OrgSchema
    /// The settings.
    public let configuration: Configuration
    /// The 18-character ID of the org's `Organization` record.
    public let organizationID: String
    /// The 18-character ID of the org's default `User` (owner of records created through the API).
    public let userID: String

    let pool: DatabasePool
    let context: OrgContext
    /// What opening the org did to its tables' schema (the steps applied; none when current).
    public let upgrade: VersionedDatabase.Upgrade
    /// The change events of every write (Change Data Capture), as the Pub/Sub API serves them.
    public let changeEvents: ChangeEventFeed

    /// Opens or creates `directory/org.sqlite`.
    ///
    /// - Parameters:
    ///   - directory: The data directory; created if missing.
    ///   - schema: The schema to use and persist. `nil` uses the schema persisted in the database, or
    ///     ``OrgSchema/standard`` for a new database. A given schema may add objects and fields to an
    ///     existing database (tables and columns are added); it may not remove or retype them.
    ///   - configuration: Clock, time zone and locator lifetime.
    /// - Throws: ``OrgError`` when the directory or database cannot be opened or the schema conflicts
    ///   with the stored one.
    public init(directory: URL, schema: OrgSchema? = nil, configuration: Configuration = Configuration()) throws {
        self.directory = directory
        self.configuration = configuration
        let path = directory.appendingPathComponent(Self.fileName).path
        let isNewFile: Bool
        do {
            isNewFile = try OrgDataFiles.prepare(directory: directory, databaseName: Self.fileName)
            // A newer syncrun's org is refused before the writable open writes to it.
            try OrgMigrator.refuseNewer(path: path)
            var config = GRDB.Configuration()
            config.busyMode = .timeout(30)
            config.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // The writer runs every record of a collections call in a savepoint of its own: with
                // SQLite's default temp store, the savepoint journal spills to a temporary file and
                // each record's pages are written there (430 MB of pwrite for 10,000 updates). In
                // memory it holds one record's pages at a time. Readers keep the default, so a large
                // unindexed sort of a query still spills to disk. Set before any temp object exists:
                // changing temp_store drops them (the change-capture triggers are created later).
                if !db.configuration.readonly { try db.execute(sql: "PRAGMA temp_store = MEMORY") }
            }
            pool = try DatabasePool(path: directory.appendingPathComponent(Self.fileName).path, configuration: config)
        } catch let error as OrgError {
            throw error
        } catch {
            throw OrgError.storage("Opening the local org database in '\(directory.path)'", error)
        }
        upgrade = try OrgMigrator.upgrade(pool, path: path, isNewFile: isNewFile)
        let opened = try OrgMigrator.open(pool, schema: schema, configuration: configuration)
        self.schema = opened.schema
        self.organizationID = opened.organizationID
        self.userID = opened.userID
        self.context = OrgContext(
            schema: opened.schema,
            configuration: configuration,
            organizationID: opened.organizationID,
            userID: opened.userID,
            idSpace: opened.idSpace
        )
        changeEvents = ChangeEventFeed(pool: pool, schema: opened.schema)
        try OrgError.mappingStorageErrors("Preparing change events") {
            try ChangeCapture.install(on: pool, context: context, schemas: changeEvents.schemas, feed: changeEvents)
        }
    }

    /// A handle on the same database acting as `base`'s org in `context` (a restricted user).
    private init(sharing base: OrgDatabase, context: OrgContext) {
        directory = base.directory
        configuration = base.configuration
        organizationID = base.organizationID
        userID = base.userID
        pool = base.pool
        upgrade = base.upgrade
        changeEvents = base.changeEvents
        schema = context.schema
        self.context = context
    }

    /// This org as the schema's user `username` sees it (``OrgSchema/users``): describes, queries
    /// and writes through the returned handle follow that user's profile and permission sets.
    /// `nil` is the org's all-powerful user (this handle). A username the schema no longer
    /// declares sees only the objects every user reads, so a stored job or token never gains
    /// access when the schema file changes.
    func acting(as username: String?) -> OrgDatabase {
        guard let username else { return self }
        let whole = context.storageSchema
        let access =
            whole.user(named: username).map { OrgUserAccess(user: $0, schema: whole) }
            ?? OrgUserAccess(nobody: username)
        if context.access == access { return self }
        return OrgDatabase(sharing: self, context: context.acting(as: access))
    }

    // MARK: Queries

    /// Runs a SOQL query and returns its first page.
    ///
    /// - Parameters:
    ///   - soql: The SOQL text (salesforce-rest.md §3.1).
    ///   - includeDeleted: `true` for `queryAll` (soft-deleted rows included).
    ///   - pageSize: Records per page (the REST layer clamps `batchSize` to 200…2000).
    ///   - apiVersion: The request's version (`59.0`), used in `attributes.url`.
    /// - Throws: ``OrgError`` `MALFORMED_QUERY`, `INVALID_TYPE`, `INVALID_FIELD`,
    ///   `NUMBER_OUTSIDE_VALID_RANGE`… (400).
    public func query(
        _ soql: String,
        includeDeleted: Bool = false,
        pageSize: Int = 2000,
        apiVersion: String
    ) throws -> OrgQueryPage {
        try OrgError.mappingStorageErrors("Running a query") {
            try pool.write { db in
                try OrgQueryRunner(db: db, context: context).query(
                    soql,
                    includeDeleted: includeDeleted,
                    pageSize: pageSize,
                    apiVersion: apiVersion
                )
            }
        }
    }

    /// Returns the page a locator names (the part of `nextRecordsUrl` after `/query/` or `/queryAll/`).
    ///
    /// Locators are stored in the database, so they survive a restart until they expire.
    /// - Throws: ``OrgError`` `INVALID_QUERY_LOCATOR` (400) for unknown or expired locators.
    public func queryMore(locator: String, pageSize: Int = 2000, apiVersion: String) throws -> OrgQueryPage {
        try OrgError.mappingStorageErrors("Fetching the next query page") {
            try pool.read { db in
                try OrgQueryRunner(db: db, context: context).queryMore(
                    locator: locator,
                    pageSize: pageSize,
                    apiVersion: apiVersion
                )
            }
        }
    }

    // MARK: Records

    /// One record as a JSON object with `attributes`, all fields (or those named) in schema order.
    /// Records the view for ``recentlyViewed(_:limit:apiVersion:)``.
    /// - Throws: ``OrgError`` `NOT_FOUND` / `ENTITY_IS_DELETED` (404), `INVALID_FIELD` (400),
    ///   `NOT_FOUND` for unknown objects.
    public func retrieve(_ object: String, id: String, fields: [String]? = nil, apiVersion: String) throws -> Data {
        try write { try $0.retrieve(object, id: id, fields: fields, apiVersion: apiVersion, markViewed: true) }
    }

    /// The record whose external-ID field equals `value`.
    /// - Throws: ``OrgError`` 404 when none matches or the field is unknown, 300 (with
    ///   ``OrgError/matchingRecords``) when several match.
    public func retrieve(
        _ object: String,
        externalIDField: String,
        value: String,
        fields: [String]? = nil,
        apiVersion: String
    ) throws -> Data {
        try read {
            try $0.retrieve(
                object,
                externalIDField: externalIDField,
                value: value,
                fields: fields,
                apiVersion: apiVersion
            )
        }
    }

    /// Several records as a JSON array aligned with `ids`, `null` for IDs that are missing or deleted
    /// (sObject Collections retrieve, salesforce-rest.md §5.3).
    public func retrieve(_ object: String, ids: [String], fields: [String], apiVersion: String) throws -> Data {
        try read { try $0.retrieve(object, ids: ids, fields: fields, apiVersion: apiVersion) }
    }

    /// The record's modification date and ETag, for conditional requests.
    /// - Throws: ``OrgError`` `NOT_FOUND` (404); deleted records are returned with `isDeleted`.
    public func recordVersion(_ object: String, id: String) throws -> OrgRecordVersion {
        try read { try $0.recordVersion(object, id: id) }
    }

    /// Runs `body` in one SQLite transaction: everything it writes commits together, or nothing does
    /// when it throws. Use ``OrgWriter/savepoint(_:)`` inside to let one record fail alone.
    public func write<T>(_ body: (OrgWriter) throws -> T) throws -> T {
        try OrgError.mappingStorageErrors("Writing records") {
            try pool.write { db in try body(OrgWriter(db: db, context: context)) }
        }
    }

    /// Runs `body` with read-only access (a snapshot).
    func read<T>(_ body: (OrgWriter) throws -> T) throws -> T {
        try OrgError.mappingStorageErrors("Reading records") {
            try pool.read { db in try body(OrgWriter(db: db, context: context)) }
        }
    }

    // MARK: Describe, search, recent items, replication

    /// `GET /sobjects`: the describe-global body (salesforce-rest.md §7.1).
    public func describeGlobal(apiVersion: String) -> Data {
        OrgDescriber(schema: schema, apiVersion: apiVersion).describeGlobal().encoded()
    }

    /// `GET /sobjects/{Type}/describe`: the sObject describe body (§7.2).
    /// - Throws: ``OrgError`` `NOT_FOUND` (404) for an unknown object.
    public func describe(_ object: String, apiVersion: String) throws -> Data {
        let recordTypeIDs = try read { try $0.recordTypeIDs(of: object) }
        return try OrgDescriber(schema: schema, apiVersion: apiVersion, recordTypeIDs: recordTypeIDs)
            .describe(object).encoded()
    }

    /// `GET /sobjects/{Type}`: `{"objectDescribe": {…}, "recentItems": […]}` (§8.2).
    public func basicInfo(_ object: String, apiVersion: String) throws -> Data {
        let summary = try OrgDescriber(schema: schema, apiVersion: apiVersion).summary(object)
        let recent = try read { try $0.recentItems(object, limit: 25, apiVersion: apiVersion) }
        return OrgJSONValue.object(["objectDescribe": summary, "recentItems": .array(recent)]).encoded()
    }

    /// `GET /search?q=`: `{"searchRecords": […]}` for the SOSL subset
    /// `FIND {term} [IN ALL|NAME|EMAIL|PHONE FIELDS] [RETURNING T(f, …) [, …]] [LIMIT n]` (§8.1).
    /// - Throws: ``OrgError`` `MALFORMED_SEARCH` (400), `INVALID_TYPE`, `INVALID_FIELD`.
    public func search(_ sosl: String, apiVersion: String) throws -> Data {
        try read { try OrgSearcher(writer: $0).search(sosl, apiVersion: apiVersion) }
    }

    /// `GET /recent` (object `nil`) or the recent items of one object: a JSON array of
    /// `{"attributes", "Id", "Name"}`, most recently viewed or changed first (§8.2).
    public func recentlyViewed(_ object: String?, limit: Int = 200, apiVersion: String) throws -> Data {
        let items = try read { try $0.recentItems(object, limit: limit, apiVersion: apiVersion) }
        return OrgJSONValue.array(items).encoded()
    }

    /// `GET /sobjects/{Type}/deleted/?start=&end=`: records deleted in `[start, end]` (§4.4).
    public func deletedRecords(_ object: String, start: Date, end: Date) throws -> Data {
        try read { try $0.replicationFeed(object, start: start, end: end, deleted: true) }
    }

    /// `GET /sobjects/{Type}/updated/?start=&end=`: IDs of live records changed in `[start, end]` (§4.4).
    public func updatedRecords(_ object: String, start: Date, end: Date) throws -> Data {
        try read { try $0.replicationFeed(object, start: start, end: end, deleted: false) }
    }
}
