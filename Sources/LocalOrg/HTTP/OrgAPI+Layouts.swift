/// `GET /ui-api/layout/{sObject}`: the layout the schema file declares for the object, layout type
/// and mode (``OrgDeclaredLayout``), else one in the UI API's shape derived from the object's
/// fields (sync-semantics §9.6): one section, one item per field, two columns; `Compact` keeps
/// the name-like fields only.
extension OrgAPI {
    /// The values the UI API accepts for each parameter.
    static let layoutParameters: [String: [String]] = [
        "formFactor": ["Large", "Medium", "Small"],
        "layoutType": ["Compact", "Full"],
        "mode": ["Create", "Edit", "View"],
    ]

    func layout(_ request: OrgHTTPRequest, object name: String) throws -> OrgHTTPResponse {
        try Self.require(request, ["GET"])
        guard let object = database.schema.object(named: name) else { throw OrgError.invalidType(name) }
        for (parameter, allowed) in Self.layoutParameters {
            if let value = request.parameter(parameter), !allowed.contains(value) {
                throw OrgError.invalidInput(
                    "'\(value)' is not a valid \(parameter); use one of \(allowed.joined(separator: ", "))"
                )
            }
        }
        let layoutType = request.parameter("layoutType") ?? "Full"
        let mode = request.parameter("mode") ?? "View"
        if let declared = database.schema.layouts.first(where: {
            $0.object == object.name && $0.layoutType == layoutType && $0.mode == mode
        }) {
            return .json(200, .object(declared.layout))
        }
        let recordTypeID = request.parameter("recordTypeId") ?? "012000000000000AAA"
        let skipped: Set<String> = ["Id", "IsDeleted", "SystemModstamp"]
        var fields = object.fields.filter { !skipped.contains($0.name) }
        if layoutType == "Compact" {
            fields = fields.filter { ["Name", "LastName", "Subject", "Title", "Phone", "Email"].contains($0.name) }
        }
        if mode != "View" { fields = fields.filter { mode == "Create" ? $0.isCreateable : $0.isUpdateable } }
        var rows: [OrgJSONValue] = []
        var start = 0
        while start < fields.count {
            let pair = fields[start..<min(start + 2, fields.count)]
            start += pair.count
            let items: [OrgJSONValue] = pair.map { field in
                [
                    "editableForNew": .bool(field.isCreateable),
                    "editableForUpdate": .bool(field.isUpdateable),
                    "label": .string(field.label),
                    "layoutComponents": [
                        ["apiName": .string(field.name), "componentType": "Field", "label": .string(field.label)]
                    ],
                    "lookupIdApiName": field.referenceTo.isEmpty ? .null : .string(field.name),
                    "required": .bool(!field.isNillable && !field.isDefaultedOnCreate && field.isCreateable),
                    "sortable": false,
                ]
            }
            rows.append(["layoutItems": .array(items)])
        }
        let section: OrgJSONValue = [
            "collapsible": false, "columns": 2, "heading": .string("\(object.label) Information"),
            "id": "01B000000000001AAA", "layoutRows": .array(rows), "rows": .integer(Int64(rows.count)),
            "useHeading": true,
        ]
        let body: OrgJSONValue = [
            "eTag": .string("\(object.name)-\(layoutType)-\(mode)-\(fields.count)"),
            "id": "00h000000000001AAA",
            "layoutType": .string(layoutType),
            "mode": .string(mode),
            "objectApiName": .string(object.name),
            "recordTypeId": .string(recordTypeID),
            "saveOptions": [],
            "sections": [section],
        ]
        return .json(200, body)
    }
}
