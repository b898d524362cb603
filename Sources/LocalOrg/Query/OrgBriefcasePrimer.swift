import Foundation
import GRDB

/// Serves the Briefcase priming-records API (`GET /connect/briefcase/priming-records`) from the
/// schema's briefcases (``OrgBriefcase``).
///
/// The rules of every briefcase are served in order, each rule's records by ascending `Id`, at
/// most `pageSize` ids per response. The relay token says where the next response starts: the
/// rule, the last id served of it, and the `changedAfterTimestamp` filter of the first request
/// (the API takes either a relay token or a timestamp, never both, so the token carries the filter
/// on), and `stats.recordCountTotal`, counted once on the first page. Paging by id keeps the token
/// small and stateless: it survives a restart.
///
/// A rule whose filter the org cannot run (an unknown field, a malformed condition) is reported in
/// `ruleErrors` and its records are left out, as Salesforce does; the other rules are served.
struct OrgBriefcasePrimer {
    let db: Database
    let context: OrgContext

    /// The record type id the records are listed under (the master record type).
    static let masterRecordTypeID = "012000000000000AAA"

    /// Where serving resumes.
    struct Position: Equatable {
        /// The index of the rule across every briefcase.
        var rule: Int
        /// The last id served of that rule, or `nil` to start it.
        var afterID: String?
        /// `changedAfterTimestamp` in ms, or `nil`.
        var changedAfter: Int64?
        /// The records every rule selects (with the filter), counted on the first page.
        var total: Int?
    }

    /// One response body.
    func respond(relayToken: String?, changedAfter: String?, pageSize: Int, apiVersion: String) throws -> OrgJSONValue {
        if relayToken != nil, changedAfter != nil {
            throw OrgError.invalidParameter(
                "Include either relayToken or changedAfterTimestamp in the request, not both"
            )
        }
        var position = Position(rule: 0, afterID: nil, changedAfter: nil, total: nil)
        if let relayToken {
            guard let decoded = Self.decode(relayToken) else {
                throw OrgError.invalidParameter("The relay token '\(relayToken)' is not one this org issued")
            }
            position = decoded
        } else if let changedAfter {
            guard let milliseconds = OrgDateTime.parseDateTime(changedAfter) else {
                throw OrgError.invalidParameter(
                    "changedAfterTimestamp '\(changedAfter)' is not an ISO 8601 date-time such as 2024-03-05T10:11:12.000Z"
                )
            }
            position.changedAfter = milliseconds
        }
        let rules = context.schema.briefcases.flatMap { briefcase in
            briefcase.rules.enumerated().map { (id: "\(briefcase.name):\($0.offset + 1)", rule: $0.element) }
        }
        if position.total == nil {
            position.total = try total(rules.map(\.rule), changedAfter: position.changedAfter, apiVersion: apiVersion)
        }
        let capacity = max(1, pageSize)
        var served = 0
        // Types in the order first served, so the body is stable.
        var records = OrgJSONObject()
        var lists: [String: [OrgJSONValue]] = [:]
        var typeOrder: [String] = []
        var ruleErrors: [OrgJSONValue] = []
        var next: Position?
        while position.rule < rules.count {
            let (ruleID, rule) = rules[position.rule]
            let rows: [(id: String, modstamp: Int64)]
            do {
                rows = try fetch(rule, position: position, limit: capacity - served + 1, apiVersion: apiVersion)
            } catch let error as OrgError where error.status == 400 {
                ruleErrors.append(.object(["ruleId": .string(ruleID)]))
                position.rule += 1
                position.afterID = nil
                continue
            }
            let taken = rows.prefix(capacity - served)
            if !taken.isEmpty, lists[rule.object] == nil { typeOrder.append(rule.object) }
            for row in taken {
                lists[rule.object, default: []].append(
                    .object([
                        "id": .string(row.id),
                        "systemModstamp": .string(Self.formatZ(row.modstamp)),
                    ])
                )
            }
            served += taken.count
            if rows.count > taken.count {
                var more = position
                more.afterID = taken.last?.id ?? position.afterID
                next = more
                break
            }
            position.rule += 1
            position.afterID = nil
            if served == capacity, position.rule < rules.count {
                next = position
                break
            }
        }
        for type in typeOrder {
            records[type] = .object([Self.masterRecordTypeID: .array(lists[type] ?? [])])
        }
        // Rules fully served once this page is read.
        let servedRules = next?.rule ?? rules.count
        return .object([
            "primingRecords": .object(records),
            "relayToken": next.map { .string(Self.encode($0)) } ?? .null,
            "ruleErrors": .array(ruleErrors),
            "stats": .object([
                "ruleCountTotal": .integer(Int64(rules.count)),
                "recordCountTotal": .integer(Int64(position.total ?? 0)),
                "ruleCountServed": .integer(Int64(servedRules)),
                "recordCountServed": .integer(Int64(served)),
            ]),
        ])
    }

    /// The ids and `SystemModstamp`s of the next `limit` records of `rule` after the position.
    private func fetch(_ rule: OrgBriefcase.Rule, position: Position, limit: Int, apiVersion: String) throws
        -> [(id: String, modstamp: Int64)]
    {
        let soql = "SELECT Id, SystemModstamp FROM \(rule.object)\(condition(rule, position: position)) ORDER BY Id"
        let data = try OrgQueryRunner(db: db, context: context).recordsJSON(
            soql,
            apiVersion: apiVersion,
            maximum: limit
        )
        guard let rows = try OrgJSONValue.decode(data).arrayValue else { return [] }
        return rows.compactMap { row in
            guard let fields = row.objectValue, let id = fields["Id"]?.stringValue else { return nil }
            let modstamp = fields["SystemModstamp"]?.stringValue.flatMap(OrgDateTime.parseDateTime) ?? 0
            return (id, modstamp)
        }
    }

    /// How many records the rules select now (with the timestamp filter), for `stats`.
    private func total(_ rules: [OrgBriefcase.Rule], changedAfter: Int64?, apiVersion: String) throws -> Int {
        var count = 0
        for rule in rules {
            let position = Position(rule: 0, afterID: nil, changedAfter: changedAfter, total: nil)
            let soql = "SELECT count() FROM \(rule.object)\(condition(rule, position: position))"
            guard
                let page = try? OrgQueryRunner(db: db, context: context).query(
                    soql,
                    includeDeleted: false,
                    pageSize: 1,
                    apiVersion: apiVersion
                )
            else { continue }
            count += page.totalSize
        }
        return count
    }

    private func condition(_ rule: OrgBriefcase.Rule, position: Position) -> String {
        var parts: [String] = []
        if let filter = rule.filter { parts.append("(\(filter))") }
        if let changedAfter = position.changedAfter {
            parts.append("SystemModstamp > \(Self.formatZ(changedAfter))")
        }
        if let afterID = position.afterID { parts.append("Id > '\(afterID)'") }
        return parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ")
    }

    /// `2024-03-05T10:11:12.000Z`, the API's timestamp format.
    static func formatZ(_ milliseconds: Int64) -> String {
        String(OrgDateTime.format(milliseconds: milliseconds).dropLast("+0000".count)) + "Z"
    }

    static func encode(_ position: Position) -> String {
        let text =
            "1:\(position.rule):\(position.afterID ?? ""):\(position.changedAfter.map(String.init) ?? ""):"
            + (position.total.map(String.init) ?? "")
        return Base64URL.encode(Data(text.utf8))
    }

    static func decode(_ token: String) -> Position? {
        guard let data = Base64URL.decode(Substring(token)) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "1", let rule = Int(parts[1]), rule >= 0 else { return nil }
        let afterID = parts[2].isEmpty ? nil : String(parts[2])
        if let afterID, !afterID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) { return nil }
        guard let changedAfter = optionalInteger(parts[3]), let total = optionalInteger(parts[4]) else { return nil }
        return Position(rule: rule, afterID: afterID, changedAfter: changedAfter, total: total.map(Int.init))
    }

    /// `.some(nil)` for an empty part, `.some(n)` for an integer, `nil` (invalid) otherwise.
    private static func optionalInteger(_ part: Substring) -> Int64?? {
        if part.isEmpty { return .some(nil) }
        guard let value = Int64(part) else { return nil }
        return .some(value)
    }
}

extension OrgDatabase {
    /// `GET /connect/briefcase/priming-records`: one page of the ids of the records the schema's
    /// briefcases select (see ``OrgBriefcase``), at most `pageSize` of them.
    ///
    /// - Parameters:
    ///   - relayToken: The previous page's token, or `nil` for the first page.
    ///   - changedAfter: First page only: an ISO 8601 date-time; only records whose
    ///     `SystemModstamp` is later are listed.
    ///   - pageSize: The most ids per page.
    ///   - apiVersion: The request's version.
    /// - Throws: ``OrgError`` `INVALID_INPUT` (400) for a token this org did not issue, both
    ///   arguments at once, or an unreadable date-time.
    public func primingRecords(relayToken: String?, changedAfter: String?, pageSize: Int, apiVersion: String) throws
        -> Data
    {
        try read { writer in
            try OrgBriefcasePrimer(db: writer.db, context: writer.context).respond(
                relayToken: relayToken,
                changedAfter: changedAfter,
                pageSize: pageSize,
                apiVersion: apiVersion
            ).encoded()
        }
    }
}
