import Foundation

/// One page of a query result: the counts, the locator of the next page, and the records as JSON
/// text built by SQLite.
public struct OrgQueryPage: Sendable, Equatable {
    /// Rows the whole query matches (not the page length); for `COUNT()` queries, the count.
    public var totalSize: Int
    /// Whether this is the last page.
    public var done: Bool
    /// The opaque locator of the next page (`0r8…-2000`) while `done` is false. The REST layer serves
    /// it as `nextRecordsUrl` = `/services/data/v{v}/query/{locator}` and passes it back to
    /// ``OrgDatabase/queryMore(locator:pageSize:apiVersion:)``.
    public var nextLocator: String?
    /// The JSON array text of the page's records (`[{"attributes":{…},"Id":…},…]`).
    public var recordsJSON: Data

    /// Creates a page.
    public init(totalSize: Int, done: Bool, nextLocator: String?, recordsJSON: Data) {
        self.totalSize = totalSize
        self.done = done
        self.nextLocator = nextLocator
        self.recordsJSON = recordsJSON
    }

    /// The `nextRecordsUrl` value for the page, if there is a next page.
    public func nextRecordsURL(apiVersion: String) -> String? {
        nextLocator.map { "/services/data/v\(apiVersion)/query/\($0)" }
    }

    /// The complete REST response body `{"totalSize":…,"done":…,["nextRecordsUrl":…,]"records":[…]}`,
    /// assembled without re-parsing the records.
    public func responseBody(apiVersion: String) -> Data {
        var head = "{\"totalSize\":\(totalSize),\"done\":\(done)"
        if let url = nextRecordsURL(apiVersion: apiVersion) {
            head += ",\"nextRecordsUrl\":\(OrgJSONValue.string(url).jsonText)"
        }
        head += ",\"records\":"
        var body = Data(head.utf8)
        body.append(recordsJSON)
        body.append(UInt8(ascii: "}"))
        return body
    }
}
