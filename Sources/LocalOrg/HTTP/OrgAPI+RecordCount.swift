import Foundation
import GRDB

/// `GET /limits/recordCount[?sObjects=A,B]`: the number of records of each object.
///
/// Real orgs answer `{"sObjects":[{"count":3,"name":"Account"}]}` (REST API Developer Guide,
/// "Record Count"), leave out names they do not know, and list every object when the parameter
/// is absent. CumulusCI asks this before each load or extract step to choose REST or Bulk.
extension OrgAPI {
    func recordCount(_ request: OrgHTTPRequest) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET"])
        let objects: [OrgObject]
        if let names = Self.fieldList(request.parameter("sObjects")) {
            objects = names.compactMap { database.schema.object(named: $0) }
        } else {
            objects = database.schema.objects
        }
        let counts = try database.read { writer in try objects.map { try writer.liveRecordCount($0) } }
        let entries: [OrgJSONValue] = zip(objects, counts).map { object, count in
            ["count": .integer(Int64(count)), "name": .string(object.name)]
        }
        return .json(200, ["sObjects": .array(entries)])
    }
}

extension OrgWriter {
    /// The number of records of `object` outside the Recycle Bin.
    func liveRecordCount(_ object: OrgObject) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(OrgSQL.identifier(object.name)) WHERE \"IsDeleted\" = 0")
            ?? 0
    }
}
