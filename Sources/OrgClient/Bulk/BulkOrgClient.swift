import Foundation

/// A Bulk API 2.0 job as the org reports it (`GET /jobs/query/{id}`, `GET /jobs/ingest/{id}`).
public struct BulkJobInfo: Sendable, Hashable {
    /// The job states of Bulk API 2.0.
    public enum State: String, Sendable, Hashable {
        case open = "Open"
        case uploadComplete = "UploadComplete"
        case inProgress = "InProgress"
        case jobComplete = "JobComplete"
        case failed = "Failed"
        case aborted = "Aborted"

        /// Whether the job can change no more.
        public var isTerminal: Bool { self == .jobComplete || self == .failed || self == .aborted }
    }

    /// The job ID (`750…`).
    public var id: String
    /// The state; `nil` for a state this client does not know.
    public var state: State?
    /// The state as the org spelled it.
    public var stateText: String
    /// `query`, `queryAll`, `insert`, `update`, `upsert`, `delete`…
    public var operation: String
    /// The sObject.
    public var object: String
    /// The API version the job was created with (`59.0`).
    public var apiVersion: String
    /// Records processed so far (all of them once `JobComplete`).
    public var numberRecordsProcessed: Int
    /// Records that failed (ingest jobs).
    public var numberRecordsFailed: Int
    /// The server's message when the job failed.
    public var errorMessage: String?
    /// When the job was created, as the org wrote it.
    public var createdDate: String?

    /// Creates a job description.
    public init(
        id: String,
        state: State?,
        stateText: String,
        operation: String,
        object: String,
        apiVersion: String,
        numberRecordsProcessed: Int = 0,
        numberRecordsFailed: Int = 0,
        errorMessage: String? = nil,
        createdDate: String? = nil
    ) {
        self.id = id
        self.state = state
        self.stateText = stateText
        self.operation = operation
        self.object = object
        self.apiVersion = apiVersion
        self.numberRecordsProcessed = numberRecordsProcessed
        self.numberRecordsFailed = numberRecordsFailed
        self.errorMessage = errorMessage
        self.createdDate = createdDate
    }

    init(_ value: OrgValue) {
        id = value["id"]?.stringValue ?? ""
        stateText = value["state"]?.stringValue ?? ""
        state = State(rawValue: stateText)
        operation = value["operation"]?.stringValue ?? ""
        object = value["object"]?.stringValue ?? ""
        if let number = value["apiVersion"]?.doubleValue {
            apiVersion = String(format: "%.1f", number)
        } else {
            apiVersion = value["apiVersion"]?.stringValue ?? ""
        }
        numberRecordsProcessed = value["numberRecordsProcessed"]?.integerValue.map(Int.init) ?? 0
        numberRecordsFailed = value["numberRecordsFailed"]?.integerValue.map(Int.init) ?? 0
        errorMessage = value["errorMessage"]?.stringValue
        createdDate = value["createdDate"]?.stringValue
    }
}

/// One page of a query job's results: CSV text and where the next page starts.
public struct BulkResultsPage: Sendable, Hashable {
    /// The CSV, header row first.
    public var csv: String
    /// The `Sforce-Locator` of the next page; `nil` after the last page (the org sends `null`).
    public var nextLocator: String?
    /// `Sforce-NumberOfRecords`: the records in this page.
    public var numberOfRecords: Int

    /// Creates a page.
    public init(csv: String, nextLocator: String?, numberOfRecords: Int) {
        self.csv = csv
        self.nextLocator = nextLocator
        self.numberOfRecords = numberOfRecords
    }
}

/// One answer of `GET /jobs/query/{id}/resultPages` (API 58.0 and later): the URLs of up to five
/// results pages, each readable on its own and so several at a time, and where the next answer is.
///
/// Salesforce documents the shape in "Get Parallel Results for a Query Job"
/// (https://developer.salesforce.com/docs/atlas.en-us.api_asynch.meta/api_asynch/query_get_parallel_job_results.htm):
/// `resultPages` (objects with a `resultUrl`, `…/results?locator=…`), the next answer's URL (its table
/// spells it `nextRecordUrl`, Salesforce's other paged answers `nextRecordsUrl`; both are read) and
/// `done`.
public struct BulkResultPageLinks: Sendable, Hashable {
    /// The `resultUrl` of each page, in result order: host-relative paths with their query string.
    public var resultURLs: [String]
    /// The URL of the next answer; `nil` when `done`.
    public var nextURL: String?

    /// Creates the links of one answer.
    public init(resultURLs: [String], nextURL: String?) {
        self.resultURLs = resultURLs
        self.nextURL = nextURL
    }
}

/// An ``OrgClient`` that can also run Bulk API 2.0 query jobs (real-org.md §3.1).
///
/// ``RESTOrgClient`` conforms; the engine uses Bulk only through a client that does.
public protocol BulkQueryClient: OrgClient {
    /// The API version requests use (`59.0`); results must be read with the version a job was
    /// created with.
    var apiVersion: String { get }

    /// `POST /jobs/query`: creates a query job (`queryAll` when `includesDeleted`).
    func createQueryJob(_ soql: String, includesDeleted: Bool) async throws -> BulkJobInfo

    /// `GET /jobs/query/{id}`.
    func queryJob(_ id: String) async throws -> BulkJobInfo

    /// `GET /jobs/query`: the org's query jobs.
    func queryJobs() async throws -> [BulkJobInfo]

    /// `GET /jobs/query/{id}/results?locator=…&maxRecords=…`.
    func queryJobResults(_ id: String, locator: String?, maxRecords: Int?) async throws -> BulkResultsPage

    /// `GET /jobs/query/{id}/resultPages[?maxRecords=…]` (API 58.0+), or the `next` URL an earlier
    /// answer gave: the locators of up to five results pages. An org without it answers 404
    /// (``OrgClientError/Code/notFound``), as does a client that does not implement it.
    func queryJobResultPages(_ id: String, next: String?, maxRecords: Int?) async throws -> BulkResultPageLinks

    /// `GET` one `resultUrl` of ``queryJobResultPages(_:next:maxRecords:)``: a results page like
    /// ``queryJobResults(_:locator:maxRecords:)``'s.
    func queryJobResults(_ id: String, resultURL: String) async throws -> BulkResultsPage

    /// `PATCH /jobs/query/{id}` `{"state":"Aborted"}`.
    func abortQueryJob(_ id: String) async throws -> BulkJobInfo

    /// `DELETE /jobs/query/{id}`.
    func deleteQueryJob(_ id: String) async throws
}

extension BulkQueryClient {
    /// A client without `resultPages` answers as an org before API 58.0 does: 404, so its results
    /// are read one locator after the other.
    public func queryJobResultPages(_ id: String, next: String?, maxRecords: Int?) async throws
        -> BulkResultPageLinks
    {
        throw OrgClientError(
            code: .notFound,
            message: "this client does not read Bulk API 2.0 results through resultPages",
            httpStatus: 404
        )
    }

    /// See ``queryJobResultPages(_:next:maxRecords:)``: never reached without it.
    public func queryJobResults(_ id: String, resultURL: String) async throws -> BulkResultsPage {
        throw OrgClientError(
            code: .notFound,
            message: "this client does not read Bulk API 2.0 results through resultPages",
            httpStatus: 404
        )
    }
}

/// The result sets of an ingest job (real-org.md §3.2).
public enum BulkIngestResultSet: String, Sendable, Hashable, CaseIterable {
    /// `sf__Id`, `sf__Created`, then the uploaded columns.
    case successful = "successfulResults"
    /// `sf__Id`, `sf__Error`, then the uploaded columns.
    case failed = "failedResults"
    /// The uploaded columns of records the job did not reach.
    case unprocessed = "unprocessedrecords"
}

/// An ``OrgClient`` that can also run Bulk API 2.0 ingest jobs (real-org.md §3.2).
public protocol BulkIngestClient: BulkQueryClient {
    /// `POST /jobs/ingest`: an `Open` job for `operation` (`insert`, `update`, `upsert`,
    /// `delete`) on `objectType`; `externalIDField` is required for `upsert`.
    func createIngestJob(_ objectType: String, operation: String, externalIDField: String?) async throws
        -> BulkJobInfo

    /// `PUT /jobs/ingest/{id}/batches` with the job's CSV.
    func uploadIngestData(_ id: String, csv: String) async throws

    /// `PATCH /jobs/ingest/{id}` `{"state":"UploadComplete"}` (or `Aborted` with `abort`).
    func closeIngestJob(_ id: String, abort: Bool) async throws -> BulkJobInfo

    /// `GET /jobs/ingest/{id}`.
    func ingestJob(_ id: String) async throws -> BulkJobInfo

    /// One result set of a finished ingest job, as CSV.
    func ingestResults(_ id: String, _ set: BulkIngestResultSet) async throws -> String
}
