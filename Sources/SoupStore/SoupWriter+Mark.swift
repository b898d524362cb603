import GRDB

/// A local change an app records on an entry (seed 003, sync-semantics §2).
public enum LocalChange: String, Sendable, Hashable, CaseIterable {
    /// Created locally: `__locally_created__` true; gets a `local_…` id when it has none.
    case created
    /// Edited locally: `__locally_updated__` true.
    case updated
    /// Deleted locally (the entry stays until sync up deletes it): `__locally_deleted__` true.
    case deleted

    var flag: String {
        switch self {
        case .created: ControlFields.locallyCreated
        case .updated: ControlFields.locallyUpdated
        case .deleted: ControlFields.locallyDeleted
        }
    }
}

/// Selects entries by the value at a path, compared as text.
public struct EntryFilter: Sendable, Hashable {
    /// The dotted path.
    public var path: String
    /// The value, compared with the path's value rendered as text (`true`, `42`, `Acme`).
    public var value: String

    /// Creates a filter.
    public init(path: String, value: String) {
        self.path = path
        self.value = value
    }
}

/// A value to write at a path while marking entries (`syncrun store mark --set`).
public struct EntryAssignment: Sendable, Hashable {
    /// What to write.
    public enum Value: Sendable, Hashable {
        /// A JSON string.
        case text(String)
        /// Any JSON value, as JSON text (`42`, `true`, `null`, `{"a": 1}`).
        case json(String)
    }

    /// The dotted path.
    public var path: String
    /// The value.
    public var value: Value

    /// Creates an assignment.
    public init(path: String, value: Value) {
        self.path = path
        self.value = value
    }
}

extension SoupWriter {
    /// Marks entries as changed locally, the way an app does before a sync up: sets `__local__`
    /// and the change's flag to JSON `true`, leaving the other flags as they are; for `.created`
    /// also gives entries with no value at `idPath` an id `local_<UUID>`.
    ///
    /// - Parameters:
    ///   - change: Which flag to set.
    ///   - soup: The soup.
    ///   - filter: Only entries whose value at `filter.path` is `filter.value` (all when `nil`).
    ///   - idPath: The id field (`Id`), for `.created`.
    ///   - assignments: Values written into the marked entries first (an edit, as an app makes).
    /// - Returns: How many entries were marked.
    /// - Throws: `SoupStoreError` (`.unknownSoup`, `.invalidPath`); SQLite's error for a
    ///   `.json` assignment that is not JSON.
    @discardableResult
    public func markEntries(
        _ change: LocalChange,
        in soup: String,
        where filter: EntryFilter? = nil,
        idPath: String = "Id",
        setting assignments: [EntryAssignment] = []
    ) throws -> Int {
        let layout = try layout(soup)
        try SoupPath.validate(idPath)
        var condition = "1"
        var arguments: StatementArguments = []
        if let filter {
            try SoupPath.validate(filter.path)
            condition = Self.textMatch(layout: layout, path: filter.path)
            arguments = [filter.value]
        }
        var document = "soup"
        if !assignments.isEmpty {
            // Numbered after the filter's ?1, when there is one.
            var pairs: [String] = []
            var count = filter == nil ? 0 : 1
            for assignment in assignments {
                try SoupPath.validate(assignment.path)
                arguments += [
                    {
                        switch assignment.value {
                        case .text(let text): text
                        case .json(let json): json
                        }
                    }()
                ]
                count += 1
                let placeholder = "?\(count)"
                let value: String =
                    switch assignment.value {
                    case .text: placeholder
                    case .json: "json(\(placeholder))"
                    }
                pairs.append("\(SoupPath.jsonPathLiteral(assignment.path)), \(value)")
            }
            document = "json_set(soup, \(pairs.joined(separator: ", ")))"
        }
        var edit = "json_set(\(document), '$.\(ControlFields.local)', json('true'), '$.\(change.flag)', json('true'))"
        if change == .created {
            // A version 4 UUID from SQLite's randomness, in the usual 8-4-4-4-12 form.
            let idPathLiteral = SoupPath.jsonPathLiteral(idPath)
            let uuid = """
                (SELECT lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' || \
                substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12)) \
                FROM (SELECT hex(randomblob(16)) AS h))
                """
            edit = """
                CASE WHEN json_extract(soup, \(idPathLiteral)) IS NULL THEN json_set(\(edit), \(idPathLiteral), \
                '\(ControlFields.localIDPrefix)' || \(uuid)) ELSE \(edit) END
                """
        }
        return try rewrite(layout, edit: edit, condition: condition, arguments: arguments)
    }

    /// SQL comparing the path's value, rendered as text, with `?`: booleans as `true`/`false`
    /// (JSON `true` also matches `1`), numbers and strings as written.
    static func textMatch(layout: SoupLayout, path: String) -> String {
        let literal = SoupPath.jsonPathLiteral(path)
        let type = "json_type(soup, \(literal))"
        return """
            (CASE \(type) WHEN 'true' THEN ?1 IN ('true', '1') WHEN 'false' THEN ?1 IN ('false', '0') \
            ELSE CAST(json_extract(soup, \(literal)) AS TEXT) = ?1 END)
            """
    }
}
