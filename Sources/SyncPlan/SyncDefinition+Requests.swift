import SyncConfig

extension SyncDefinition {
    /// The requests a step of this sync sends, as declared, for `plan` (decide / apply: the plan
    /// shows what the run sends): `endpoint` and `layout` targets; `nil` for the others.
    var planRequests: [String]? {
        switch target {
        case .down(.endpoint(let endpoint)):
            var list = endpoint.request.displayText
            if let since = endpoint.since {
                list += " (a resync adds \(since.param)=<the watermark as \(since.format.rawValue)>)"
            }
            var lines = ["list: " + list]
            if let ids = endpoint.idsRequest { lines.append("ids (ghost cleaning): " + ids.request.displayText) }
            return lines
        case .down(.layout(let layout)):
            let parameters = [
                ("formFactor", layout.formFactor), ("layoutType", layout.layoutType), ("mode", layout.mode),
                ("recordTypeId", layout.recordTypeId),
            ]
            let query = parameters.compactMap { name, value in value.flatMap { $0.isEmpty ? nil : "\(name)=\($0)" } }
            return [
                "GET /ui-api/layout/\(layout.sobjectType)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
            ]
        case .up(let up):
            guard let endpoint = up.endpoint else { return nil }
            var lines = [
                "create: " + endpoint.create.request.displayText + " (new id at '\(endpoint.create.idPath)')",
                "update: " + endpoint.update.displayText,
                "delete: " + endpoint.delete.displayText,
            ]
            if let read = endpoint.modificationDate {
                lines.append("modification date: " + read.request.displayText + " ('\(read.path)')")
            }
            if let batch = endpoint.batch {
                lines.append("batch: " + batch.request.displayText + " (up to \(batch.maxBatchSize) writes)")
            }
            return lines
        default:
            return nil
        }
    }
}
