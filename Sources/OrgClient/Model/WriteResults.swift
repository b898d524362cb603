import JSONCore

/// The outcome of an upsert by external ID.
public struct UpsertResult: Sendable, Hashable {
    /// The record's ID.
    public var id: String
    /// Whether the upsert created the record (`false`: it updated an existing one).
    public var isCreated: Bool

    /// Creates a result.
    public init(id: String, isCreated: Bool) {
        self.id = id
        self.isCreated = isCreated
    }
}

/// A record of an sObject Collections write.
public struct SObjectRecord: Sendable, Hashable {
    /// The sObject type, sent as `attributes.type`.
    public var objectType: String
    /// The record ID; required for an update, absent for a create or an upsert.
    public var id: String?
    /// The fields to write (`null` clears a field).
    public var fields: [String: OrgValue]

    /// Creates a record.
    public init(objectType: String, id: String? = nil, fields: [String: OrgValue]) {
        self.objectType = objectType
        self.id = id
        self.fields = fields
    }

    /// The wire form: the fields plus `attributes.type` and, when set, `Id`.
    var wireValue: OrgValue {
        var object = fields
        object["attributes"] = .object(["type": .string(objectType)])
        if let id { object["Id"] = .string(id) }
        return .object(object)
    }

    /// Appends the JSON text of ``wireValue`` (keys sorted, as the writer sorts them) without
    /// building it: a collection call writes 200 of these.
    func writeWire(to output: inout String) {
        var keys = fields.keys.filter { $0 != "attributes" && (id == nil || $0 != "Id") }
        keys.append("attributes")
        if id != nil { keys.append("Id") }
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        output += "{"
        for (index, key) in keys.enumerated() {
            if index > 0 { output += "," }
            JSONWriter.appendQuoted(key, to: &output)
            output += ":"
            switch key {
            case "attributes":
                output += #"{"type":"#
                JSONWriter.appendQuoted(objectType, to: &output)
                output += "}"
            case "Id" where id != nil:
                JSONWriter.appendQuoted(id ?? "", to: &output)
            default:
                fields[key]?.write(to: &output)
            }
        }
        output += "}"
    }
}

/// One sObject Collections write (at most 200 records or IDs).
public enum CollectionOperation: Sendable, Hashable {
    /// `POST /composite/sobjects`: create the records (no IDs).
    case create([SObjectRecord])
    /// `PATCH /composite/sobjects`: update the records (IDs required).
    case update([SObjectRecord])
    /// `PATCH /composite/sobjects/{type}/{field}`: upsert records of one type by an external ID.
    case upsert(objectType: String, externalIDField: String, records: [SObjectRecord])
    /// `DELETE /composite/sobjects?ids=…`: delete the records.
    case delete(ids: [String])

    /// The number of records or IDs.
    public var count: Int {
        switch self {
        case .create(let records), .update(let records), .upsert(_, _, let records): records.count
        case .delete(let ids): ids.count
        }
    }
}

/// The per-record result of an sObject Collections write.
public struct CollectionResult: Sendable, Hashable {
    /// The record ID, when the server returned one.
    public var id: String?
    /// Whether this record was written.
    public var isSuccess: Bool
    /// Why it was not (`statusCode` on the wire is read as ``OrgErrorDetail/errorCode``).
    public var errors: [OrgErrorDetail]
    /// For an upsert, whether the record was created; `nil` for other operations.
    public var isCreated: Bool?

    /// Creates a result.
    public init(id: String?, isSuccess: Bool, errors: [OrgErrorDetail] = [], isCreated: Bool? = nil) {
        self.id = id
        self.isSuccess = isSuccess
        self.errors = errors
        self.isCreated = isCreated
    }

    init?(_ value: OrgValue) {
        guard let object = value.objectValue, let isSuccess = object["success"]?.boolValue else { return nil }
        self.init(
            id: object["id"]?.stringValue,
            isSuccess: isSuccess,
            errors: (object["errors"]?.arrayValue ?? []).compactMap(OrgErrorDetail.init),
            isCreated: object["created"]?.boolValue
        )
    }
}

/// One entry of the limits resource: `{"Max": n, "Remaining": n}`.
public struct OrgLimit: Sendable, Hashable {
    /// The allocation.
    public var max: Int
    /// What is left of it.
    public var remaining: Int

    /// Creates a limit.
    public init(max: Int, remaining: Int) {
        self.max = max
        self.remaining = remaining
    }
}
