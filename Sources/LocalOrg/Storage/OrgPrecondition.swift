import Foundation

/// A condition an update must satisfy (HTTP conditional headers, salesforce-rest.md §4.5).
///
/// When one fails, the write throws `OrgError` status 412 `PRECONDITION_FAILED` and changes nothing.
public enum OrgPrecondition: Sendable, Equatable {
    /// `If-Unmodified-Since`: the record's `LastModifiedDate` must not be later than this instant
    /// (compared at whole seconds, the precision of an HTTP date).
    case ifUnmodifiedSince(Date)
    /// `If-Match`: the record's ETag must be one of these (unquoted; `*` matches any record).
    case ifMatch([String])
    /// `If-None-Match`: the record's ETag must be none of these (`*` fails for any existing record).
    case ifNoneMatch([String])
}

/// The version of a stored record, for conditional requests and `ETag` / `Last-Modified` headers.
public struct OrgRecordVersion: Sendable, Equatable {
    /// The record's 18-character ID.
    public var id: String
    /// `LastModifiedDate` in milliseconds since 1970 (UTC).
    public var lastModified: Int64
    /// `SystemModstamp` in milliseconds since 1970 (UTC).
    public var systemModstamp: Int64
    /// The entity tag, unquoted (the REST layer writes `ETag: "<etag>"`); changes with every write.
    public var etag: String
    /// Whether the record is in the Recycle Bin.
    public var isDeleted: Bool

    /// `LastModifiedDate` as a `Date`.
    public var lastModifiedDate: Date { Date(timeIntervalSince1970: Double(lastModified) / 1000) }
}

/// The outcome of an upsert.
public struct OrgUpsertResult: Sendable, Equatable {
    /// The 18-character ID of the created or updated record.
    public var id: String
    /// Whether a record was created (`201`) rather than updated.
    public var created: Bool

    /// Creates a result.
    public init(id: String, created: Bool) {
        self.id = id
        self.created = created
    }
}
