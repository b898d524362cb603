import Foundation

/// Every message the local org's data layer produces, built in one place.
///
/// Wording follows Salesforce where it is known (salesforce-rest.md §6.2); field values never appear,
/// record IDs and names do.
extension OrgError {
    static func notAvailable(_ feature: String) -> OrgError {
        OrgError(
            status: 501,
            code: Code("NOT_IMPLEMENTED"),
            message: "\(feature) is not available in the local org yet"
        )
    }

    static func jsonParse(reason: String, line: Int, column: Int) -> OrgError {
        OrgError(status: 400, code: .jsonParserError, message: "\(reason) at [line:\(line), column:\(column)]")
    }

    // MARK: Queries

    static func malformedQuery(_ message: String) -> OrgError {
        OrgError(status: 400, code: .malformedQuery, message: message)
    }

    static func invalidType(_ object: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidType,
            message:
                "sObject type '\(object)' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names."
        )
    }

    static func noSuchColumn(_ field: String, object: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidField,
            message:
                "No such column '\(field)' on entity '\(object)'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names."
        )
    }

    static func noSuchRelationship(_ relationship: String, object: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidField,
            message:
                "Didn't understand relationship '\(relationship)' in field path. If you are attempting to use a custom relationship, be sure to append the '__r' after the custom relationship name. Please reference your WSDL or the describe call for the appropriate names."
                + " (object '\(object)')"
        )
    }

    static func polymorphicTraversal(_ relationship: String, object: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidField,
            message:
                "Relationship '\(relationship)' on '\(object)' is polymorphic; the local org cannot traverse it. Query the lookup ID instead."
        )
    }

    static func filterValueType(field: String, expected: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidQueryFilterOperator,
            message: "value of filter criterion for field '\(field)' must be of type \(expected)"
        )
    }

    static func invalidIDFilter(_ value: String) -> OrgError {
        OrgError(status: 400, code: .invalidQueryFilterOperator, message: "invalid ID field: \(value)")
    }

    static func unsupportedQuery(_ what: String) -> OrgError {
        OrgError(status: 400, code: .malformedQuery, message: what)
    }

    static func offsetTooLarge(_ offset: Int) -> OrgError {
        OrgError(
            status: 400,
            code: .numberOutsideValidRange,
            message: "Maximum SOQL offset allowed is 2000 (OFFSET \(offset))"
        )
    }

    static func invalidLocator(_ locator: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidQueryLocator,
            message: "invalid query locator '\(locator)': it is unknown or has expired; run the query again"
        )
    }

    static func malformedSearch(_ message: String) -> OrgError {
        OrgError(status: 400, code: .malformedSearch, message: message)
    }

    // MARK: Records

    static func notFound() -> OrgError {
        OrgError(status: 404, code: .notFound, message: "The requested resource does not exist")
    }

    static func entityIsDeleted() -> OrgError {
        OrgError(status: 404, code: .entityIsDeleted, message: "entity is deleted")
    }

    static func malformedID(_ id: String, field: String? = nil) -> OrgError {
        let subject = field.map { "\($0): " } ?? ""
        return OrgError(
            status: 400,
            code: .malformedID,
            message: "\(subject)invalid ID value '\(id)'",
            fields: field.map { [$0] } ?? []
        )
    }

    static func wrongIDType(_ id: String, object: String) -> OrgError {
        OrgError(
            status: 404,
            code: .notFound,
            message: "Provided external ID field does not exist or is not accessible: \(id) is not an ID of \(object)"
        )
    }

    static func unknownField(_ field: String, object: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidField,
            message: "No such column '\(field)' on sobject of type \(object)",
            fields: [field]
        )
    }

    static func notWritable(_ fields: [String]) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidFieldForInsertUpdate,
            message:
                "Unable to create/update fields: \(fields.joined(separator: ", ")). Please check the security settings of this field and verify that it is read/write for your profile or permission set.",
            fields: fields
        )
    }

    /// A write the acting user's object permissions do not allow (no create, edit or delete on
    /// the object): `INSUFFICIENT_ACCESS_OR_READONLY` "insufficient access rights on object id",
    /// the code and text real orgs give (quoted in https://agentforceaccess.com/blog/insufficient-access-rights-on-object-id
    /// and in public REST clients' recorded error arrays). The status is 400, as for the REST API's
    /// other write errors; the record and its fields are not named.
    static func insufficientAccess() -> OrgError {
        OrgError(
            status: 400,
            code: Code("INSUFFICIENT_ACCESS_OR_READONLY"),
            message: "insufficient access rights on object id"
        )
    }

    /// A Task or Event whose `WhoId` is a Lead with a `WhatId` (see `OrgWriter+Activities.swift`).
    static func leadActivityRelated() -> OrgError {
        OrgError(
            status: 400,
            code: Code("FIELD_INTEGRITY_EXCEPTION"),
            message: "field integrity exception: WhoId, WhatId",
            fields: ["WhoId", "WhatId"]
        )
    }

    static func objectNotWritable(_ object: String) -> OrgError {
        OrgError(
            status: 400,
            code: Code("INVALID_TYPE_FOR_OPERATION"),
            message: "entity type \(object) does not support this operation"
        )
    }

    static func requiredFieldsMissing(_ fields: [String]) -> OrgError {
        OrgError(
            status: 400,
            code: .requiredFieldMissing,
            message: "Required fields are missing: [\(fields.joined(separator: ", "))]",
            fields: fields
        )
    }

    static func duplicateValue(field: String, existingID: String) -> OrgError {
        OrgError(
            status: 400,
            code: .duplicateValue,
            message: "duplicate value found: \(field) duplicates value on record with id: \(existingID)",
            fields: [field]
        )
    }

    /// A string value holding a NUL character (U+0000), which the local org cannot store as sent.
    /// No Salesforce page found gives a real org's answer; the record is refused with the code this
    /// org uses for a value it cannot read as the field's type, and the value is not echoed.
    static func nulCharacter(field: String) -> OrgError {
        OrgError(
            status: 400,
            code: .jsonParserError,
            message:
                "The value of \(field) holds a NUL character (U+0000), which a text value cannot hold; "
                + "remove it and send the record again",
            fields: [field]
        )
    }

    static func stringTooLong(field: String, label: String, length: Int) -> OrgError {
        OrgError(
            status: 400,
            code: .stringTooLong,
            message: "\(label): data value too large (max length=\(length))",
            fields: [field]
        )
    }

    static func invalidEmail(field: String, label: String) -> OrgError {
        OrgError(status: 400, code: .invalidEmailAddress, message: "\(label): invalid email address", fields: [field])
    }

    static func valueType(field: String, expected: String, found: String) -> OrgError {
        OrgError(
            status: 400,
            code: .jsonParserError,
            message: "Cannot deserialize instance of \(expected) from \(found) value for field '\(field)'",
            fields: [field]
        )
    }

    static func invalidCrossReference(field: String, id: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidCrossReferenceKey,
            message: "invalid cross reference id: \(field) does not point to an existing record (\(id))",
            fields: [field]
        )
    }

    static func wrongReferenceType(field: String, label: String, id: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidCrossReferenceKey,
            message: "\(label): id value of incorrect type: \(id)",
            fields: [field]
        )
    }

    static func invalidRecordType(field: String, label: String, id: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidCrossReferenceKey,
            message: "\(label): this ID value isn't valid for the user: \(id)",
            fields: [field]
        )
    }

    static func referenceIsDeleted(field: String, id: String) -> OrgError {
        OrgError(status: 400, code: .entityIsDeleted, message: "entity is deleted", fields: [field])
    }

    static func deleteFailed(record: String, related: String, names: [String]) -> OrgError {
        OrgError(
            status: 400,
            code: .deleteFailed,
            message: "Your attempt to delete \(record) could not be completed because it is associated with the "
                + "following \(related).: \(names.joined(separator: ", "))"
        )
    }

    static func notExternalID(field: String, object: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidField,
            message: "Field name provided, \(field) is not an External ID or indexed field for \(object)",
            fields: [field]
        )
    }

    static func externalIDMismatch(field: String) -> OrgError {
        OrgError(
            status: 400,
            code: .invalidField,
            message: "The value of \(field) in the request body does not match the value in the URL",
            fields: [field]
        )
    }

    static func multipleMatches(object: String, ids: [String]) -> OrgError {
        var error = OrgError(
            status: 300,
            code: .multipleChoices,
            message: "More than one record matches the external ID value: \(ids.joined(separator: ", "))"
        )
        error.matchingRecords = (object, ids)
        return error
    }

    /// Several records match the key of one record of a batch upsert (collections, Bulk): its result
    /// carries this error where the REST resource answers 300.
    static func duplicateExternalID(field: String, ids: [String]) -> OrgError {
        OrgError(
            status: 400,
            code: Code("DUPLICATE_EXTERNAL_ID"),
            message: "more than one record found for external id field: [\(ids.joined(separator: ", "))]",
            fields: [field]
        )
    }

    static func preconditionFailed(_ reason: String) -> OrgError {
        OrgError(status: 412, code: .preconditionFailed, message: reason)
    }

    // MARK: Storage, schema and seed input

    static func storage(_ operation: String, _ underlying: any Error) -> OrgError {
        OrgError(status: 500, code: .storage, message: "\(operation) failed: \(underlying)")
    }

    /// `body`'s result, its ``OrgError``s as they are and any other error (SQLite's) as a
    /// ``storage(_:_:)`` error of `operation`.
    static func mappingStorageErrors<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as OrgError {
            throw error
        } catch {
            throw storage(operation, error)
        }
    }

    static func invalidInput(_ message: String) -> OrgError {
        OrgError(status: 400, code: .invalidInput, message: message)
    }
}
