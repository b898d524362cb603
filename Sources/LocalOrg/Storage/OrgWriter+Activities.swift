import GRDB

/// The rule real orgs hold activities to: a Task or Event whose `WhoId` (Name) is a Lead cannot
/// be related to anything (`WhatId`, Related To), since a lead belongs to no account. Data loads
/// that break it fail with `FIELD_INTEGRITY_EXCEPTION` "field integrity exception: WhoId,
/// WhatId" (quoted in https://www.zynbit.com/knowledgebase/what-does-field-integrity-exception-mean/;
/// the rule: https://rioeducation.com/salesforce-activity-whatid-whoid/ and the Task object
/// reference, which has `WhatId` "If the WhoId refers to a lead, this field must be empty").
extension OrgWriter {
    /// Refuses a write that leaves `WhoId` naming a Lead and `WhatId` set (the stored values count
    /// for the fields an update leaves out, `rowID` being the updated row).
    func checkActivityLinks(_ values: [(OrgField, DatabaseValue)], object: OrgObject, rowID: Int64?) throws {
        guard object.field(named: "WhoId")?.referenceTo.contains("Lead") == true,
            object.field(named: "WhatId") != nil,
            let leadPrefix = context.storageSchema.object(named: "Lead")?.keyPrefix
        else { return }
        let given = values.filter { ["whoid", "whatid"].contains($0.0.name.lowercased()) }
        guard !given.isEmpty else { return }
        func value(_ name: String) throws -> String? {
            if let pair = given.first(where: { $0.0.name.lowercased() == name.lowercased() }) {
                return String.fromDatabaseValue(pair.1)
            }
            guard let rowID else { return nil }
            return try String.fetchOne(
                db,
                sql: "SELECT \(OrgSQL.identifier(name)) FROM \(OrgSQL.identifier(object.name)) WHERE rowid = ?",
                arguments: [rowID]
            )
        }
        guard let who = try value("WhoId"), who.hasPrefix(leadPrefix), let what = try value("WhatId"), !what.isEmpty
        else { return }
        throw OrgError.leadActivityRelated()
    }
}
