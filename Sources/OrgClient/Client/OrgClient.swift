import Foundation

/// What the sync engine needs from an org: query pages, record writes, composite and collection
/// calls, describe, search and recently viewed records.
///
/// ``RESTOrgClient`` implements it over the Salesforce REST API (a real org or the local org);
/// engine unit tests use an in-memory one. Conveniences built on these requirements, such as
/// ``queryPages(_:options:)``, are in an extension.
///
/// ```swift
/// func pull(_ org: some OrgClient) async throws {
///     for try await page in org.queryPages("SELECT Id, Name FROM Account", options: .init()) {
///         try store.insertRecords(of: page.body)   // raw JSON; no per-record parsing here
///     }
/// }
/// ```
///
/// Every method throws ``OrgClientError``, or `CancellationError` when the task is cancelled.
public protocol OrgClient: Sendable {
    /// Runs a SOQL query (or queryAll) and returns its first page.
    func queryFirstPage(_ soql: String, options: QueryOptions) async throws -> QueryPage

    /// Fetches the page at a `nextRecordsUrl` of an earlier page. Only ``QueryOptions/batchSize``
    /// of `options` matters here.
    func queryMore(_ nextRecordsURL: String, options: QueryOptions) async throws -> QueryPage

    /// Creates a record and returns its ID. Throws ``OrgClientError/Code/responseLost`` when the
    /// connection dropped after the request was sent (a create is never resent blindly).
    func create(_ objectType: String, fields: [String: OrgValue]) async throws -> String

    /// Updates fields of a record. With `ifUnmodifiedSince`, throws
    /// ``OrgClientError/Code/conflict`` when the record changed on the org after that instant.
    func update(_ objectType: String, id: String, fields: [String: OrgValue], ifUnmodifiedSince: Date?) async throws

    /// Deletes a record. Throws ``OrgClientError/Code/notFound`` when it is already gone.
    func delete(_ objectType: String, id: String) async throws

    /// Creates or updates the record whose external-ID field has `externalID`.
    func upsert(
        _ objectType: String,
        externalIDField: String,
        externalID: String,
        fields: [String: OrgValue]
    ) async throws -> UpsertResult

    /// Fetches one record (all fields when `fields` is empty). Throws
    /// ``OrgClientError/Code/notFound`` when it does not exist.
    func retrieve(_ objectType: String, id: String, fields: [String]) async throws -> RawJSON

    /// Sends up to 25 independent subrequests in one composite batch call.
    func compositeBatch(_ subrequests: [BatchSubrequest], haltOnError: Bool) async throws -> [BatchSubresponse]

    /// Sends up to 25 subrequests that may reference each other's results (`@{ref.id}`) in one
    /// composite call; the responses come back in request order.
    func composite(_ subrequests: [CompositeSubrequest], allOrNone: Bool) async throws -> [CompositeSubresponse]

    /// Runs one sObject Collections write of up to 200 records; one result per record, in order.
    func collection(_ operation: CollectionOperation, allOrNone: Bool) async throws -> [CollectionResult]

    /// Fetches up to 2,000 records of one type by ID; `nil` marks a record that does not exist.
    func retrieveCollection(_ objectType: String, ids: [String], fields: [String]) async throws -> [OrgValue?]

    /// Fetches one page of the Briefcase priming-records API: the ids of the records in the
    /// briefcases assigned to the app. The first page may be limited to records changed after
    /// `changedAfter`; later pages pass the previous page's `relayToken` (and no date).
    func primingRecords(relayToken: String?, changedAfter: Date?) async throws -> PrimingRecordsPage

    /// Lists the org's sObjects.
    func describeGlobal() async throws -> GlobalDescription

    /// Describes one sObject: its fields and child relationships.
    func describe(_ objectType: String) async throws -> SObjectDescription

    /// The describe of one sObject as the org sent it (`GET /sobjects/{Type}/describe`), for
    /// storing whole (the metadata sync down target).
    func describeJSON(_ objectType: String) async throws -> RawJSON

    /// Runs a SOSL search and returns the raw response (`{"searchRecords": [...]}`).
    func search(_ sosl: String) async throws -> RawJSON

    /// Returns the IDs of the records of `objectType` the user viewed most recently.
    func recentlyViewedIDs(_ objectType: String, limit: Int?) async throws -> [String]

    /// Returns the org's limits (`DailyApiRequests` and others) by name.
    func limits() async throws -> [String: OrgLimit]

    /// The org and user of the session, from the `identity` URL of the version's resources
    /// (`GET /services/data/vXX.X/`).
    func identity() async throws -> OrgUserIdentity

    /// Requests, retries, bytes and the latest API usage so far.
    func statistics() -> OrgClientStatistics
}
