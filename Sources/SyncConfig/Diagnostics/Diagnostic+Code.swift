extension Diagnostic {
    /// A stable identifier for a kind of problem, written in kebab case (`unknown-key`).
    ///
    /// The set grows over time; compare against the static members rather than switching
    /// exhaustively. Every code is listed with an example in `docs/diagnostics.md`.
    public struct Code: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
        /// The kebab-case identifier.
        public let rawValue: String

        /// Creates a code from its identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }

        // Files and syntax.
        /// Two candidate files for one config (`usersyncs.json` and `usersyncs.yaml`).
        public static let ambiguousFile = Code(rawValue: "ambiguous-file")
        /// The file is not UTF-8 text.
        public static let encoding = Code(rawValue: "encoding")
        /// The file is not well-formed JSON or YAML.
        public static let syntax = Code(rawValue: "syntax")
        /// The same key appears twice in one object.
        public static let duplicateKey = Code(rawValue: "duplicate-key")
        /// Objects and arrays nested more than 512 levels deep.
        public static let tooDeep = Code(rawValue: "too-deep")
        /// More than 100,000 values, YAML aliases counted as copies of their anchor.
        public static let tooManyNodes = Code(rawValue: "too-many-nodes")
        /// A file that is not a config at all (a PEM key, an auth URL, a token, binary data, a
        /// directory, a single value): named without its content.
        public static let notAConfig = Code(rawValue: "not-a-config")
        /// A file over 16 MiB (or YAML whose aliases expand to more than 16 MiB of text).
        public static let fileTooLarge = Code(rawValue: "file-too-large")

        // Bulk API 2.0.
        /// An `api` value other than `auto`, `rest` or `bulk`.
        public static let unknownAPI = Code(rawValue: "unknown-api")
        /// `"api": "bulk"` on a target Bulk API 2.0 cannot run (it stays on REST).
        public static let bulkNotPossible = Code(rawValue: "bulk-not-possible")

        // Shape.
        /// A value has the wrong JSON type (string where an array is expected, …).
        public static let typeMismatch = Code(rawValue: "type-mismatch")
        /// A required key is absent.
        public static let missingKey = Code(rawValue: "missing-key")
        /// A key the product does not know; kept verbatim.
        public static let unknownKey = Code(rawValue: "unknown-key")
        /// A secret (token, auth URL, client secret, PEM key, URL user-info) written in a config or
        /// project file instead of a file or environment variable name; the value is masked.
        public static let inlineSecret = Code(rawValue: "inline-secret")
        /// A project-file org that is none of the six forms, or names an undeclared org.
        public static let invalidOrg = Code(rawValue: "invalid-org")
        /// A sync or soup name holding a control character (ESC, BEL, a line feed, …) (warning).
        public static let controlCharacter = Code(rawValue: "control-character")
        /// A string that must not be empty is empty.
        public static let emptyValue = Code(rawValue: "empty-value")
        /// A sobject type or field name (or a field list entry) that is not a name, which syncrun
        /// would otherwise write into the SOQL it builds.
        public static let invalidName = Code(rawValue: "invalid-name")
        /// A number outside the range the SDK accepts; the value was clamped.
        public static let valueClamped = Code(rawValue: "value-clamped")

        // Enumerations.
        /// `syncType` is not `syncDown` or `syncUp`.
        public static let unknownSyncType = Code(rawValue: "unknown-sync-type")
        /// `mergeMode` is not `OVERWRITE` or `LEAVE_IF_CHANGED`.
        public static let unknownMergeMode = Code(rawValue: "unknown-merge-mode")
        /// A sync down target `type` (or a product sync up `type`) that does not exist.
        public static let unknownTargetType = Code(rawValue: "unknown-target-type")
        /// An index spec `type` that does not exist.
        public static let unknownIndexType = Code(rawValue: "unknown-index-type")
        /// `relationshipType` is not `MASTER_DETAIL` or `LOOKUP`.
        public static let unknownRelationshipType = Code(rawValue: "unknown-relationship-type")
        /// An `options.mask` value that is not a mask kind or `{"fixed": "text"}`.
        public static let unknownMask = Code(rawValue: "unknown-mask")
        /// A sync declares masks: they apply to `migrate` only (a warning).
        public static let maskForMigrateOnly = Code(rawValue: "mask-for-migrate-only")
        /// `mergeMode` absent; `OVERWRITE` is used.
        public static let missingMergeMode = Code(rawValue: "missing-merge-mode")

        // Targets.
        /// A custom target implementation name with no registered plug-in.
        public static let unregisteredCustomTarget = Code(rawValue: "unregistered-custom-target")
        /// `iOSImpl`, `androidImpl` and `type` name different kinds of target.
        public static let conflictingTargetImpl = Code(rawValue: "conflicting-target-impl")
        /// An endpoint target's path, query, template, dot path or paging is not usable (`invalid-endpoint`).
        public static let invalidEndpoint = Code(rawValue: "invalid-endpoint")
        /// `cleanGhosts: true` on an endpoint sync down without `idsRequest` (`ghost-cleaning-without-ids`).
        public static let ghostCleaningWithoutIDs = Code(rawValue: "ghost-cleaning-without-ids")
        /// A `parent_children` sync whose `soupName` differs from `parent.soupName`.
        public static let parentSoupMismatch = Code(rawValue: "parent-soup-mismatch")

        // Cross-item checks.
        /// Two syncs with the same `syncName` in one file.
        public static let duplicateSyncName = Code(rawValue: "duplicate-sync-name")
        /// Two soups with the same `soupName` in one store config.
        public static let duplicateSoupName = Code(rawValue: "duplicate-soup-name")
        /// Two index specs with the same `path` in one soup.
        public static let duplicateIndexPath = Code(rawValue: "duplicate-index-path")
        /// A soup with no index specs.
        public static let emptyIndexes = Code(rawValue: "empty-indexes")
        /// A sync names a soup the store config does not declare.
        public static let undeclaredSoup = Code(rawValue: "undeclared-soup")
        /// A soup lacks an index a sync needs (`__local__`, the id field, `__sync_id__`).
        public static let missingSyncIndex = Code(rawValue: "missing-sync-index")
        /// `dependsOn` names a sync that does not exist.
        public static let unknownDependency = Code(rawValue: "unknown-dependency")
        /// `dependsOn` forms a cycle (a sync depending on itself, directly or not).
        public static let dependencyCycle = Code(rawValue: "dependency-cycle")

        // SOQL.
        /// The SOQL query does not parse.
        public static let soqlSyntax = Code(rawValue: "soql-syntax")
        /// The SOQL select list lacks the id field.
        public static let soqlMissingIDField = Code(rawValue: "soql-missing-id-field")
        /// The SOQL select list lacks the modification-date field.
        public static let soqlMissingModificationDateField = Code(rawValue: "soql-missing-modification-date-field")
        /// LIMIT or OFFSET in a query that ghost cleaning runs against.
        public static let ghostCleaningLimit = Code(rawValue: "ghost-cleaning-limit")
        /// SOQL that parses but that a Salesforce org refuses (semi-join restrictions, qualified
        /// object names outside a child sub-query).
        public static let soqlOrgRefuses = Code(rawValue: "soql-org-refuses")

        // Org checks (`syncrun org check`): the config against an org's describe.
        /// An sObject the org does not have, or that is not visible or not queryable.
        public static let unknownObject = Code(rawValue: "unknown-object")
        /// A field the object does not have or that is not visible to the current user.
        public static let unknownField = Code(rawValue: "unknown-field")
        /// A field in a create list that the org does not let a create set.
        public static let fieldNotCreateable = Code(rawValue: "field-not-createable")
        /// A field in an update list that the org does not let an update set.
        public static let fieldNotUpdateable = Code(rawValue: "field-not-updateable")
        /// A field required on create that the create list leaves out (warning).
        public static let requiredFieldMissing = Code(rawValue: "required-field-missing")
        /// `externalIdFieldName` is neither an external id nor an idLookup field.
        public static let notExternalID = Code(rawValue: "not-external-id")
        /// A parent/children relationship the org's describe does not agree with.
        public static let relationshipMismatch = Code(rawValue: "relationship-mismatch")
        /// `modificationDateFieldName` is not a datetime field.
        public static let notDatetime = Code(rawValue: "not-datetime")
        /// A literal record id (a RecordType id above all) that is only valid in one org (warning).
        public static let orgSpecificID = Code(rawValue: "org-specific-id")
        /// A sync up's `options.mask` on a field that cannot hold the masked values (a reference,
        /// `null` on a required field, a text mask on a number, a fixed text longer than the field).
        public static let maskNotHoldable = Code(rawValue: "mask-not-holdable")
        /// A name that exists in the org only with (or without) a namespace prefix.
        public static let namespaceMismatch = Code(rawValue: "namespace-mismatch")
        /// A soup index whose type cannot hold the indexed field's values (warning).
        public static let indexTypeMismatch = Code(rawValue: "index-type-mismatch")
    }
}
