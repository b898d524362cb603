/// Every diagnostic message of the module, built in one place so wording stays consistent:
/// what is wrong, the thing named in single quotes, and how to fix it when we know.
enum ConfigMessages {
    // MARK: Files and syntax

    static let notUTF8 = "the file is not valid UTF-8 text; save it as UTF-8"
    static let nonScalarKey = "keys must be plain strings, not collections"

    static func notAConfig(_ what: String) -> String {
        "this file is not a config: it holds \(what), and nothing of it is printed; point the command at the "
            + "config (a JSON object or YAML mapping of settings), and keep secrets out of config folders"
    }

    static func directoryNotFile(_ name: String) -> String {
        "'\(name)' is a directory, not a config file; remove or rename it, or put the config file in its place"
    }

    static let singleValue = "a single value, not a JSON object or YAML mapping of settings"

    static func inlineCredential(_ kind: CredentialMask.Kind, key: String?) -> String {
        let place = key.map { "'\($0)' holds" } ?? "this line holds"
        return "\(place) what looks like \(kind.phrase) (masked here); a config file holds no secret: put it in a "
            + "file or an environment variable that the project file names (authUrlFile, authUrlEnv, secretFile, "
            + "accessTokenEnv, jwt.keyFile)"
    }

    static func ambiguousFile(_ name: String, candidates: [String]) -> String {
        let list = candidates.map { "'\($0)'" }.joined(separator: " and ")
        return "found both \(list) for '\(name)'; keep one of them"
    }

    static func duplicateKey(_ key: String, firstLine: Int) -> String {
        "duplicate key '\(key)'; it is already set on line \(firstLine)"
    }

    static func tooDeep(limit: Int) -> String {
        "objects and arrays are nested more than \(limit) levels deep here; a config needs a few levels, "
            + "flatten the file"
    }

    static func tooManyNodes(limit: Int, aliases: Bool) -> String {
        if aliases {
            return "the document holds more than \(grouped(limit)) values once its aliases are expanded "
                + "(each alias repeats its anchor); remove the aliases that multiply it"
        }
        return "the file holds more than \(grouped(limit)) values; split it or remove what the syncs do not need"
    }

    static func fileTooLarge(bytes: Int, limit: Int) -> String {
        "the file is \(mebibytes(bytes)) MiB; config files are limited to \(limit / (1024 * 1024)) MiB"
    }

    static func expandsTooLarge(limit: Int) -> String {
        "the document's aliases expand to more than \(limit / (1024 * 1024)) MiB of text; "
            + "remove the aliases that multiply it"
    }

    /// The number with a comma every three digits: `100,000`.
    private static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }

    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10)"
    }

    static let yamlSeveralDocuments =
        "the file holds more than one YAML document; keep one (remove the '---' separator)"

    static func yamlSyntax(problem: String, context: (text: String, line: Int, column: Int)?) -> String {
        guard let context else { return "invalid YAML: \(problem)" }
        return "invalid YAML: \(problem) (\(context.text) at line \(context.line), column \(context.column))"
    }

    // MARK: Shape

    static func expected(_ what: String, found node: ConfigNode) -> String {
        "expected \(what), found \(node.typeDescription)"
    }

    static func expectedNull(_ what: String) -> String {
        "expected \(what), found null"
    }

    static func missingKey(_ key: String, in path: ConfigPath) -> String {
        path.components.isEmpty ? "missing required key '\(key)' at the top level" : "missing required key '\(key)'"
    }

    static func emptyValue(_ key: String) -> String {
        "'\(key)' must not be empty"
    }

    static func invalidName(_ key: String) -> String {
        "'\(key)' is not a Salesforce API name; use letters, digits and '_' (starting with a letter), "
            + "with '.' between the names of a relationship path"
    }

    static func invalidField(_ key: String) -> String {
        "this '\(key)' entry is not one field; write a field name or a relationship path "
            + "(Account.Owner.Name), one per entry"
    }

    static func controlCharacter(_ key: String, _ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex.uppercased()
        return "'\(key)' holds the control character \(code), which a terminal obeys instead of printing "
            + "(syncrun prints it escaped); use letters, digits, '_' and '-'"
    }

    static func unknownKey(_ key: String, suggestion: String?) -> String {
        if let suggestion {
            return "unknown key '\(key)'; did you mean '\(suggestion)'? (the key is kept as is but not used)"
        }
        return "unknown key '\(key)' (kept as is but not used)"
    }

    static func clamped(_ key: String, value: Int, range: ClosedRange<Int>, used: Int) -> String {
        "'\(key)' \(value) is outside \(range.lowerBound)...\(range.upperBound); using \(used)"
    }

    // MARK: Bulk API 2.0

    static func bulkNotPossible(_ reason: String) -> String {
        "'api' is 'bulk', but Bulk API 2.0 cannot run this query (it has \(reason)); "
            + "this sync will run through REST. Remove 'api' or set it to 'rest' or 'auto'"
    }

    // MARK: Enumerations

    /// An `options.mask` value that is no mask (`value` `nil`: not a string or an object).
    static func unknownMask(_ value: String?, allowed: [String]) -> String {
        let list = allowed.map { "'\($0)'" }.joined(separator: ", ")
        var message = value.map { "unknown mask '\($0)'" } ?? "a mask is a string or an object"
        if let value, let suggestion = Suggestion.closest(to: value, in: allowed) {
            message += "; did you mean '\(suggestion)'?"
        }
        return message + " (expected one of \(list), exact case, or {\"fixed\": \"text\"})"
    }

    static func unknownValue(_ what: String, _ value: String, allowed: [String]) -> String {
        let list = allowed.map { "'\($0)'" }.joined(separator: ", ")
        var message = "unknown \(what) '\(value)'"
        if let suggestion = Suggestion.closest(to: value, in: allowed) {
            message += "; did you mean '\(suggestion)'?"
        }
        return message + " (expected one of \(list), exact case)"
    }

    static func syncUpTypeInSyncDown(_ value: String) -> String {
        "'\(value)' is a sync up target type, but this sync is 'syncDown'; use one of the sync down types ('soql', 'sosl', 'mru', 'refresh', 'parent_children', 'briefcase', 'layout', 'metadata', 'custom') or change 'syncType'"
    }

    static func syncDownTypeInSyncUp(_ value: String) -> String {
        "'\(value)' is a sync down target type, but this sync is 'syncUp'; use 'single', 'batch', 'collection' or 'parent_children', or change 'syncType'"
    }

    static let missingMergeMode =
        "no 'mergeMode' in 'options'; using 'OVERWRITE' (set \"mergeMode\" to \"OVERWRITE\" or \"LEAVE_IF_CHANGED\" to make the choice explicit)"

    // MARK: Targets

    static func unregisteredCustomTarget(_ name: String, suggestion: String?) -> String {
        if let suggestion {
            return "unknown target class '\(name)'; did you mean the built-in '\(suggestion)'?"
        }
        return
            "no plug-in is registered for the custom target class '\(name)', so this syncrun cannot run this sync; the stock 'syncrun' has no plug-ins: run an executable that links the SyncrunCLI library and registers '\(name)' (README, \"Custom targets in Swift\"), or use a built-in or 'endpoint' target"
    }

    static func customTargetOtherDirection(_ name: String, syncType: SyncType) -> String {
        let (wanted, registered) = syncType == .syncDown ? ("sync down", "sync up") : ("sync up", "sync down")
        return
            "'\(name)' is registered as a \(registered) plug-in, but this sync is '\(syncType.rawValue)', which needs a \(wanted) plug-in; register one under this name or change 'syncType'"
    }

    static func conflictingTargetImpl(_ first: String, _ second: String) -> String {
        "\(first) and \(second) name different kinds of target; make them agree or remove one"
    }

    static let customTargetNeedsImpl =
        "a 'custom' target needs 'iOSImpl' or 'androidImpl' naming its plug-in class"

    static func parentSoupMismatch(soupName: String, parentSoupName: String) -> String {
        "'soupName' is '\(soupName)' but 'parent.soupName' is '\(parentSoupName)'; they must be equal (ghost cleaning and the index checks use 'soupName')"
    }

    static let emptyInfos = "'infos' must list at least one object type"

    // MARK: Cross-item checks

    static func duplicateSyncName(_ name: String, firstLine: Int) -> String {
        "duplicate sync name '\(name)'; a sync with this name is already defined on line \(firstLine) (names must be unique within a file)"
    }

    static func duplicateSoupName(_ name: String, firstLine: Int) -> String {
        "duplicate soup name '\(name)'; a soup with this name is already defined on line \(firstLine)"
    }

    static func duplicateIndexPath(_ path: String, firstLine: Int) -> String {
        "duplicate index on '\(path)'; it is already indexed on line \(firstLine)"
    }

    static func emptyIndexes(_ soup: String) -> String {
        "soup '\(soup)' has no index specs; add at least one, e.g. {\"path\": \"Id\", \"type\": \"string\"}"
    }

    static func undeclaredSoup(_ soup: String, storeFile: String, suggestion: String?) -> String {
        if let suggestion {
            return "soup '\(soup)' is not declared in '\(storeFile)'; did you mean '\(suggestion)'?"
        }
        return "soup '\(soup)' is not declared in '\(storeFile)'; add it to 'soups' there"
    }

    static func missingSyncIndex(soup: String, field: String, sync: String, reason: String, type: String) -> String {
        "soup '\(soup)' has no index on '\(field)', which sync '\(sync)' needs \(reason); add {\"path\": \"\(field)\", \"type\": \"\(type)\"} to its indexes"
    }

    static func unknownDependency(_ name: String, suggestion: String?) -> String {
        if let suggestion {
            return "depends on '\(name)', which is not defined; did you mean '\(suggestion)'?"
        }
        return "depends on '\(name)', which is not defined in this file"
    }

    static func dependencyCycle(_ names: [String]) -> String {
        if names.count == 1 { return "'\(names[0])' depends on itself" }
        return "dependency cycle: " + (names + [names[0]]).map { "'\($0)'" }.joined(separator: " -> ")
    }

    // MARK: SOQL

    static func soqlOrgRefuses(_ message: String) -> String {
        "the query parses, but \(message); the sync will fail on a Salesforce org"
    }

    static func soqlSyntax(_ message: String) -> String {
        "invalid SOQL: \(message)"
    }

    static func soqlMissingField(_ field: String, key: String, purpose: String) -> String {
        "the query does not select '\(field)' ('\(key)'); the sync adds it when it runs, but \(purpose): select it explicitly"
    }

    static let ghostCleaningLimit =
        "the query has LIMIT or OFFSET and 'cleanGhosts' is true: ghost cleaning keeps the LIMIT, so records beyond it would be deleted as ghosts; remove LIMIT/OFFSET or set 'cleanGhosts' to false"
}
